#include "plan.h"

#include <unordered_map>

#include "relaypass/ir/visitor.h"
#include "relaypass/support/error.h"

namespace relaypass::eval {

namespace {

// Calls fn(child) for each dependency of `e` (see Plan::deps); `free_vars` gives a nested
// function's free variables.
template <typename FreeVarsOf, typename F>
void ForEachDep(const ir::ExprNode* e, FreeVarsOf&& free_vars, F&& fn) {
  switch (e->kind) {
    case ir::ExprKind::kCall: {
      const auto* call = static_cast<const ir::CallNode*>(e);
      if (call->op->kind != ir::ExprKind::kOp && call->op->kind != ir::ExprKind::kConstructor) {
        fn(call->op.get());
      }
      for (const ir::Expr& a : call->args) fn(a.get());
      break;
    }
    case ir::ExprKind::kFunction:
      for (const ir::VarNode* v : free_vars(e)) fn(v);
      break;
    default:
      ir::ForEachChild(e, [&](const ir::Expr& c) { fn(c.get()); });
      break;
  }
}

}  // namespace

Plan BuildPlan(const ir::FunctionNode* func, FreeVarCache& cache) {
  Plan plan;
  std::unordered_map<const ir::ExprNode*, std::vector<const ir::VarNode*>> captures;
  auto free_vars = [&](const ir::ExprNode* fn) -> const std::vector<const ir::VarNode*>& {
    auto it = captures.find(fn);
    if (it != captures.end()) return it->second;
    std::vector<const ir::VarNode*>& vars = captures[fn];
    const ir::VarNode* const* self = plan.self.find(fn);
    for (const ir::VarNode* v : cache.Of(static_cast<const ir::FunctionNode*>(fn))) {
      if (!self || v != *self) vars.push_back(v);
    }
    return vars;
  };
  // Pass 1: number every node reachable from the body.
  std::vector<const ir::ExprNode*> stack = {func->body.get()};
  for (const ir::Var& p : func->params) stack.push_back(p.get());
  while (!stack.empty()) {
    const ir::ExprNode* e = stack.back();
    stack.pop_back();
    if (!e) throw InternalError("evaluator: null expression in function body");
    if (!plan.index.emplace(e, static_cast<int32_t>(plan.nodes.size())).second) continue;
    plan.nodes.push_back(e);
    if (e->kind == ir::ExprKind::kLet) {  // before its value is reached (parents come first)
      const auto* let = static_cast<const ir::LetNode*>(e);
      if (let->value->kind == ir::ExprKind::kFunction)
        plan.self.emplace(let->value.get(), let->var.get());
    }
    ForEachDep(e, free_vars, [&](const ir::ExprNode* c) {
      if (!plan.index.contains(c)) stack.push_back(c);
    });
  }
  // Pass 2: dependency lists and use counts.
  const size_t n = plan.nodes.size();
  plan.dep_begin.assign(n + 1, 0);
  plan.uses.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    plan.dep_begin[i] = static_cast<int32_t>(plan.deps.size());
    ForEachDep(plan.nodes[i], free_vars, [&](const ir::ExprNode* c) {
      const int32_t j = plan.index.at(c);
      plan.deps.push_back(j);
      ++plan.uses[j];
    });
  }
  plan.dep_begin[n] = static_cast<int32_t>(plan.deps.size());
  plan.root = plan.index.at(func->body.get());
  ++plan.uses[plan.root];
  return plan;
}

}  // namespace relaypass::eval
