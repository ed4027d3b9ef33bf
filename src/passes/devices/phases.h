// The phases of PlanDevices (TVM's device_planner.cc):
//  0. RewriteOnDevices: an on_device that is let-bound or a function's body becomes fixed
//     (constrain_result too); `on_device(e).0` is annotated after the projection as well.
//     CheckConflicts: an argument that two calls want on different devices (from on_device and
//     device_copy, flowed down from the calls) is copied where the later one reads it.
//  1. Analyze: the constraints of every sub-expression, unified.
//  2. Default: free on_device calls unified with their body where possible, then open devices
//     defaulted (function results to the default device, parameters to their function's result,
//     let variables to their let, call arguments to their call).
//  3. Capture: the decision written into the program (parameter and function virtual devices,
//     on_device and device_copy calls).
#pragma once

#include <memory>

#include "device_domains.h"
#include "relaypass/ir/module.h"

namespace relaypass::passes::devices {

ir::Function RewriteOnDevices(const ir::Function& function);

/// TVM's ConflictedNodeFinder and ConflictedNodeRewriter ("PlanDevicesCheckConflicts").
ir::IRModule CheckConflicts(const ir::IRModule& mod, const DevicePlanningConfig& config);

/// Phases 1 and 2 over every optimizable function of `mod`.
std::unique_ptr<DeviceDomains> AnalyzeAndDefault(const ir::IRModule& mod,
                                                 const DevicePlanningConfig& config);

/// Phase 3: the module with its devices captured.
ir::IRModule CaptureDevices(const ir::IRModule& mod, DeviceDomains& domains);

/// A Relay function PlanDevices works on: not primitive, not for an external compiler.
bool IsOptimizableFunction(const ir::FunctionNode* function);

}  // namespace relaypass::passes::devices
