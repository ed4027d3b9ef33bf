// The printer's view of a function: every node reachable from it gets a dense id (kept for the
// whole print, so state can live in plain vectors), its inputs as ids, and whether it is
// referenced at most once. The printer inlines such a node when it is the result of a scope and
// binds every other non-atomic node to a `%N` temp (relay_semantics.md 1.7, TVM's
// DependencyGraph as the printer uses it).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "relaypass/ir/expr.h"
#include "relaypass/support/pointer_map.h"

namespace relaypass::text {

class DependencyGraph {
 public:
  // Indexes every node reachable from `root`, through closures, lets and ifs, and counts its
  // references: one per use (a call using a node twice counts twice). Replaces the previous
  // graph; ids given before stay the same.
  void Build(const ir::Expr& root);

  // The id of `node`, giving it one if it has none (a parameter nothing uses has none yet).
  uint32_t IdOf(const ir::ExprNode* node) {
    auto [id, inserted] = index_.emplace(node, static_cast<uint32_t>(nodes_.size()));
    if (inserted) AddSlot(node);
    return *id;
  }
  size_t num_ids() const { return nodes_.size(); }
  const ir::ExprNode* node(uint32_t id) const { return nodes_[id]; }

  // The inputs of a node of the current graph, as ir::ForEachChild lists them (a call's callee
  // then its arguments, a function's body, a let's value then body, an if's condition then
  // branches).
  std::span<const uint32_t> inputs(uint32_t id) const {
    return {inputs_.data() + first_input_[id], num_inputs_[id]};
  }

  // True if the node has at most one reference, or is not in the current graph.
  bool IsUnique(uint32_t id) const { return stamp_[id] != epoch_ || refs_[id] <= 1; }

 private:
  void AddSlot(const ir::ExprNode* node);

  support::PointerMap<uint32_t> index_;
  std::vector<const ir::ExprNode*> nodes_;
  // Per id: valid for the current graph iff stamp_[id] == epoch_.
  std::vector<uint32_t> stamp_;
  std::vector<uint8_t> refs_;  // saturates at 2
  std::vector<uint32_t> first_input_;
  std::vector<uint32_t> num_inputs_;
  std::vector<uint32_t> inputs_;
  uint32_t epoch_ = 0;
};

}  // namespace relaypass::text
