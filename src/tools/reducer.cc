#include "relaypass/tools/reducer.h"

#include <set>
#include <utility>
#include <vector>

#include "relaypass/ir/type.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/support/error.h"
#include "relaypass/tools/module_stats.h"

namespace relaypass::tools {

namespace {

// The calls of `body` outside nested functions, in post order (inputs first), iteratively.
std::vector<ir::Call> TopLevelCalls(const ir::Expr& body) {
  std::vector<ir::Call> calls;
  std::set<const ir::ExprNode*> seen;
  std::vector<std::pair<ir::Expr, bool>> stack = {{body, false}};
  while (!stack.empty()) {
    auto [expr, expanded] = stack.back();
    stack.pop_back();
    if (expanded) {
      if (expr->kind == ir::ExprKind::kCall) calls.push_back(expr.downcast<ir::CallNode>());
      continue;
    }
    if (!seen.insert(expr.get()).second) continue;
    stack.emplace_back(expr, true);
    if (expr->kind == ir::ExprKind::kFunction) continue;  // its body is another scope
    std::vector<ir::Expr> children;
    ir::ForEachChild(expr.get(), [&](const ir::Expr& child) { children.push_back(child); });
    for (auto it = children.rbegin(); it != children.rend(); ++it) stack.emplace_back(*it, false);
  }
  return calls;
}

// Replaces one call node by `replacement` wherever it is used.
class ReplaceCall : public ir::ExprMutator {
 public:
  ReplaceCall(const ir::CallNode* target, ir::Expr replacement)
      : target_(target), replacement_(std::move(replacement)) {}

 protected:
  ir::Expr RewriteCall(const ir::CallNode* pre, const ir::Expr& post) override {
    return pre == target_ ? replacement_ : post;
  }

 private:
  const ir::CallNode* target_;
  ir::Expr replacement_;
};

bool UsesVar(const ir::Expr& body, const ir::VarNode* var) {
  bool used = false;
  ir::post_order_visit(body, [&](const ir::Expr& e) {
    if (e.get() == var) used = true;
  });
  return used;
}

class Reducer {
 public:
  Reducer(const ir::IRModule& mod, const InterestingFn& interesting, const ReduceOptions& options)
      : current_(mod), interesting_(interesting), options_(options) {}

  ReduceResult Run() {
    ReduceResult result;
    result.nodes_before = CountModuleNodes(current_);
    // Bypassing a call needs its type.
    try {
      current_ = ir::InferTypes(current_);
    } catch (const Error&) {
      // Left untyped: only function dropping applies.
    }
    bool progress = true;
    while (progress && !Exhausted()) {
      progress = false;
      progress |= DropFunctions();
      progress |= BypassCalls();
      progress |= DropUnusedParams();
    }
    result.module = current_;
    result.checks = checks_;
    result.kept = kept_;
    result.nodes_after = CountModuleNodes(current_);
    result.budget_exhausted = Exhausted() && progress;
    return result;
  }

 private:
  bool Exhausted() const { return checks_ >= options_.max_checks; }

  // Keeps `candidate` if it type-checks and is interesting.
  bool Try(const ir::IRModule& candidate, const std::string& note) {
    if (Exhausted()) return false;
    ir::IRModule typed;
    try {
      typed = ir::InferTypes(candidate);
    } catch (const Error&) {
      return false;  // not a valid module: not worth a check
    }
    ++checks_;
    if (!interesting_(typed)) return false;
    current_ = typed;
    ++kept_;
    if (options_.log) options_.log(note);
    return true;
  }

  bool DropFunctions() {
    bool progress = false;
    std::vector<std::string> names;
    for (const auto& [gv, func] : current_.functions()) {
      if (gv->name_hint != "main") names.push_back(gv->name_hint);
    }
    for (const std::string& name : names) {
      ir::IRModule candidate = current_;
      candidate.Remove(name);
      progress |= Try(candidate, "dropped function @" + name);
    }
    return progress;
  }

  std::vector<std::string> FunctionNames() const {
    std::vector<std::string> names = {"main"};
    for (const auto& [gv, func] : current_.functions()) {
      if (gv->name_hint != "main") names.push_back(gv->name_hint);
    }
    return names;
  }

  bool BypassCalls() {
    bool progress = false;
    for (const std::string& name : FunctionNames()) {
      if (!current_.Contains(name)) continue;
      // From the output towards the inputs; after a reduction the list is made again and the
      // scan goes on from the same position.
      size_t position = TopLevelCalls(current_.Lookup(name)->body).size();
      while (position > 0 && !Exhausted()) {
        if (!current_.Contains(name)) break;
        const ir::Function func = current_.Lookup(name);
        const std::vector<ir::Call> calls = TopLevelCalls(func->body);
        position = std::min(position, calls.size());
        if (position == 0) break;
        --position;
        if (BypassCall(name, func, calls[position])) progress = true;
      }
    }
    return progress;
  }

  bool BypassCall(const std::string& name, const ir::Function& func, const ir::Call& call) {
    if (!call->checked_type) return false;
    const std::string what = "@" + name + ": " + Describe(call);
    // A new parameter of the call's type: the call and what only it used go away.
    {
      const ir::Var param =
          ir::MakeVar("reduced" + std::to_string(next_param_++), call->checked_type);
      const ir::Expr body = ReplaceCall(call.get(), param).Mutate(func->body);
      std::vector<ir::Var> params = func->params;
      params.push_back(param);
      if (Try(With(name,
                   ir::MakeFunction(params, body, func->ret_type, func->attrs, func->type_params)),
              what + " replaced by a new parameter %" + param->name_hint)) {
        return true;
      }
    }
    for (size_t i = 0; i < call->args.size(); ++i) {
      const ir::Expr& arg = call->args[i];
      if (!arg->checked_type || !ir::TypeEqual(arg->checked_type, call->checked_type)) continue;
      const ir::Expr body = ReplaceCall(call.get(), arg).Mutate(func->body);
      if (Try(With(name, ir::MakeFunction(func->params, body, func->ret_type, func->attrs,
                                          func->type_params)),
              what + " replaced by its argument " + std::to_string(i))) {
        return true;
      }
    }
    return false;
  }

  bool DropUnusedParams() {
    if (!current_.Contains("main")) return false;
    const ir::Function main = current_.Lookup("main");
    std::vector<ir::Var> used;
    std::vector<std::string> dropped;
    for (const ir::Var& param : main->params) {
      if (UsesVar(main->body, param.get())) {
        used.push_back(param);
      } else {
        dropped.push_back("%" + param->name_hint);
      }
    }
    if (dropped.empty()) return false;
    std::string note = "@main: dropped " + std::to_string(dropped.size()) + " unused parameter" +
                       (dropped.size() == 1 ? "" : "s") + ":";
    for (size_t i = 0; i < dropped.size() && i < 4; ++i) note += " " + dropped[i];
    if (dropped.size() > 4) note += " ...";
    return Try(With("main", ir::MakeFunction(used, main->body, main->ret_type, main->attrs,
                                             main->type_params)),
               note);
  }

  ir::IRModule With(const std::string& name, const ir::Function& func) const {
    ir::IRModule candidate = current_;
    candidate.Add(name, func);
    return candidate;
  }

  static std::string Describe(const ir::Call& call) {
    const ir::Expr& op = call->op;
    if (op->kind == ir::ExprKind::kOp) return "call of " + op.downcast<ir::OpNode>()->name;
    if (op->kind == ir::ExprKind::kGlobalVar) {
      return "call of @" + op.downcast<ir::GlobalVarNode>()->name_hint;
    }
    return "call of a function";
  }

  ir::IRModule current_;
  const InterestingFn& interesting_;
  const ReduceOptions& options_;
  int64_t checks_ = 0;
  int64_t kept_ = 0;
  int next_param_ = 0;
};

}  // namespace

ReduceResult ReduceModule(const ir::IRModule& mod, const InterestingFn& interesting,
                          const ReduceOptions& options) {
  return Reducer(mod, interesting, options).Run();
}

}  // namespace relaypass::tools
