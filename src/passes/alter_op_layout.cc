#include "relaypass/passes/alter_op_layout.h"

#include "layout/transform_layout.h"
#include "relaypass/op/registry.h"

namespace relaypass::passes {

namespace {

// AlterOpLayout re-creates a call through the op's registered hook, if any.
class AlterCallBuilder : public layout::LayoutCallBuilder {
 public:
  ir::Expr CallWithNewLayouts(const ir::CallNode& ref_call, const ir::Attrs& new_attrs,
                              const std::vector<ir::Expr>& args) override {
    if (AlterOpLayoutFunc hook = GetAlterOpLayout(ref_call.op_node()->name)) {
      std::vector<ir::Type> tinfos;
      for (const ir::Expr& arg : ref_call.args) tinfos.push_back(arg->checked_type);
      if (ir::Expr altered = hook(new_attrs, args, tinfos, ref_call.checked_type)) return altered;
    }
    return ir::MakeCall(ref_call.op, args, new_attrs);
  }
};

}  // namespace

transform::Pass AlterOpLayout() {
  return transform::CreateFunctionPass(
      [](const ir::Function& func, const ir::IRModule& mod, const transform::PassContext&) {
        AlterCallBuilder builder;
        return layout::RewriteLayouts(func, mod, builder);
      },
      3, "AlterOpLayout", {"InferType"});
}

void RegisterAlterOpLayout(transform::PassRegistry& registry) {
  registry.Register({"AlterOpLayout",
                     {},
                     [](const transform::PassOptions&) { return AlterOpLayout(); },
                     "replaces operators through their registered AlterOpLayout hooks, inserting "
                     "layout_transforms"});
}

}  // namespace relaypass::passes
