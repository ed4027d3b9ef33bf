#include "relaypass/passes/dynamic_to_static.h"

#include "relaypass/ir/type_infer.h"
#include "relaypass/passes/fold_constant.h"

namespace relaypass::passes {

transform::Pass DynamicToStatic() {
  return transform::CreateFunctionPass(
      [](const ir::Function& func, const ir::IRModule& mod, const transform::PassContext&) {
        // No dyn.* operators to make static; PrepareInput: the module with this function, folded
        // and typed, gives the function back.
        std::string name;
        for (const auto& [gv, f] : mod.functions()) {
          if (f.same_as(func)) name = gv->name_hint;
        }
        if (name.empty()) return func;
        ir::IRModule folded = ir::InferTypes(FoldConstant()(mod));
        return folded.Lookup(name);
      },
      2, "DynamicToStatic");
}

void RegisterDynamicToStatic(transform::PassRegistry& registry) {
  registry.Register({"DynamicToStatic",
                     {},
                     [](const transform::PassOptions&) { return DynamicToStatic(); },
                     "makes dyn.* operators with constant shapes static (none here) and folds "
                     "constants"});
}

}  // namespace relaypass::passes
