#include "relaypass/ir/virtual_device.h"

#include <functional>

#include "relaypass/support/error.h"

namespace relaypass::ir {

bool VirtualDeviceNode::IsFullyUnconstrained() const {
  return target.empty() && device_type == kInvalidDeviceType && virtual_device_id == -1 &&
         memory_scope.empty();
}

bool VirtualDeviceNode::IsFullyConstrained() const {
  return !target.empty() && virtual_device_id != -1 && !memory_scope.empty();
}

const VirtualDevice& FullyUnconstrainedVirtualDevice() {
  static const VirtualDevice* unconstrained =
      new VirtualDevice(make_ref<VirtualDeviceNode>(kInvalidDeviceType, -1, "", "", ""));
  return *unconstrained;
}

VirtualDevice MakeVirtualDevice(int device_type, int virtual_device_id, std::string target,
                                std::string target_host, std::string memory_scope,
                                int target_device_type) {
  if (!target.empty() && target_device_type != kInvalidDeviceType) {
    if (device_type == kInvalidDeviceType) {
      device_type = target_device_type;
    } else if (device_type != target_device_type) {
      // TVM's ICHECK in the VirtualDevice constructor (an InternalError).
      throw InternalError("target " + target + " has device type " +
                          std::to_string(target_device_type) +
                          " but virtual device has device type " + std::to_string(device_type));
    }
  }
  if (target.empty()) target_host.clear();
  return make_ref<VirtualDeviceNode>(device_type, virtual_device_id, std::move(target),
                                     std::move(target_host), std::move(memory_scope));
}

bool VirtualDeviceEqual(const VirtualDevice& a, const VirtualDevice& b) {
  const VirtualDeviceNode* x = a ? a.get() : FullyUnconstrainedVirtualDevice().get();
  const VirtualDeviceNode* y = b ? b.get() : FullyUnconstrainedVirtualDevice().get();
  return x == y || (x->device_type == y->device_type &&
                    x->virtual_device_id == y->virtual_device_id && x->target == y->target &&
                    x->target_host == y->target_host && x->memory_scope == y->memory_scope);
}

size_t VirtualDeviceHash(const VirtualDevice& vd) {
  const VirtualDeviceNode* x = vd ? vd.get() : FullyUnconstrainedVirtualDevice().get();
  size_t h = std::hash<int>()(x->device_type) * 31 + std::hash<int>()(x->virtual_device_id);
  h = h * 31 + std::hash<std::string>()(x->target);
  h = h * 31 + std::hash<std::string>()(x->target_host);
  return h * 31 + std::hash<std::string>()(x->memory_scope);
}

std::optional<VirtualDevice> JoinVirtualDevices(const VirtualDevice& lhs,
                                                const VirtualDevice& rhs) {
  const VirtualDevice& a = lhs ? lhs : FullyUnconstrainedVirtualDevice();
  const VirtualDevice& b = rhs ? rhs : FullyUnconstrainedVirtualDevice();
  if (VirtualDeviceEqual(a, b)) return a;
  int type = a->device_type;
  if (type != kInvalidDeviceType) {
    if (b->device_type != kInvalidDeviceType && b->device_type != type) return std::nullopt;
  } else {
    type = b->device_type;
  }
  int id = a->virtual_device_id;
  if (id >= 0) {
    if (b->virtual_device_id >= 0 && b->virtual_device_id != id) return std::nullopt;
  } else {
    id = b->virtual_device_id;
  }
  const VirtualDeviceNode* target_from = a.get();
  if (a->has_target()) {
    if (b->has_target() && (a->target != b->target || a->target_host != b->target_host)) {
      return std::nullopt;
    }
  } else {
    target_from = b.get();
  }
  std::string scope = a->memory_scope;
  if (!scope.empty()) {
    if (!b->memory_scope.empty() && b->memory_scope != scope) return std::nullopt;
  } else {
    scope = b->memory_scope;
  }
  return make_ref<VirtualDeviceNode>(type, id, target_from->target, target_from->target_host,
                                     std::move(scope));
}

VirtualDevice DefaultVirtualDevice(const VirtualDevice& lhs, const VirtualDevice& rhs) {
  const VirtualDevice& a = lhs ? lhs : FullyUnconstrainedVirtualDevice();
  const VirtualDevice& b = rhs ? rhs : FullyUnconstrainedVirtualDevice();
  if (VirtualDeviceEqual(a, b)) return a;
  int type = a->device_type != kInvalidDeviceType ? a->device_type : b->device_type;
  int id = a->virtual_device_id >= 0 ? a->virtual_device_id : b->virtual_device_id;
  std::string target;
  std::string host;
  if (a->has_target()) {
    target = a->target;
    host = a->target_host;
  } else if (b->has_target() && b->device_type == type) {
    // A target always agrees with its device's type (MakeVirtualDevice), so the rhs's device
    // type is its target's.
    target = b->target;
    host = b->target_host;
  }
  std::string scope = !a->memory_scope.empty() ? a->memory_scope : b->memory_scope;
  return make_ref<VirtualDeviceNode>(type, id, std::move(target), std::move(host),
                                     std::move(scope));
}

std::string VirtualDeviceToString(const VirtualDevice& vd) {
  const VirtualDevice& x = vd ? vd : FullyUnconstrainedVirtualDevice();
  std::string out = "VirtualDevice(";
  bool first = true;
  auto field = [&](const std::string& text) {
    if (!first) out += ", ";
    first = false;
    out += text;
  };
  if (x->device_type != kInvalidDeviceType) field("device_type=" + std::to_string(x->device_type));
  if (x->virtual_device_id != -1) {
    field("virtual_device_id=" + std::to_string(x->virtual_device_id));
  }
  if (x->has_target()) {
    std::string target = "target=Target(" + x->target;
    if (!x->target_host.empty()) target += ", host=" + x->target_host;
    field(target + ")");
  }
  if (!x->memory_scope.empty()) field("memory_scope='" + x->memory_scope + "'");
  return out + ")";
}

}  // namespace relaypass::ir
