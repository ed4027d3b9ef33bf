// The one list of the library's passes and config options (include/relaypass/passes/
// registered_passes.h). A pass file defines `void RegisterXxx(transform::PassRegistry&)`
// (declared in its header under include/relaypass/passes/) and adds one line below, plus the
// include of that header. An explicit list, not static registrar objects in every pass file:
// those are dropped when nothing else in their object file is referenced from the static
// library. src/builtins installs the list into the process-wide registries.
#include "relaypass/passes/registered_passes.h"

#include "relaypass/passes/alter_op_layout.h"
#include "relaypass/passes/byoc.h"
#include "relaypass/passes/canonicalize_cast.h"
#include "relaypass/passes/canonicalize_ops.h"
#include "relaypass/passes/combine_parallel.h"
#include "relaypass/passes/convert_layout.h"
#include "relaypass/passes/dead_code.h"
#include "relaypass/passes/defuse_ops.h"
#include "relaypass/passes/dynamic_to_static.h"
#include "relaypass/passes/eliminate_common_subexpr.h"
#include "relaypass/passes/eta_expand.h"
#include "relaypass/passes/fast_math.h"
#include "relaypass/passes/flatten_atrous_conv.h"
#include "relaypass/passes/fold_constant.h"
#include "relaypass/passes/fold_explicit_padding.h"
#include "relaypass/passes/fold_scale_axis.h"
#include "relaypass/passes/fuse_ops.h"
#include "relaypass/passes/inline.h"
#include "relaypass/passes/label_ops.h"
#include "relaypass/passes/lambda_lift.h"
#include "relaypass/passes/lazy_gradient_init.h"
#include "relaypass/passes/legalize.h"
#include "relaypass/passes/plan_devices.h"
#include "relaypass/passes/remove_unused_functions.h"
#include "relaypass/passes/simplify_expr.h"
#include "relaypass/passes/simplify_fc_transpose.h"
#include "relaypass/passes/simplify_inference.h"
#include "relaypass/passes/to_a_normal_form.h"
#include "relaypass/passes/to_basic_block_normal_form.h"
#include "relaypass/passes/to_graph_normal_form.h"
#include "relaypass/passes/to_mixed_precision.h"
#include "relaypass/text/print_ir.h"
#include "relaypass/transform/infer_type.h"
#include "relaypass/transform/pass_config.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {

using transform::OptionType;
using transform::OptionValue;
using transform::PassOptions;

void RegisterAllPasses(transform::PassRegistry& registry) {
  registry.Register({"InferType",
                     {},
                     [](const PassOptions&) { return transform::InferType(); },
                     "infers and checks the types of every function"});
  registry.Register({"PrintIR",
                     {},
                     [](const PassOptions&) { return transform::PrintIR(); },
                     "prints the module to stderr and returns it unchanged"});
  RegisterSimplifyInference(registry);
  RegisterFoldConstant(registry);
  RegisterEliminateCommonSubexpr(registry);
  RegisterFuseOps(registry);
  RegisterToANormalForm(registry);
  RegisterDeadCodeElimination(registry);
  RegisterCanonicalizeOps(registry);
  RegisterConvertLayout(registry);
  RegisterAlterOpLayout(registry);
  RegisterFoldScaleAxis(registry);
  RegisterRemoveUnusedFunctions(registry);
  RegisterToBasicBlockNormalForm(registry);
  RegisterToGraphNormalForm(registry);
  RegisterLegalize(registry);
  RegisterSimplifyExpr(registry);
  RegisterCanonicalizeCast(registry);
  RegisterFlattenAtrousConv(registry);
  RegisterPlanDevices(registry);
  RegisterCombineParallel(registry);
  RegisterFastMath(registry);
  RegisterDefuseOps(registry);
  RegisterFoldExplicitPadding(registry);
  RegisterSimplifyFCTranspose(registry);
  RegisterEtaExpand(registry);
  RegisterInline(registry);
  RegisterLabelOps(registry);
  RegisterDynamicToStatic(registry);
  RegisterLambdaLift(registry);
  RegisterLazyGradientInit(registry);
  RegisterToMixedPrecision(registry);
  RegisterByocPasses(registry);
}

void RegisterAllConfigOptions(transform::PassConfigRegistry& registry) {
  registry.Register({"relay.FuseOps.max_depth", OptionType::kInt, OptionValue::Int(256),
                     "the largest number of operators FuseOps puts into one function"});
  registry.Register({"relay.FuseOps.link_params", OptionType::kBool, OptionValue::Bool(false),
                     "whether FuseOps keeps constant parameters in fused functions"});
  // TVM registers it without a default; -1 stands for "not set" (TVM refuses values below 1).
  registry.Register({"relay.fallback_device_type", OptionType::kInt, OptionValue::Int(-1),
                     "the device type of primitives PlanDevices leaves unconstrained "
                     "(tvm.target.make_compilation_config reads it)"});
  registry.Register({"relay.memory_budget", OptionType::kInt, OptionValue::Int(0),
                     "the most bytes of tensors the passes may hold, e.g. while FoldConstant "
                     "evaluates (0: the process's budget, by default the available memory)"});
}

}  // namespace relaypass::passes
