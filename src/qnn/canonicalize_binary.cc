// qnn.add, qnn.subtract and qnn.mul lowered as TVM's add.cc, subtract.cc and mul.cc: in int32,
// each input requantized to the output's parameters (add, subtract) or the product requantized
// from scale lhs_scale * rhs_scale (mul), then clipped and cast back to the input dtype.
#include "canonicalize.h"
#include "lowering.h"
#include "relaypass/relay.h"
#include "relaypass/support/error.h"

namespace relaypass::qnn {

namespace {

// Arguments: lhs, rhs, lhs_scale, lhs_zero_point, rhs_scale, rhs_zero_point, output_scale,
// output_zero_point; attrs lhs_axis, rhs_axis.
struct BinaryArgs {
  BinaryArgs(const ir::Attrs& attrs, const Args& args, const Types& types, const std::string& op)
      : args(args),
        lhs_type(TensorTypeOf(types[0], op)),
        rhs_type(TensorTypeOf(types[1], op)),
        out_type(TensorTypeOf(types.back(), op)),
        lhs_axis(static_cast<int>(attrs->get_int("lhs_axis"))),
        rhs_axis(static_cast<int>(attrs->get_int("rhs_axis"))) {}
  const Args& args;
  const ir::TensorTypeNode& lhs_type;
  const ir::TensorTypeNode& rhs_type;
  const ir::TensorTypeNode& out_type;
  int lhs_axis;
  int rhs_axis;
};

Expr Zero() {
  return ScalarConst(DataType::Int(32), 0);
}

// Add or subtract: Q_c = Q_a' (+|-) Q_b' (-|+) zp_c, the inputs requantized to (scale_c, zp_c).
Expr LowerAddOrSubtract(const ir::Attrs& attrs, const Args& args, const Types& types,
                        const std::string& op, bool subtract) {
  BinaryArgs a(attrs, args, types, op);
  Expr lhs =
      RequantizeOrUpcast(args[0], a.lhs_type, args[2], args[3], args[6], args[7], a.lhs_axis);
  Expr rhs =
      RequantizeOrUpcast(args[1], a.rhs_type, args[4], args[5], args[6], args[7], a.rhs_axis);
  Expr out = subtract ? relay::subtract(lhs, rhs) : relay::add(lhs, rhs);
  if (!IsEqualScalar(args[7], Zero())) {
    out = subtract ? relay::add(out, args[7]) : relay::subtract(out, args[7]);
  }
  return ClipAndCast(out, a.lhs_type.dtype);
}

}  // namespace

Expr LowerAdd(const ir::Attrs& attrs, const Args& args, const Types& types) {
  return LowerAddOrSubtract(attrs, args, types, "qnn.add", false);
}

Expr LowerSubtract(const ir::Attrs& attrs, const Args& args, const Types& types) {
  return LowerAddOrSubtract(attrs, args, types, "qnn.subtract", true);
}

// S_c (Q_c - zp_c) = S_a S_b (Q_a - zp_a)(Q_b - zp_b): the int32 product is a tensor of scale
// S_a * S_b (float32, as TVM multiplies them) and zero point 0, requantized to (S_c, zp_c).
Expr LowerMul(const ir::Attrs& attrs, const Args& args, const Types& types) {
  const std::string op = "qnn.mul";
  BinaryArgs a(attrs, args, types, op);
  Expr lhs = relay::cast(args[0], "int32");
  Expr rhs = relay::cast(args[1], "int32");
  const int out_ndim = a.out_type.ndim();
  auto shift = [&](Expr x, const Expr& zp, int ndim, int axis) {
    if (IsEqualScalar(zp, Zero())) return x;
    if (IsConstScalar(zp)) return relay::subtract(x, zp);
    if (axis < 0) axis += ndim;
    return relay::subtract(x, ExpandToAxis(relay::reshape(zp, {-1}), ndim, axis));
  };
  lhs = shift(lhs, args[3], a.lhs_type.ndim(), a.lhs_axis);
  rhs = shift(rhs, args[5], a.rhs_type.ndim(), a.rhs_axis);
  Expr product = relay::multiply(lhs, rhs);
  std::vector<double> lhs_scales = ConstValues(args[2], op, "lhs_scale");
  std::vector<double> rhs_scales = ConstValues(args[4], op, "rhs_scale");
  if (IsConstScalar(args[2]) && IsConstScalar(args[4])) {
    const float scale = static_cast<float>(lhs_scales[0]) * static_cast<float>(rhs_scales[0]);
    return Requantize(product, a.out_type, ScalarConst(DataType::Float(32), scale), Zero(), args[6],
                      args[7], a.lhs_type.dtype);
  }
  // Per-channel: one scale per channel of the side that has them (both: channel by channel).
  const size_t n = std::max(lhs_scales.size(), rhs_scales.size());
  if ((lhs_scales.size() != 1 && lhs_scales.size() != n) ||
      (rhs_scales.size() != 1 && rhs_scales.size() != n)) {
    throw ValueError("qnn.mul: lhs_scale and rhs_scale have " + std::to_string(lhs_scales.size()) +
                     " and " + std::to_string(rhs_scales.size()) + " values");
  }
  std::vector<double> scales(n);
  for (size_t i = 0; i < n; ++i) {
    scales[i] = static_cast<float>(lhs_scales[lhs_scales.size() == 1 ? 0 : i]) *
                static_cast<float>(rhs_scales[rhs_scales.size() == 1 ? 0 : i]);
  }
  // The channel axis in the output: the per-channel side's axis, counted from the end.
  const bool lhs_channels = lhs_scales.size() == n && !IsConstScalar(args[2]);
  int axis = lhs_channels ? a.lhs_axis : a.rhs_axis;
  const int side_ndim = lhs_channels ? a.lhs_type.ndim() : a.rhs_type.ndim();
  if (axis < 0) axis += side_ndim;
  axis += out_ndim - side_ndim;
  return Requantize(product, a.out_type, VectorConst(DataType::Float(32), scales), Zero(), args[6],
                    args[7], a.lhs_type.dtype, axis);
}

}  // namespace relaypass::qnn
