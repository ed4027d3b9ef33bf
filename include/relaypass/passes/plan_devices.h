// PlanDevices (TVM v0.13's src/relay/transforms/device_planner.cc): decides the VirtualDevice of
// every sub-expression from the on_device / device_copy annotations, the special operators
// (shape_of's result is on the host) and a default device, then records the decision as TVM
// does: every function and parameter gets its virtual device, and on_device (constrain_result)
// and device_copy calls are inserted wherever a value changes device or is not on the device its
// context implies. A Sequential "PlanDevices" of "PlanDevicesRewrite", "InferType" and
// "PlanDevicesCore", as TVM's.
//
// Without a compilation config (relay.optimize with one target) the pass keeps relaypass's
// homogeneous behaviour: everything is on the one device, nothing is annotated.
#pragma once

#include <vector>

#include "relaypass/ir/attrs.h"
#include "relaypass/ir/module.h"
#include "relaypass/ir/virtual_device.h"
#include "relaypass/transform/pass.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {

/// What PlanDevices needs of TVM's CompilationConfig (tvm.target.make_compilation_config).
struct DevicePlanningConfig {
  /// Where unconstrained primitives go (device id 0, with its target).
  ir::VirtualDevice default_primitive_virtual_device;
  /// The host (shape_of's result, the shape arguments of the memory ops).
  ir::VirtualDevice host_virtual_device;
  /// One per primitive target: its device type and target (id and scope open).
  std::vector<ir::VirtualDevice> primitive_targets;

  /// TVM's CanonicalVirtualDevice: a device without a target gets the primitive target of its
  /// device type (ValueError if there is none or the device type is open).
  ir::VirtualDevice Canonical(const ir::VirtualDevice& vd) const;

  /// The pass option `config` (a dict: default_primitive_virtual_device, host_virtual_device,
  /// primitive_targets) and back. An empty dict is no config.
  ir::AttrValue ToOption() const;
  static DevicePlanningConfig FromOption(const ir::AttrValue& option);
  bool empty() const { return !default_primitive_virtual_device; }
};

/// The homogeneous PlanDevices: infers types, otherwise a no-op.
transform::Pass PlanDevices();
/// TVM's PlanDevices(config).
transform::Pass PlanDevices(DevicePlanningConfig config);
void RegisterPlanDevices(transform::PassRegistry& registry);

/// TVM's relay.transform.RecoverVirtualDeviceMap: the virtual device of every sub-expression of
/// `expr` (a function of `mod` PlanDevices has run on), found from the function, parameter,
/// let-variable and on_device annotations alone, as TVM's DeviceAwareExprVisitor finds them.
/// Operators and constructors are left out.
std::vector<std::pair<ir::Expr, ir::VirtualDevice>> RecoverVirtualDeviceMap(const ir::IRModule& mod,
                                                                            const ir::Expr& expr);

}  // namespace relaypass::passes
