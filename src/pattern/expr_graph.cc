#include "expr_graph.h"

#include <utility>

namespace relaypass::pattern {

ExprGraph::ExprGraph(const ir::Expr& root) : root_(root) {
  const Id root_id = index_.Add(root);
  const size_t n = index_.size();
  users_.resize(n);
  for (Id id : index_.post_order()) {
    for (Id child : index_.children(id)) {
      if (child != kNone) users_[child].push_back(id);
    }
  }
  // Parents before children: every user of a node has its immediate post-dominator already.
  ipdom_.assign(n, kNone);
  depth_.assign(n, 0);
  dom_children_.resize(n);
  const std::vector<Id>& order = index_.post_order();
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const Id id = *it;
    if (id == root_id || users_[id].empty()) continue;
    Id lca = users_[id][0];
    for (size_t i = 1; i < users_[id].size() && lca != kNone; ++i) {
      Id other = users_[id][i];
      while (lca != other && lca != kNone && other != kNone) {
        if (depth_[lca] > depth_[other]) {
          lca = ipdom_[lca];
        } else if (depth_[other] > depth_[lca]) {
          other = ipdom_[other];
        } else {
          lca = ipdom_[lca];
          other = ipdom_[other];
        }
      }
      if (lca != other) lca = kNone;
    }
    if (lca == kNone) continue;
    ipdom_[id] = lca;
    depth_[id] = depth_[lca] + 1;
    dom_children_[lca].push_back(id);
  }
  // Euler tour of the tree, for Dominates in constant time.
  tin_.assign(n, 0);
  tout_.assign(n, 0);
  uint32_t clock = 0;
  std::vector<std::pair<Id, size_t>> stack;
  for (Id top = 0; top < n; ++top) {
    if (ipdom_[top] != kNone) continue;
    stack.push_back({top, 0});
    tin_[top] = clock++;
    while (!stack.empty()) {
      auto& [id, next] = stack.back();
      if (next < dom_children_[id].size()) {
        Id child = dom_children_[id][next++];
        tin_[child] = clock++;
        stack.push_back({child, 0});
      } else {
        tout_[id] = clock++;
        stack.pop_back();
      }
    }
  }
}

}  // namespace relaypass::pattern
