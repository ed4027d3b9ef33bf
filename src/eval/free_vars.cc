#include "free_vars.h"

#include <utility>

namespace relaypass::eval {

namespace {

// Children of `e` (ir::ForEachChild: callees, arguments, fields, bodies; not bound variables).
template <typename F>
void ForEachWalkChild(const ir::ExprNode* e, F&& fn) {
  ir::ForEachChild(e, [&](const ir::Expr& c) { fn(c.get()); });
}

}  // namespace

const std::vector<const ir::VarNode*>& FreeVarCache::Of(const ir::FunctionNode* fn) {
  if (const Entry* done = entries_.find(fn)) return done->vars;
  // The functions nested in `fn` that have no entry yet, innermost first (post-order over
  // function nodes; a function with an entry is not entered).
  struct Frame {
    const ir::ExprNode* node;
    std::vector<const ir::ExprNode*> children;
    size_t next = 0;
  };
  support::PointerSet seen;
  std::vector<const ir::FunctionNode*> order;
  std::vector<Frame> stack;
  auto push = [&](const ir::ExprNode* e) {
    Frame frame{e, {}, 0};
    ForEachWalkChild(e, [&](const ir::ExprNode* c) { frame.children.push_back(c); });
    stack.push_back(std::move(frame));
  };
  seen.insert(fn);
  push(fn);
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.next < top.children.size()) {
      const ir::ExprNode* child = top.children[top.next++];
      if (!child || !seen.insert(child)) continue;
      if (child->kind == ir::ExprKind::kFunction && entries_.contains(child)) continue;
      push(child);
      continue;
    }
    const ir::ExprNode* done = top.node;
    stack.pop_back();
    if (done->kind == ir::ExprKind::kFunction) {
      order.push_back(static_cast<const ir::FunctionNode*>(done));
    }
  }
  for (const ir::FunctionNode* f : order) Compute(f);
  return entries_.find(fn)->vars;
}

void FreeVarCache::Compute(const ir::FunctionNode* fn) {
  // Walk fn's own region (not entering nested functions, whose sets are known): the variables
  // it uses, the ones it binds, and the nested functions' free variables.
  support::PointerSet bound;
  for (const ir::Var& p : fn->params) bound.insert(p.get());
  support::PointerSet seen;
  std::vector<const ir::VarNode*> uses;
  std::vector<const ir::ExprNode*> stack = {fn->body.get()};
  // Post-order is not needed: a variable is free if it is never bound in the region, whatever
  // the order of the walk; uses keep their first-seen order for a stable capture order.
  while (!stack.empty()) {
    const ir::ExprNode* e = stack.back();
    stack.pop_back();
    if (!e || !seen.insert(e)) continue;
    switch (e->kind) {
      case ir::ExprKind::kVar:
        uses.push_back(static_cast<const ir::VarNode*>(e));
        break;
      case ir::ExprKind::kFunction:
        for (const ir::VarNode* v : entries_.find(e)->vars) uses.push_back(v);
        break;
      case ir::ExprKind::kMatch:
        for (const ir::Clause& c : static_cast<const ir::MatchNode*>(e)->clauses) {
          for (const ir::Var& v : ir::PatternVars(c->lhs)) bound.insert(v.get());
        }
        [[fallthrough]];
      case ir::ExprKind::kLet:
        if (e->kind == ir::ExprKind::kLet) {
          bound.insert(static_cast<const ir::LetNode*>(e)->var.get());
        }
        [[fallthrough]];
      default: {
        // Children pushed in reverse, so the walk meets them in evaluation order.
        std::vector<const ir::ExprNode*> children;
        ForEachWalkChild(e, [&](const ir::ExprNode* c) { children.push_back(c); });
        for (auto it = children.rbegin(); it != children.rend(); ++it) stack.push_back(*it);
        break;
      }
    }
  }
  Entry entry{ir::Expr(fn), {}};
  support::PointerSet added;
  for (const ir::VarNode* v : uses) {
    if (!bound.contains(v) && added.insert(v)) entry.vars.push_back(v);
  }
  entries_.emplace(fn, std::move(entry));
}

}  // namespace relaypass::eval
