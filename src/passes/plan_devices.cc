#include "relaypass/passes/plan_devices.h"

#include "devices/annotations.h"
#include "devices/phases.h"
#include "relaypass/support/error.h"
#include "relaypass/transform/infer_type.h"
#include "relaypass/transform/sequential.h"

namespace relaypass::passes {

namespace {

// One device for everything: nothing to rewrite, nothing to annotate.
transform::Pass HomogeneousNoOp(const char* name) {
  return transform::CreateModulePass(
      [](const ir::IRModule& mod, const transform::PassContext&) { return mod; }, 0, name);
}

const ir::VirtualDevice& DeviceEntry(const ir::AttrValue& option, const char* key) {
  const ir::AttrValue* value = option.find(key);
  if (!value || value->kind() != ir::AttrValue::Kind::kVirtualDevice) {
    throw PassError(std::string("PlanDevices: the config needs a VirtualDevice '") + key + "'");
  }
  return value->as_virtual_device();
}

}  // namespace

ir::VirtualDevice DevicePlanningConfig::Canonical(const ir::VirtualDevice& vd) const {
  if (vd && vd->has_target()) return vd;
  const int device_type = vd ? vd->device_type : ir::kInvalidDeviceType;
  if (device_type == ir::kInvalidDeviceType) {
    throw ValueError("VirtualDevice annotations must include at least a device_type");
  }
  for (const ir::VirtualDevice& target : primitive_targets) {
    if (target->device_type == device_type) {
      return ir::MakeVirtualDevice(device_type, vd->virtual_device_id, target->target,
                                   target->target_host, vd->memory_scope);
    }
  }
  std::string available;
  for (const ir::VirtualDevice& target : primitive_targets) {
    available += " " + std::to_string(target->device_type) + "-> " + target->target + ";";
  }
  throw ValueError("No target is specified for device type " + std::to_string(device_type) +
                   ". The available targets are:" + available);
}

ir::AttrValue DevicePlanningConfig::ToOption() const {
  if (empty()) return ir::AttrValue::Map({});
  std::vector<ir::AttrValue> targets;
  for (const ir::VirtualDevice& t : primitive_targets) targets.push_back(ir::AttrValue::Device(t));
  return ir::AttrValue::Map({{"default_primitive_virtual_device",
                              ir::AttrValue::Device(default_primitive_virtual_device)},
                             {"host_virtual_device", ir::AttrValue::Device(host_virtual_device)},
                             {"primitive_targets", ir::AttrValue::Array(std::move(targets))}});
}

DevicePlanningConfig DevicePlanningConfig::FromOption(const ir::AttrValue& option) {
  DevicePlanningConfig config;
  if (option.is_null() || (option.kind() == ir::AttrValue::Kind::kMap && option.as_map().empty())) {
    return config;
  }
  if (option.kind() != ir::AttrValue::Kind::kMap) {
    throw PassError("PlanDevices: config must be a CompilationConfig");
  }
  config.default_primitive_virtual_device = DeviceEntry(option, "default_primitive_virtual_device");
  config.host_virtual_device = DeviceEntry(option, "host_virtual_device");
  const ir::AttrValue* targets = option.find("primitive_targets");
  if (!targets || targets->kind() != ir::AttrValue::Kind::kArray) {
    throw PassError("PlanDevices: the config needs a list 'primitive_targets'");
  }
  for (const ir::AttrValue& t : targets->as_array()) {
    if (t.kind() != ir::AttrValue::Kind::kVirtualDevice || !t.as_virtual_device()->has_target()) {
      throw PassError("PlanDevices: 'primitive_targets' holds VirtualDevices with targets");
    }
    config.primitive_targets.push_back(t.as_virtual_device());
  }
  if (ir::IsFullyUnconstrained(config.default_primitive_virtual_device) ||
      ir::IsFullyUnconstrained(config.host_virtual_device)) {
    throw PassError("PlanDevices: the default and host virtual devices must be constrained");
  }
  return config;
}

transform::Pass PlanDevices() {
  return transform::Sequential({HomogeneousNoOp("PlanDevicesRewrite"), transform::InferType(),
                                HomogeneousNoOp("PlanDevicesCore")},
                               "PlanDevices");
}

transform::Pass PlanDevices(DevicePlanningConfig config) {
  if (config.empty()) return PlanDevices();
  // As TVM's: PlanDevicesRewrite (a function pass), PlanDevicesCheckConflicts, InferType,
  // PlanDevicesCore.
  transform::Pass rewrite = transform::CreateFunctionPass(
      [](const ir::Function& f, const ir::IRModule&, const transform::PassContext&) {
        return devices::IsOptimizableFunction(f.get()) ? devices::RewriteOnDevices(f) : f;
      },
      0, "PlanDevicesRewrite");
  transform::Pass check = transform::CreateModulePass(
      [config](const ir::IRModule& mod, const transform::PassContext&) {
        return devices::CheckConflicts(mod, config);
      },
      0, "PlanDevicesCheckConflicts");
  transform::Pass core = transform::CreateModulePass(
      [config = std::move(config)](const ir::IRModule& mod, const transform::PassContext&) {
        std::unique_ptr<devices::DeviceDomains> domains = devices::AnalyzeAndDefault(mod, config);
        return devices::CaptureDevices(mod, *domains);
      },
      0, "PlanDevicesCore");
  return transform::Sequential(
      {std::move(rewrite), std::move(check), transform::InferType(), std::move(core)},
      "PlanDevices");
}

void RegisterPlanDevices(transform::PassRegistry& registry) {
  registry.Register(
      {"PlanDevices",
       {{"config", transform::OptionType::kDict, ir::AttrValue::Map({}),
         "TVM's CompilationConfig as a dict (default_primitive_virtual_device, "
         "host_virtual_device, primitive_targets); empty: one device, nothing to plan"}},
       [](const transform::PassOptions& options) {
         return PlanDevices(DevicePlanningConfig::FromOption(options.Get("config")));
       },
       "TVM's device planning: the VirtualDevice of every sub-expression, with on_device and "
       "device_copy calls where values change device"});
}

}  // namespace relaypass::passes
