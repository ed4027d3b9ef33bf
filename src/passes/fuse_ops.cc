#include "relaypass/passes/fuse_ops.h"

#include "fuse/fuse_rewriter.h"

namespace relaypass::passes {

transform::Pass FuseOps(int fuse_opt_level) {
  auto pass_func = [fuse_opt_level](const ir::Function& func, const ir::IRModule&,
                                    const transform::PassContext& ctx) {
    fuse::FuseOptions options;
    options.opt_level = fuse_opt_level == -1 ? ctx.opt_level() : fuse_opt_level;
    options.max_fuse_depth =
        static_cast<uint32_t>(ctx.GetConfig("relay.FuseOps.max_depth").as_int());
    options.link_params = ctx.GetConfig("relay.FuseOps.link_params").as_bool();
    return fuse::FuseExpr(func, options).downcast<ir::FunctionNode>();
  };
  return transform::CreateFunctionPass(pass_func, 0, "FuseOps", {"InferType"});
}

void RegisterFuseOps(transform::PassRegistry& registry) {
  registry.Register(
      {"FuseOps",
       {{"fuse_opt_level", transform::OptionType::kInt, transform::OptionValue::Int(-1),
         "fusion level; -1 uses the PassContext's opt_level"}},
       [](const transform::PassOptions& options) {
         return FuseOps(static_cast<int>(options.GetInt("fuse_opt_level")));
       },
       "fuses operators into primitive functions"});
}

}  // namespace relaypass::passes
