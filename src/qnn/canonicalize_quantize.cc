// qnn.quantize, qnn.dequantize, qnn.requantize lowered as TVM's quantize.cc, dequantize.cc and
// requantize.cc lower them.
#include "canonicalize.h"
#include "lowering.h"
#include "relaypass/relay.h"

namespace relaypass::qnn {

namespace {

int NormalizedAxis(int64_t axis, int ndim) {
  return static_cast<int>(axis < 0 ? (ndim > 0 ? ndim + axis : 0) : axis);
}

// A scale or zero point broadcast along `axis` when it is a vector (TVM: unless it is a constant
// scalar or of rank 0).
Expr AlongAxis(const Expr& param, const ir::Type& type, int ndim, int axis) {
  const auto* t = type ? type.as<ir::TensorTypeNode>() : nullptr;
  if (IsConstScalar(param) || (t && t->ndim() == 0)) return param;
  return ExpandToAxis(param, ndim, axis);
}

ir::DataType OutDType(const Types& types, const std::string& op) {
  return TensorTypeOf(types.back(), op).dtype;
}

}  // namespace

Expr LowerQuantize(const ir::Attrs& attrs, const Args& args, const Types& types) {
  const ir::TensorTypeNode& in = TensorTypeOf(types[0], "qnn.quantize");
  const DataType out = OutDType(types, "qnn.quantize");
  const int axis = NormalizedAxis(attrs->get_int("axis"), in.ndim());
  Expr scale = AlongAxis(args[1], types[1], in.ndim(), axis);
  Expr zero_point = AlongAxis(args[2], types[2], in.ndim(), axis);
  const std::string fp = in.dtype.is_float() ? in.dtype.ToString() : "float32";
  Expr data = in.dtype.is_float() ? args[0] : relay::cast(args[0], fp);
  Expr scaled =
      RoundHalfAwayFromZero(relay::divide(data, relay::cast(scale, fp)), *ir::DataType::Parse(fp));
  Expr shifted = relay::add(scaled, relay::cast(zero_point, fp));
  return relay::cast(
      relay::clip(shifted, static_cast<double>(QMin(out)), static_cast<double>(QMax(out))),
      out.ToString());
}

Expr LowerDequantize(const ir::Attrs& attrs, const Args& args, const Types& types) {
  const ir::TensorTypeNode& in = TensorTypeOf(types[0], "qnn.dequantize");
  const DataType out = OutDType(types, "qnn.dequantize");
  const int axis = NormalizedAxis(attrs->get_int("axis"), in.ndim());
  Expr scale = AlongAxis(args[1], types[1], in.ndim(), axis);
  Expr zero_point = AlongAxis(args[2], types[2], in.ndim(), axis);
  Expr shifted = relay::subtract(relay::cast(args[0], "int32"), zero_point);
  Expr fp_scale = out == DataType::Float(32) ? scale : relay::cast(scale, out.ToString());
  return relay::multiply(relay::cast(shifted, out.ToString()), fp_scale);
}

Expr LowerRequantize(const ir::Attrs& attrs, const Args& args, const Types& types) {
  const ir::TensorTypeNode& in = TensorTypeOf(types[0], "qnn.requantize");
  const RequantizeConfig& config = CurrentRequantizeConfig();
  // TVM's SelectRequntizeParameter: the argument wins unless it is "None".
  std::string rounding = attrs->get_string("rounding");
  if (rounding == "None") rounding = config.rounding;
  std::string compute_dtype = attrs->get_string("compute_dtype");
  if (compute_dtype == "None") compute_dtype = config.compute_dtype;
  return RequantizeLower(args[0], in, args[1], args[2], args[3], args[4],
                         static_cast<int>(attrs->get_int("axis")), rounding, compute_dtype,
                         OutDType(types, "qnn.requantize"));
}

}  // namespace relaypass::qnn
