#include "relaypass/passes/plan_devices.h"

#include "relaypass/transform/infer_type.h"
#include "relaypass/transform/sequential.h"

namespace relaypass::passes {

namespace {

// One device for everything: nothing to rewrite, nothing to annotate.
transform::Pass HomogeneousNoOp(const char* name) {
  return transform::CreateModulePass(
      [](const ir::IRModule& mod, const transform::PassContext&) { return mod; }, 0, name);
}

}  // namespace

transform::Pass PlanDevices() {
  return transform::Sequential({HomogeneousNoOp("PlanDevicesRewrite"), transform::InferType(),
                                HomogeneousNoOp("PlanDevicesCore")},
                               "PlanDevices");
}

void RegisterPlanDevices(transform::PassRegistry& registry) {
  registry.Register({"PlanDevices",
                     {},
                     [](const transform::PassOptions&) { return PlanDevices(); },
                     "device planning for one target: infers types, otherwise a no-op"});
}

}  // namespace relaypass::passes
