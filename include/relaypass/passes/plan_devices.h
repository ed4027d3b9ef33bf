// PlanDevices for the homogeneous case: relay.optimize with one target puts everything on that
// target's device, so the planning changes nothing relaypass represents (it has no virtual
// devices or on_device annotations). Kept so that the default pipeline, its timing tree and
// --disabled-pass=PlanDevices mean what they mean in TVM v0.13 (src/relay/transforms/
// device_planner.cc): a Sequential "PlanDevices" of the module passes "PlanDevicesRewrite",
// "InferType" and "PlanDevicesCore".
#pragma once

#include "relaypass/transform/pass.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {

/// Sequential "PlanDevices" (opt_level 0): PlanDevicesRewrite (no-op), InferType,
/// PlanDevicesCore (no-op). The module comes back with its types inferred and unchanged
/// otherwise.
transform::Pass PlanDevices();
void RegisterPlanDevices(transform::PassRegistry& registry);

}  // namespace relaypass::passes
