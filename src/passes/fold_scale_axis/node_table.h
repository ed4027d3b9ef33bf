// Dense per-node tables for the analyses of both directions: the nodes of an expression are
// numbered in post-order (children before parents) and tables are arrays indexed by that number.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "relaypass/ir/expr.h"
#include "relaypass/ir/post_order_index.h"

namespace relaypass::passes::fold_scale_axis {

class NodeIndex {
 public:
  explicit NodeIndex(const ir::Expr& root);
  // The nodes in post-order; the root is the last one.
  const std::vector<ir::Expr>& nodes() const { return nodes_; }
  size_t size() const { return nodes_.size(); }
  // The numbers of node `number`'s children in ir::ForEachChild's order (a call: its op, then
  // its args; a function: its body; a let: its value, then its body). No table lookups: the hot
  // loops use this.
  std::span<const uint32_t> children(uint32_t number) const {
    return {children_.data() + child_begin_[number], children_.data() + child_begin_[number + 1]};
  }
  // The number of `node`, which must be reachable from the root (a table lookup).
  uint32_t of(const ir::ExprNode* node) const { return number_of_id_[index_.find(node)]; }
  uint32_t of(const ir::Expr& node) const { return of(node.get()); }

 private:
  ir::PostOrderIndex index_;
  std::vector<uint32_t> number_of_id_;  // PostOrderIndex id -> post-order number
  std::vector<ir::Expr> nodes_;
  std::vector<uint32_t> child_begin_;  // size() + 1 offsets into children_
  std::vector<uint32_t> children_;
};

// A value for some of the nodes: one slot per node, the values stored densely. References
// returned by operator[] move when a later insertion grows the storage.
template <typename T>
class NodeTable {
 public:
  explicit NodeTable(size_t num_nodes) : slot_(num_nodes, -1) {}

  const T* find(uint32_t node) const {
    int32_t slot = slot_[node];
    return slot < 0 ? nullptr : &values_[static_cast<size_t>(slot)];
  }
  T* find(uint32_t node) { return const_cast<T*>(static_cast<const NodeTable*>(this)->find(node)); }
  // The value of `node`, default-constructed on first use.
  T& operator[](uint32_t node) {
    if (slot_[node] < 0) {
      slot_[node] = static_cast<int32_t>(values_.size());
      values_.emplace_back();
    }
    return values_[static_cast<size_t>(slot_[node])];
  }
  bool empty() const { return values_.empty(); }

 private:
  std::vector<int32_t> slot_;
  std::vector<T> values_;
};

}  // namespace relaypass::passes::fold_scale_axis
