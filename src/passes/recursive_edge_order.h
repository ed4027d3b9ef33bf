// The order in which TVM's recursive visitors (ExprMutator, DependencyGraph's creator) reach
// the edges of an expression DAG, computed with an explicit stack.
//
// A recursive visitor reaches the edge parent -> child when the parent's loop over its children
// gets to it and the child is done: at once if the child was visited before, otherwise when the
// child's own visit returns. This is not post-order: a parent that reaches a shared child early
// (its first argument) comes before a node inside its later arguments that also uses the child.
// Passes whose result depends on "the first use" (CanonicalizeCast's copies,
// ToBasicBlockNormalForm's lifted expressions) follow this order.
#pragma once

#include <cstdint>
#include <vector>

#include "relaypass/ir/post_order_index.h"

namespace relaypass::passes {

/// Calls fn(parent, position, child) for every edge of `index` reachable from `root` (children in
/// PostOrderIndex order, position counting from 0, null children skipped), in the order a
/// recursive memoizing visitor reaches them.
template <typename F>
void ForEachEdgeInRecursiveOrder(const ir::PostOrderIndex& index, ir::PostOrderIndex::Id root,
                                 F&& fn) {
  struct Frame {
    ir::PostOrderIndex::Id id;
    uint32_t next;
  };
  std::vector<uint8_t> started(index.size(), 0);
  std::vector<Frame> stack{{root, 0}};
  started[root] = 1;
  while (!stack.empty()) {
    Frame& f = stack.back();
    const auto children = index.children(f.id);
    bool pushed = false;
    while (f.next < children.size()) {
      const uint32_t pos = f.next++;
      const ir::PostOrderIndex::Id child = children[pos];
      if (child == ir::PostOrderIndex::kNone) continue;
      if (started[child]) {
        fn(f.id, pos, child);
        continue;
      }
      started[child] = 1;
      stack.push_back({child, 0});
      pushed = true;
      break;
    }
    if (pushed) continue;
    const ir::PostOrderIndex::Id done = f.id;
    stack.pop_back();
    if (!stack.empty()) fn(stack.back().id, stack.back().next - 1, done);
  }
}

}  // namespace relaypass::passes
