#include "relaypass/ir/bind.h"

#include <unordered_set>

#include "relaypass/ir/visitor.h"

namespace relaypass::ir {

namespace {

class Binder : public ExprMutator {
 public:
  explicit Binder(const std::unordered_map<const VarNode*, Expr>& bindings) : bindings_(bindings) {}

 protected:
  Expr RewriteVar(const VarNode* pre, const Expr& post) override {
    auto it = bindings_.find(pre);
    return it == bindings_.end() ? post : it->second;
  }

 private:
  const std::unordered_map<const VarNode*, Expr>& bindings_;
};

}  // namespace

Expr Bind(const Expr& expr, const std::unordered_map<const VarNode*, Expr>& bindings) {
  return Binder(bindings).Mutate(expr);
}

Expr BindAsRelay(const Expr& expr, const std::unordered_map<const VarNode*, Expr>& bindings) {
  const auto* func = expr.as<FunctionNode>();
  if (func == nullptr) return Bind(expr, bindings);
  Expr body = Bind(func->body, bindings);
  std::vector<Var> params;
  for (const Var& p : func->params) {
    if (!bindings.count(p.get())) params.push_back(p);
  }
  if (body.same_as(func->body) && params.size() == func->params.size()) return expr;
  std::unordered_set<const VarNode*> before;
  for (const Var& v : FreeVars(expr)) before.insert(v.get());
  Function bound = MakeFunction(params, body, func->ret_type, func->attrs, func->type_params);
  for (const Var& v : FreeVars(bound)) {
    if (!before.count(v.get())) params.push_back(v);
  }
  Function out =
      MakeFunction(std::move(params), body, func->ret_type, func->attrs, func->type_params);
  const_cast<FunctionNode*>(out.get())->span = func->span;
  const_cast<FunctionNode*>(out.get())->virtual_device = func->virtual_device;
  return out;
}

Function BindParamsByName(const Function& func, const std::map<std::string, NDArray>& params) {
  std::unordered_map<std::string, const VarNode*> by_name;
  std::unordered_set<std::string> repeated;
  for (const Var& p : func->params) {
    if (!by_name.emplace(p->name_hint, p.get()).second) repeated.insert(p->name_hint);
  }
  std::unordered_map<const VarNode*, Expr> bindings;
  for (const auto& [name, value] : params) {
    auto it = by_name.find(name);
    if (it == by_name.end()) continue;
    if (repeated.count(name)) {
      throw Error("multiple parameters are named " + name + "; cannot bind by name");
    }
    bindings[it->second] = MakeConstant(value);
  }
  if (bindings.empty()) return func;
  std::vector<Var> remaining;
  for (const Var& p : func->params) {
    if (!bindings.count(p.get())) remaining.push_back(p);
  }
  Expr body = Bind(func->body, bindings);
  Function out =
      MakeFunction(std::move(remaining), body, func->ret_type, func->attrs, func->type_params);
  const_cast<FunctionNode*>(out.get())->span = func->span;
  const_cast<FunctionNode*>(out.get())->virtual_device = func->virtual_device;
  return out;
}

}  // namespace relaypass::ir
