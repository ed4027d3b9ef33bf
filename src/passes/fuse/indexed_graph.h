// The indexed forward dataflow graph that FuseOps partitions (TVM's IndexedForwardGraph).
//
// One node per Var, Constant, Call, Tuple, TupleGetItem, Let and If reachable from the body
// (Op, GlobalVar and Function nodes are not graph nodes), numbered in post-DFS order: a node comes
// after its children, a call's children are its callee then its arguments. Each node has its op
// pattern and its forward edges to the nodes that consume it, in the order the consumers were
// first reached. A node is `extern_ref` when something other than a fusable consumer uses it
// (function params and bodies, let/if operands, the root); such a node has no post-dominator.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "relaypass/ir/expr.h"
#include "relaypass/op/registry.h"
#include "relaypass/support/pointer_map.h"

namespace relaypass::passes::fuse {

using op::OpPattern;

// The larger of two patterns (the order of OpPattern is the order of generality).
inline OpPattern MaxPattern(OpPattern a, OpPattern b) {
  return a > b ? a : b;
}

struct ForwardEdge {
  uint32_t node;      // the consumer's index
  OpPattern pattern;  // how the consumer uses this node
};

class IndexedForwardGraph {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;

  // Builds the graph of `body` (usually a function). Iterative: any depth. The expressions must
  // carry checked types (FuseOps requires InferType).
  static IndexedForwardGraph Create(const ir::Expr& body);

  uint32_t size() const { return static_cast<uint32_t>(refs_.size()); }
  const ir::ExprNode* ref(uint32_t i) const { return refs_[i]; }
  bool extern_ref(uint32_t i) const { return extern_ref_[i] != 0; }
  OpPattern pattern(uint32_t i) const { return patterns_[i]; }
  std::span<const ForwardEdge> outputs(uint32_t i) const {
    return {edges_.data() + edge_begin_[i], edges_.data() + edge_begin_[i + 1]};
  }
  // The index of `node`, or kNone if it is not a graph node.
  uint32_t IndexOf(const ir::ExprNode* node) const {
    const uint32_t* i = index_of_.find(node);
    return i ? *i : kNone;
  }

 private:
  friend class GraphBuilder;
  std::vector<const ir::ExprNode*> refs_;
  std::vector<uint8_t> extern_ref_;
  std::vector<OpPattern> patterns_;
  std::vector<uint32_t> edge_begin_;  // size() + 1 offsets into edges_
  std::vector<ForwardEdge> edges_;
  support::PointerMap<uint32_t> index_of_;
};

}  // namespace relaypass::passes::fuse
