// qnn.leaky_relu and qnn.softmax (TVM v0.13's src/relay/qnn/op/leaky_relu.cc and softmax.cc):
// the softmax relation (the unary ops' relation, int8 data only) and both lowerings to integer
// Relay.
#include <string>

#include "canonicalize.h"
#include "lowering.h"
#include "relations.h"
#include "relaypass/relay.h"
#include "relaypass/support/error.h"

namespace relaypass::qnn {

ir::TypeRelation SoftmaxRel() {
  return [unary = UnaryRel()](ir::TypeRelationCall& call) {
    if (!unary(call)) return false;
    const auto* data = call.Resolve(0).as<ir::TensorTypeNode>();
    if (data != nullptr && data->dtype != DataType::Int(8)) {
      call.Fail("qnn.softmax: expected quantized softmax input of dtype int8 but was " +
                data->dtype.ToString());
    }
    return true;
  };
}

namespace {

Expr I32(int64_t value) {
  return ScalarConst(DataType::Int(32), static_cast<double>(value));
}

Expr Shift(const std::string& op, const Expr& x, const Expr& amount) {
  return relay::call(op, {x, amount});
}

}  // namespace

Expr LowerLeakyRelu(const ir::Attrs& attrs, const Args& args, const Types& types) {
  // TVM's equations: with Q_i' the input requantized to the output's parameters,
  //   Q_o = Q_i'                                  where Q_i >= zp_i
  //   Q_o = alpha * Q_i' + (1 - alpha) * zp_o     where Q_i <  zp_i
  // the products by alpha and 1 - alpha in fixed point.
  const std::string op = "qnn.leaky_relu";
  const ir::TensorTypeNode& data_type = TensorTypeOf(types[0], op);
  const double alpha = attrs->get_double("alpha");
  if (!(alpha > 0.0 && alpha < 1.0)) {
    throw ValueError(op +
                     ": alpha must lie between 0 and 1 (exclusive) for the fixed-point "
                     "lowering, got " +
                     std::to_string(alpha));
  }
  Expr data = relay::cast(args[0], "int32");
  Expr input_zero_point = relay::cast(args[2], "int32");
  Expr output_zero_point = relay::cast(args[4], "int32");
  Expr requantized = RequantizeOrUpcast(args[0], data_type, args[1], args[2], args[3], args[4]);
  const int ndim = static_cast<int>(data_type.shape.size());
  Expr scaled = FixedPointMultiply(requantized, {alpha}, ndim, -1, "UPWARD");
  Expr shifted_zero = FixedPointMultiply(output_zero_point, {1.0 - alpha}, 0, -1, "UPWARD");
  Expr negative_part = relay::add(scaled, shifted_zero);
  Expr out =
      relay::where(relay::call("less", {data, input_zero_point}), negative_part, requantized);
  return ClipAndCast(out, data_type.dtype);
}

Expr LowerSoftmax(const ir::Attrs& attrs, const Args& args, const Types& types) {
  // TVM's integer softmax (Algorithm 1 of arXiv:2207.01405, "Shiftmax"): exp approximated with
  // shifts in base 2, scaled by 1 / sum in fixed point with m = 30 fractional bits, giving an
  // output of scale 1/128 and zero point 0, then requantized to the output's parameters.
  const std::string op = "qnn.softmax";
  const ir::TensorTypeNode& data_type = TensorTypeOf(types[0], op);
  const int axis = static_cast<int>(attrs->get_int("axis"));
  constexpr int kN = 8;
  constexpr int kM = 30;
  constexpr int kBits = 8;
  Expr data = relay::subtract(relay::cast(args[0], "int32"), relay::cast(args[2], "int32"));
  Expr x0 = relay::cast(relay::round(relay::divide(ScalarConst(DataType::Float(32), 1.0), args[1])),
                        "int32");
  Expr x = relay::subtract(data, relay::max(data, relay::Ints{axis}, true));
  Expr xp = relay::subtract(relay::add(x, Shift("right_shift", x, I32(1))),
                            Shift("right_shift", x, I32(4)));
  Expr neg_x0 = relay::negative(x0);
  Expr q = relay::divide(xp, neg_x0);  // xp <= 0 and -x0 < 0: q >= 0
  Expr r = relay::subtract(xp, relay::multiply(q, neg_x0));
  Expr xb = relay::add(Shift("right_shift", r, I32(1)), x0);
  // 2^(n - q) * xb. TVM shifts left by n - q, which is negative (undefined) once q > n, far
  // below the row's maximum; there the intended power of two is a right shift by q - n.
  Expr left = relay::subtract(I32(kN), q);
  Expr exps =
      relay::where(relay::call("less", {left, I32(0)}),
                   Shift("right_shift", xb, relay::negative(left)), Shift("left_shift", xb, left));
  Expr sums = relay::sum(exps, relay::Ints{axis}, true);
  Expr out = Shift("right_shift", relay::multiply(relay::divide(I32(int64_t{1} << kM), sums), exps),
                   I32(kM - (kBits - 1)));
  ir::Type out_type = ir::TensorType(data_type.shape, DataType::Int(32));
  return Requantize(out, TensorTypeOf(out_type, op),
                    ScalarConst(DataType::Float(32), 1.0 / (1 << (kBits - 1))), I32(0), args[3],
                    args[4], DataType::Int(kBits), 0);
}

}  // namespace relaypass::qnn
