// Iterative walks over an expression for the device planner: each node once, children in TVM's
// ExprVisitor order, with an explicit stack (no recursion on the depth of the program).
#pragma once

#include <utility>
#include <vector>

#include "relaypass/ir/expr.h"
#include "relaypass/support/pointer_map.h"

namespace relaypass::passes::devices {

/// `expr` as a `T` if it is one, else null.
template <typename T>
const T* As(const ir::ExprNode* expr) {
  return expr && expr->kind == T::kKind ? static_cast<const T*>(expr) : nullptr;
}

/// The sub-expressions TVM's ExprVisitor visits, in its order (patterns excluded).
void ExprChildren(const ir::ExprNode* expr, std::vector<const ir::ExprNode*>& out);

/// Calls `pre(node)` before a node's children and `post(node)` after them; a false `pre` skips
/// the children (and still calls `post`).
template <typename Pre, typename Post>
void WalkExpr(const ir::ExprNode* root, Pre&& pre, Post&& post) {
  support::PointerSet seen;  // flat: the walks meet every node of million-node programs
  std::vector<std::pair<const ir::ExprNode*, bool>> stack = {{root, false}};
  std::vector<const ir::ExprNode*> children;
  while (!stack.empty()) {
    auto [node, expanded] = stack.back();
    stack.pop_back();
    if (expanded) {
      post(node);
      continue;
    }
    if (!seen.insert(node)) continue;
    stack.push_back({node, true});
    if (!pre(node)) continue;
    children.clear();
    ExprChildren(node, children);
    for (size_t i = children.size(); i-- > 0;) {
      if (!seen.contains(children[i])) stack.push_back({children[i], false});
    }
  }
}

}  // namespace relaypass::passes::devices
