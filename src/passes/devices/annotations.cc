#include "annotations.h"

#include "relaypass/op/registry.h"
#include "relaypass/support/error.h"
#include "walk.h"

namespace relaypass::passes::devices {

namespace {

const ir::OpNode* OnDeviceOp() {
  static const ir::Op op = op::GetOp("on_device");
  return op.get();
}

const ir::OpNode* DeviceCopyOp() {
  static const ir::Op op = op::GetOp("device_copy");
  return op.get();
}

// A new call to the identity-typed `op`, typed as its argument.
ir::Expr MakeAnnotation(const ir::OpNode* op, ir::Expr body, ir::Attrs attrs) {
  ir::Type type = body->checked_type;
  Span span = body->span;
  ir::Call call = ir::MakeCall(ir::Op(op), {std::move(body)}, std::move(attrs));
  auto* node = const_cast<ir::CallNode*>(call.get());
  node->checked_type = std::move(type);
  node->span = std::move(span);
  return call;
}

}  // namespace

OnDeviceProps GetOnDeviceProps(const ir::ExprNode* expr) {
  auto* call = expr ? As<ir::CallNode>(expr) : nullptr;
  if (!call || call->op_node() != OnDeviceOp()) return {};
  if (call->args.size() != 1 || !call->attrs) {
    throw InternalError("on_device expects one argument and OnDeviceAttrs");
  }
  return {call->args[0], call->attrs->get("virtual_device").as_virtual_device(),
          call->attrs->get_bool("constrain_result"), call->attrs->get_bool("constrain_body")};
}

DeviceCopyProps GetDeviceCopyProps(const ir::ExprNode* expr) {
  auto* call = expr ? As<ir::CallNode>(expr) : nullptr;
  if (!call || call->op_node() != DeviceCopyOp()) return {};
  if (call->args.size() != 1 || !call->attrs) {
    throw InternalError("device_copy expects one argument and DeviceCopyAttrs");
  }
  return {call->args[0], call->attrs->get("src_virtual_device").as_virtual_device(),
          call->attrs->get("dst_virtual_device").as_virtual_device()};
}

ir::Expr OnDevice(ir::Expr body, ir::VirtualDevice virtual_device, bool constrain_result,
                  bool constrain_body) {
  if ((constrain_result || constrain_body) && ir::IsFullyUnconstrained(virtual_device)) {
    throw InternalError("on_device: a constraint needs a virtual device");
  }
  if (!constrain_result && !constrain_body) virtual_device = nullptr;
  ir::Attrs attrs = ir::MakeAttrs(*OnDeviceOp()->def->attrs_schema,
                                  {{"virtual_device", ir::AttrValue::Device(virtual_device)},
                                   {"constrain_result", ir::AttrValue::Bool(constrain_result)},
                                   {"constrain_body", ir::AttrValue::Bool(constrain_body)}});
  return MakeAnnotation(OnDeviceOp(), std::move(body), std::move(attrs));
}

ir::Expr MaybeOnDevice(ir::Expr body, const ir::VirtualDevice& virtual_device,
                       bool constrain_result, bool constrain_body) {
  if (ir::IsFullyUnconstrained(virtual_device)) return body;
  switch (body->kind) {
    case ir::ExprKind::kOp:           // device polymorphic
    case ir::ExprKind::kConstructor:  // device polymorphic
    case ir::ExprKind::kVar:          // known from the binding site
    case ir::ExprKind::kGlobalVar:    // known from the definition
    case ir::ExprKind::kFunction:     // its own virtual device, or polymorphic if primitive
      return body;
    default:
      break;
  }
  OnDeviceProps props = GetOnDeviceProps(body.get());
  if (!props.body) {
    return OnDevice(std::move(body), virtual_device, constrain_result, constrain_body);
  }
  // on_device(on_device(inner_body, inner), outer): the constraints must agree.
  const ir::VirtualDevice& inner = props.virtual_device;
  const bool constrain_inner = props.constrain_body;
  if ((constrain_result && constrain_inner) || (constrain_body && props.constrain_result)) {
    if (!ir::VirtualDeviceEqual(inner, virtual_device)) {
      throw InternalError("Cannot constrain nested on_device calls to different virtual devices");
    }
  }
  return OnDevice(props.body, (constrain_inner || constrain_result) ? virtual_device : inner,
                  constrain_result, constrain_inner);
}

ir::Expr DeviceCopy(ir::Expr body, const ir::VirtualDevice& src, const ir::VirtualDevice& dst) {
  ir::Attrs attrs = ir::MakeAttrs(*DeviceCopyOp()->def->attrs_schema,
                                  {{"src_virtual_device", ir::AttrValue::Device(src)},
                                   {"dst_virtual_device", ir::AttrValue::Device(dst)}});
  return MakeAnnotation(DeviceCopyOp(), std::move(body), std::move(attrs));
}

}  // namespace relaypass::passes::devices
