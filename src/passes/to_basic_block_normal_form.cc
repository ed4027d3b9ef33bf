#include "relaypass/passes/to_basic_block_normal_form.h"

#include "relaypass/passes/to_a_normal_form.h"

namespace relaypass::passes {

transform::Pass ToBasicBlockNormalForm() {
  auto pass_func = [](const ir::IRModule& mod, const transform::PassContext&) {
    ir::IRModule result = mod;
    for (const auto& [gv, func] : mod.functions()) {
      const ir::AttrValue* compiler = func->attrs.find("Compiler");
      if (compiler && !compiler->is_null()) continue;
      result.Add(gv, ToBasicBlockNormalForm(ir::Expr(func)).downcast<ir::FunctionNode>());
    }
    return result;
  };
  return transform::CreateModulePass(pass_func, 1, "ToBasicBlockNormalForm");
}

void RegisterToBasicBlockNormalForm(transform::PassRegistry& registry) {
  registry.Register({"ToBasicBlockNormalForm",
                     {},
                     [](const transform::PassOptions&) { return ToBasicBlockNormalForm(); },
                     "binds the expressions shared across scopes to let variables"});
}

}  // namespace relaypass::passes
