// The expression side of pattern matching: the nodes reachable from a root, numbered
// (ir::PostOrderIndex), each node's users, and the post-dominator tree (TVM's IndexedGraph
// dominator_parent_ / dominator_children_: a node's immediate dominator is the closest node that
// every path from it to the root passes through). All built iteratively, linear on chains.
#pragma once

#include <cstdint>
#include <vector>

#include "relaypass/ir/expr.h"
#include "relaypass/ir/post_order_index.h"

namespace relaypass::pattern {

class ExprGraph {
 public:
  using Id = ir::PostOrderIndex::Id;
  static constexpr Id kNone = ir::PostOrderIndex::kNone;

  explicit ExprGraph(const ir::Expr& root);

  size_t size() const { return index_.size(); }
  // Nodes, children before parents.
  const std::vector<Id>& post_order() const { return index_.post_order(); }
  const ir::ExprNode* node(Id id) const { return index_.node(id); }
  ir::Expr expr(Id id) const { return ir::Expr(index_.node(id)); }
  Id find(const ir::ExprNode* node) const { return index_.find(node); }
  std::span<const Id> inputs(Id id) const { return index_.children(id); }
  const std::vector<Id>& users(Id id) const { return users_[id]; }
  // The post-dominator tree.
  Id dominator_parent(Id id) const { return ipdom_[id]; }
  const std::vector<Id>& dominator_children(Id id) const { return dom_children_[id]; }
  // True if every path from `b` to the root passes through `a` (a == b included).
  bool Dominates(Id a, Id b) const { return tin_[a] <= tin_[b] && tout_[b] <= tout_[a]; }

 private:
  ir::Expr root_;  // keeps the nodes alive
  ir::PostOrderIndex index_;
  std::vector<std::vector<Id>> users_;
  std::vector<Id> ipdom_;
  std::vector<uint32_t> depth_;
  std::vector<std::vector<Id>> dom_children_;
  std::vector<uint32_t> tin_, tout_;
};

}  // namespace relaypass::pattern
