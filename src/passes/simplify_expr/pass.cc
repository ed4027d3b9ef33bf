#include "relaypass/passes/simplify_expr.h"

#include "rules.h"

namespace relaypass::passes {

transform::Pass SimplifyExpr() {
  return transform::CreateFunctionPass(
      [](const ir::Function& func, const ir::IRModule& mod, const transform::PassContext&) {
        static const std::vector<simplify::Rule> rules = simplify::SimplifyExprRules();
        return simplify::RewriteWithRules(func, mod, rules, simplify::kTvmSimplifyExprCallbacks);
      },
      0, "SimplifyExpr", {"InferType"});
}

transform::Pass SimplifyExprPostAlterOp() {
  return transform::CreateFunctionPass(
      [](const ir::Function& func, const ir::IRModule& mod, const transform::PassContext&) {
        static const std::vector<simplify::Rule> rules = simplify::PostAlterOpRules();
        return simplify::RewriteWithRules(func, mod, rules, simplify::kTvmPostAlterOpCallbacks);
      },
      0, "SimplifyExprPostAlterOp", {"InferType"});
}

void RegisterSimplifyExpr(transform::PassRegistry& registry) {
  registry.Register({"SimplifyExpr",
                     {},
                     [](const transform::PassOptions&) { return SimplifyExpr(); },
                     "simplifies reshapes, transposes, casts, identities and constant chains"});
  registry.Register({"SimplifyExprPostAlterOp",
                     {},
                     [](const transform::PassOptions&) { return SimplifyExprPostAlterOp(); },
                     "SimplifyExpr's clean-up subset for after AlterOpLayout"});
}

}  // namespace relaypass::passes
