// The on_device and device_copy calls as PlanDevices reads and makes them (TVM's
// src/relay/op/memory/on_device.h and device_copy.h).
#pragma once

#include "relaypass/ir/expr.h"
#include "relaypass/ir/virtual_device.h"

namespace relaypass::passes::devices {

/// An on_device call's parts; `body` is null for any other expression.
struct OnDeviceProps {
  ir::Expr body;
  ir::VirtualDevice virtual_device;
  bool constrain_result = false;
  bool constrain_body = false;
  /// The user's form: the body is on the device, the result may be copied elsewhere.
  bool is_normal() const { return !constrain_result && constrain_body; }
  /// Both body and result on the device (what PlanDevices writes).
  bool is_fixed() const { return constrain_result && constrain_body; }
};
OnDeviceProps GetOnDeviceProps(const ir::ExprNode* expr);

/// A device_copy call's parts; `body` is null for any other expression.
struct DeviceCopyProps {
  ir::Expr body;
  ir::VirtualDevice src_virtual_device;
  ir::VirtualDevice dst_virtual_device;
};
DeviceCopyProps GetDeviceCopyProps(const ir::ExprNode* expr);

/// TVM's OnDevice: `on_device(body, virtual_device=..., constrain_result, constrain_body)`.
ir::Expr OnDevice(ir::Expr body, ir::VirtualDevice virtual_device, bool constrain_result,
                  bool constrain_body);
/// TVM's MaybeOnDevice: no annotation where the device is known anyway (variables, global
/// variables, functions, operators, constructors) or there is nothing to say; nested on_device
/// calls are merged.
ir::Expr MaybeOnDevice(ir::Expr body, const ir::VirtualDevice& virtual_device,
                       bool constrain_result, bool constrain_body);
inline ir::Expr MaybeOnDeviceFixed(ir::Expr body, const ir::VirtualDevice& virtual_device) {
  return MaybeOnDevice(std::move(body), virtual_device, true, true);
}
/// `device_copy(body, src_virtual_device=src, dst_virtual_device=dst)`.
ir::Expr DeviceCopy(ir::Expr body, const ir::VirtualDevice& src, const ir::VirtualDevice& dst);

}  // namespace relaypass::passes::devices
