#include "relaypass/passes/defuse_ops.h"

#include <string>
#include <unordered_map>

#include "relaypass/ir/bind.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/support/error.h"

namespace relaypass::passes {

namespace {

using ir::Expr;

// Calls of function literals become the functions' bodies. The mutator visits a called function
// (and so the calls inside it) before the call, so nested fused functions are defused as well.
class Defuser : public ir::ExprMutator {
 protected:
  Expr RewriteCall(const ir::CallNode*, const Expr& post) override {
    auto* call = post.as<ir::CallNode>();
    auto* func = call->op.as<ir::FunctionNode>();
    if (func == nullptr) return post;
    std::unordered_map<std::string, Expr> by_name;
    for (size_t i = 0; i < func->params.size() && i < call->args.size(); ++i) {
      const std::string& name = func->params[i]->name_hint;
      if (!by_name.emplace(name, call->args[i]).second) {
        throw PassError("DefuseOps: found multiple parameters sharing the variable name `" + name +
                        "`, which introduces uncertainty in DefuseOps pass");
      }
    }
    // TVM replaces every variable of the body by the argument of the parameter of its name.
    std::unordered_map<const ir::VarNode*, Expr> bindings;
    ir::post_order_visit(func->body, [&](const Expr& e) {
      if (auto* var = e.as<ir::VarNode>()) {
        auto it = by_name.find(var->name_hint);
        if (it != by_name.end()) bindings.emplace(var, it->second);
      }
    });
    return ir::Bind(func->body, bindings);
  }
};

}  // namespace

transform::Pass DefuseOps() {
  return transform::CreateFunctionPass(
      [](const ir::Function& func, const ir::IRModule&, const transform::PassContext&) {
        return Defuser().Mutate(func).downcast<ir::FunctionNode>();
      },
      3, "DefuseOps", {"InferType"});
}

void RegisterDefuseOps(transform::PassRegistry& registry) {
  registry.Register({"DefuseOps",
                     {},
                     [](const transform::PassOptions&) { return DefuseOps(); },
                     "inlines the bodies of fused (called function literal) functions"});
}

}  // namespace relaypass::passes
