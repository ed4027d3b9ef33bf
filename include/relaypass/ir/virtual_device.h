// TVM's VirtualDevice (include/tvm/target/virtual_device.h): where a value lives, as a device
// type, a virtual device id, a target and a memory scope, each of which may be left open. The IR
// core knows targets only by their text (the target layer is above it): `target` is the target's
// string form and `target_host` its host's, both empty when there is no target.
//
// A null VirtualDevice reference means the fully unconstrained one, so that expressions carry no
// allocation for the common case.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "relaypass/ir/object.h"

namespace relaypass::ir {

/// TVM's kInvalidDeviceType: a device type left open.
constexpr int kInvalidDeviceType = -1;
/// TVM's kDLCPU.
constexpr int kDLCPU = 1;

struct VirtualDeviceNode : Object {
  VirtualDeviceNode(int type, int id, std::string t, std::string host, std::string scope)
      : device_type(type),
        virtual_device_id(id),
        target(std::move(t)),
        target_host(std::move(host)),
        memory_scope(std::move(scope)) {}
  int device_type;
  int virtual_device_id;
  std::string target;
  std::string target_host;
  std::string memory_scope;

  bool has_target() const { return !target.empty(); }
  /// No device type, id, target or memory scope (TVM's IsFullyUnconstrained).
  bool IsFullyUnconstrained() const;
  /// A target, an id and a memory scope (TVM's IsFullyConstrained).
  bool IsFullyConstrained() const;
};
using VirtualDevice = Ref<VirtualDeviceNode>;

/// The fully unconstrained virtual device as a node (one shared instance).
const VirtualDevice& FullyUnconstrainedVirtualDevice();

/// TVM's VirtualDevice(device_type, virtual_device_id, target, memory_scope). A target without a
/// device type gives `target_device_type`; a device type that disagrees with the target's is an
/// InternalError (TVM's ICHECK). Pass `target_device_type` = kInvalidDeviceType when there is no
/// target.
VirtualDevice MakeVirtualDevice(int device_type, int virtual_device_id, std::string target = "",
                                std::string target_host = "", std::string memory_scope = "",
                                int target_device_type = kInvalidDeviceType);

/// Null or fully unconstrained.
inline bool IsFullyUnconstrained(const VirtualDevice& vd) {
  return !vd || vd->IsFullyUnconstrained();
}

/// Field-by-field equality (TVM's structural equality of VirtualDevice); null is the fully
/// unconstrained device.
bool VirtualDeviceEqual(const VirtualDevice& a, const VirtualDevice& b);
size_t VirtualDeviceHash(const VirtualDevice& vd);

/// TVM's VirtualDevice::Join: the device constrained by both, or nothing if they disagree.
std::optional<VirtualDevice> JoinVirtualDevices(const VirtualDevice& lhs, const VirtualDevice& rhs);
/// TVM's VirtualDevice::Default: `lhs` with its open fields taken from `rhs` (the target only
/// if it agrees with the device type).
VirtualDevice DefaultVirtualDevice(const VirtualDevice& lhs, const VirtualDevice& rhs);

/// TVM's repr: `VirtualDevice(device_type=2, virtual_device_id=0, target=Target(...),
/// memory_scope='global')`, the open fields left out.
std::string VirtualDeviceToString(const VirtualDevice& vd);

}  // namespace relaypass::ir
