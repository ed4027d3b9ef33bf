// qnn.dense, qnn.batch_matmul and qnn.conv2d: sum((Q_d - zp_d) * (Q_w - zp_w)) in int32.
//
// TVM expands the product into four terms (the nn op on the raw operands, minus each zero point
// times the other operand's window sums, plus the product of the zero points), which lets it run
// the nn op on int8; the result is the same integer. Here the zero points are subtracted first
// and the nn op (same attrs) runs on the int32 differences: an input zero point then pads
// correctly by itself (padding with 0 after the subtraction is padding with zp_d before it).
#include "canonicalize.h"
#include "lowering.h"
#include "relaypass/ir/op_registry.h"
#include "relaypass/relay.h"
#include "relaypass/support/error.h"

namespace relaypass::qnn {

namespace {

// Arguments: data, weight, input_zero_point, kernel_zero_point, input_scale, kernel_scale.
Expr Shifted(const Expr& x, const Expr& zero_point) {
  Expr wide = relay::cast(x, "int32");
  if (IsEqualScalar(zero_point, ScalarConst(DataType::Int(32), 0))) return wide;
  return relay::subtract(wide, zero_point);
}

// The kernel's zero point broadcast along its output-channel axis `axis` (of `ndim`).
Expr KernelZeroPoint(const Expr& zero_point, const ir::Type& type, int ndim, int axis) {
  const auto* t = type ? type.as<ir::TensorTypeNode>() : nullptr;
  if (IsConstScalar(zero_point) || (t && t->ndim() == 0)) return zero_point;
  return ExpandToAxis(relay::reshape(zero_point, {-1}), ndim, axis);
}

Expr NNCall(const std::string& op, Expr data, Expr weight, const ir::Attrs& attrs) {
  return ir::MakeCall(ir::GetOp(op), {std::move(data), std::move(weight)}, attrs);
}

}  // namespace

Expr LowerDense(const ir::Attrs& attrs, const Args& args, const Types& types) {
  Expr data = Shifted(args[0], args[2]);
  Expr weight = Shifted(args[1], KernelZeroPoint(args[3], types[3], 2, 0));
  return NNCall("nn.dense", data, weight, attrs);
}

Expr LowerBatchMatmul(const ir::Attrs& attrs, const Args& args, const Types& types) {
  (void)types;
  Expr x = Shifted(args[0], args[2]);
  Expr y = Shifted(args[1], args[3]);
  return NNCall("nn.batch_matmul", x, y, attrs);
}

Expr LowerConv2D(const ir::Attrs& attrs, const Args& args, const Types& types) {
  const std::string& layout = attrs->get_string("kernel_layout");
  const size_t o = layout.find('O');
  if (o == std::string::npos || layout.size() != 4) {
    throw ValueError("qnn.conv2d: kernel_layout \"" + layout + "\" has no O axis");
  }
  Expr data = Shifted(args[0], args[2]);
  Expr weight = Shifted(args[1], KernelZeroPoint(args[3], types[3], 4, static_cast<int>(o)));
  return NNCall("nn.conv2d", data, weight, attrs);
}

namespace {

// x cast to int16 minus its zero point: subtract for a scalar, else bias_add of the negated
// zero point along axis 1 (TVM's; the kernel's O axis in IOHW).
Expr ShiftedInt16(const Expr& x, const Expr& zero_point, const ir::Type& zero_point_type) {
  Expr wide = relay::cast(x, "int16");
  const auto* t = zero_point_type ? zero_point_type.as<ir::TensorTypeNode>() : nullptr;
  if (t == nullptr || t->ndim() == 0) {
    return relay::subtract(wide, relay::cast(zero_point, "int16"));
  }
  return relay::nn::bias_add(wide, relay::negative(relay::cast(zero_point, "int16")), 1);
}

}  // namespace

Expr LowerConv2DTranspose(const ir::Attrs& attrs, const Args& args, const Types& types) {
  Expr data = ShiftedInt16(args[0], args[2], types[2]);
  Expr weight = ShiftedInt16(args[1], args[3], types[3]);
  return NNCall("nn.conv2d_transpose", data, weight, attrs);
}

}  // namespace relaypass::qnn
