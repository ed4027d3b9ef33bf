#include "substitute.h"

#include <vector>

#include "relaypass/support/pointer_map.h"

namespace relaypass::passes::combine_parallel {

namespace {

using ir::Expr;
using ir::ExprKind;
using ir::ExprNode;

// A copy of `e` (keeping its checked type, as TVM's WithFields) on the children `kids`, given in
// ForEachChild order; `e` itself when no child changed.
Expr WithChildren(const Expr& e, const std::vector<Expr>& kids) {
  size_t i = 0;
  bool changed = false;
  ir::ForEachChild(e.get(), [&](const Expr& c) { changed |= !c.same_as(kids[i++]); });
  if (!changed) return e;
  Expr copy = ir::CopyNode(e);
  auto* node = const_cast<ExprNode*>(copy.get());  // fresh, not yet shared
  i = 0;
  switch (node->kind) {
    case ExprKind::kCall: {
      auto* call = static_cast<ir::CallNode*>(node);
      call->op = kids[i++];
      for (Expr& a : call->args) a = kids[i++];
      break;
    }
    case ExprKind::kTuple:
      for (Expr& f : static_cast<ir::TupleNode*>(node)->fields) f = kids[i++];
      break;
    case ExprKind::kTupleGetItem:
      static_cast<ir::TupleGetItemNode*>(node)->tuple = kids[0];
      break;
    case ExprKind::kFunction:
      static_cast<ir::FunctionNode*>(node)->body = kids[0];
      break;
    case ExprKind::kLet: {
      auto* let = static_cast<ir::LetNode*>(node);
      let->value = kids[0];
      let->body = kids[1];
      break;
    }
    case ExprKind::kIf: {
      auto* n = static_cast<ir::IfNode*>(node);
      n->cond = kids[0];
      n->true_branch = kids[1];
      n->false_branch = kids[2];
      break;
    }
    case ExprKind::kRefCreate:
      static_cast<ir::RefCreateNode*>(node)->value = kids[0];
      break;
    case ExprKind::kRefRead:
      static_cast<ir::RefReadNode*>(node)->ref = kids[0];
      break;
    case ExprKind::kRefWrite: {
      auto* n = static_cast<ir::RefWriteNode*>(node);
      n->ref = kids[0];
      n->value = kids[1];
      break;
    }
    default:
      break;
  }
  return copy;
}

}  // namespace

Expr Substitute(const Expr& root, const SubstMap& subst) {
  if (subst.empty() || !root) return root;
  support::PointerMap<Expr> results;
  struct Frame {
    const ExprNode* node;
    bool expanded;
  };
  std::vector<Frame> stack{{root.get(), false}};
  std::vector<Expr> kids;
  // The node a node's result is read from: its replacement if it has one.
  auto source = [&](const ExprNode* n) {
    auto it = subst.find(n);
    return it == subst.end() ? nullptr : it->second.get();
  };
  while (!stack.empty()) {
    const ExprNode* node = stack.back().node;
    if (results.contains(node)) {
      stack.pop_back();
      continue;
    }
    if (!stack.back().expanded) {
      stack.back().expanded = true;
      if (const ExprNode* replacement = source(node)) {
        if (!results.contains(replacement)) stack.push_back({replacement, false});
      } else {
        ir::ForEachChild(node, [&](const Expr& c) {
          if (c && !results.contains(c.get())) stack.push_back({c.get(), false});
        });
      }
      continue;
    }
    stack.pop_back();
    if (const ExprNode* replacement = source(node)) {
      results.emplace(node, results.at(replacement));
      continue;
    }
    kids.clear();
    ir::ForEachChild(node, [&](const Expr& c) { kids.push_back(c ? results.at(c.get()) : c); });
    results.emplace(node, WithChildren(Expr(node), kids));
  }
  return results.at(root.get());
}

}  // namespace relaypass::passes::combine_parallel
