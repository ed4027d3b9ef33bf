// qnn.concatenate (TVM's concatenate.cc: each input requantized to the output's parameters
// unless they already match, then concatenate) and the unary ops (TVM's
// unary_elementwise_op.cc: dequantize, the float op, quantize to the output's parameters).
#include <functional>

#include "canonicalize.h"
#include "lowering.h"
#include "relaypass/relay.h"
#include "relaypass/support/error.h"

namespace relaypass::qnn {

Expr LowerConcatenate(const ir::Attrs& attrs, const Args& args, const Types& types) {
  const std::string op = "qnn.concatenate";
  const auto* data_type = types[0] ? types[0].as<ir::TupleTypeNode>() : nullptr;
  const auto* scales = args[1].as<ir::TupleNode>();
  const auto* zero_points = args[2].as<ir::TupleNode>();
  if (data_type == nullptr || scales == nullptr || zero_points == nullptr) {
    throw ValueError(op + ": the input scales and zero points must be tuples, and the data typed");
  }
  const size_t n = data_type->fields.size();
  if (scales->fields.size() != n || zero_points->fields.size() != n) {
    throw ValueError(op + ": one scale and zero point per input are needed");
  }
  const DataType out = TensorTypeOf(types.back(), op).dtype;
  const auto* data_tuple = args[0].as<ir::TupleNode>();
  std::vector<Expr> fields;
  for (size_t i = 0; i < n; ++i) {
    Expr field = data_tuple ? data_tuple->fields[i] : relay::get_item(args[0], static_cast<int>(i));
    const ir::TensorTypeNode& field_type = TensorTypeOf(data_type->fields[i], op);
    if (IsEqualScalar(scales->fields[i], args[3]) &&
        IsEqualScalar(zero_points->fields[i], args[4])) {
      fields.push_back(field);
    } else {
      fields.push_back(Requantize(field, field_type, scales->fields[i], zero_points->fields[i],
                                  args[3], args[4], out));
    }
  }
  return relay::concatenate(fields, static_cast<int>(attrs->get_int("axis")));
}

namespace {

Expr Hardswish(const Expr& x) {
  // x * relu6(x + 3) / 6
  Expr three = ScalarConst(DataType::Float(32), 3.0);
  Expr six = ScalarConst(DataType::Float(32), 6.0);
  return relay::divide(relay::multiply(x, relay::clip(relay::add(x, three), 0.0, 6.0)), six);
}

}  // namespace

CanonicalizeFunc LowerUnary(const std::string& op_name) {
  const std::string float_op = op_name.substr(4);  // "qnn.tanh" -> "tanh"
  std::function<Expr(const Expr&)> compute;
  if (float_op == "hardswish") {
    compute = Hardswish;
  } else {
    compute = [float_op](const Expr& x) { return relay::call(float_op, {x}); };
  }
  return [op_name, compute](const ir::Attrs&, const Args& args, const Types& types) {
    // Arguments: x, scale, zero_point, output_scale, output_zero_point (all scalars).
    const DataType dtype = TensorTypeOf(types[0], op_name).dtype;
    Expr shifted = relay::subtract(relay::cast(args[0], "int32"), args[2]);
    Expr real = relay::multiply(relay::cast(shifted, "float32"), args[1]);
    Expr result = compute(real);
    Expr scaled = RoundHalfAwayFromZero(relay::divide(result, args[3]), DataType::Float(32));
    Expr with_zero_point = relay::add(scaled, relay::cast(args[4], "float32"));
    return relay::cast(relay::clip(with_zero_point, static_cast<double>(QMin(dtype)),
                                   static_cast<double>(QMax(dtype))),
                       dtype.ToString());
  };
}

}  // namespace relaypass::qnn
