// Elementwise math and comparisons: TVM's Elemwise (Add, Sub, Mul, Div), Pow, the unary math
// ops (trigonometric and hyperbolic included), Reciprocal, the variadic Max/Min/Sum/Mean, the
// comparisons, the logical ops, Sign, IsNaN, IsInf, Mod and BitShift.
#include "context.h"
#include "relaypass/relay.h"

namespace relaypass::frontend::onnx_import {

namespace {

namespace relay = relaypass::relay;

// Opset < 7 broadcasting: `broadcast=1` aligns B with A starting at `axis`.
ir::Expr LegacyBroadcast(const NodeContext& ctx, ir::Expr b) {
  if (ctx.opset() >= 7 || !ctx.attr_int("broadcast", 0) || !ctx.has_attr("axis")) return b;
  const int64_t ra = ctx.ndim(0), rb = ctx.ndim(1);
  const int64_t axis = NormalizeAxis(ctx, ctx.attr_int("axis", 0), ra);
  const int64_t trailing = ra - axis - rb;
  if (trailing <= 0) return b;
  return relay::expand_dims(std::move(b), static_cast<int>(rb), static_cast<int>(trailing));
}

Converter Binary(const std::string& relay_op) {
  return [relay_op](const NodeContext& ctx) -> Outputs {
    ctx.CheckInputs(2, 2);
    return {relay::call(relay_op, {ctx.input(0), LegacyBroadcast(ctx, ctx.input(1))})};
  };
}

Converter Unary(const std::string& relay_op) {
  return [relay_op](const NodeContext& ctx) -> Outputs {
    ctx.CheckInputs(1, 1);
    return {relay::call(relay_op, {ctx.input(0)})};
  };
}

// TVM's Pow: integer bases are computed in float32 and cast back; the exponent takes the
// base's dtype.
Outputs Pow(const NodeContext& ctx) {
  ctx.CheckInputs(2, 2);
  ir::Expr x = ctx.input(0), y = ctx.input(1);
  const ir::DataType out_type = ctx.dtype(0);
  ir::DataType x_type = out_type;
  if (!x_type.is_float()) {
    x_type = ir::DataType::Float32();
    x = relay::cast(x, "float32");
  }
  if (x_type != ctx.dtype(1)) y = relay::cast(y, x_type.ToString());
  ir::Expr result = relay::power(x, y);
  if (x_type != out_type) result = relay::cast(result, out_type.ToString());
  return {result};
}

Outputs Reciprocal(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  return {relay::divide(ScalarConst(1.0, ctx.dtype(0)), ctx.input(0))};
}

// TVM's Maximum / Minimum / Sum: a left fold of the binary op.
Converter Variadic(const std::string& relay_op) {
  return [relay_op](const NodeContext& ctx) -> Outputs {
    ctx.CheckInputs(1, ctx.num_inputs());
    ir::Expr acc = ctx.input(0);
    for (size_t i = 1; i < ctx.num_inputs(); ++i) acc = relay::call(relay_op, {acc, ctx.input(i)});
    return {acc};
  };
}

// TVM's Mean: the inputs stacked on a new axis 0 and averaged over it; with broadcasting shapes
// (which TVM rejects) the sum divided by the count.
Outputs Mean(const NodeContext& ctx) {
  ctx.CheckInputs(1, ctx.num_inputs());
  const size_t n = ctx.num_inputs();
  bool same = true;
  for (size_t i = 1; i < n; ++i) same = same && ctx.shape(i) == ctx.shape(0);
  if (n == 1) return {ctx.input(0)};
  if (same) {
    std::vector<ir::Expr> fields;
    for (size_t i = 0; i < n; ++i) fields.push_back(relay::expand_dims(ctx.input(i), 0));
    return {relay::mean(relay::concatenate(fields, 0), relay::Ints{0}, false)};
  }
  ir::Expr acc = ctx.input(0);
  for (size_t i = 1; i < n; ++i) acc = relay::add(acc, ctx.input(i));
  return {relay::divide(acc, ScalarConst(static_cast<double>(n), ctx.dtype(0)))};
}

// TVM's Mod: floor_mod (numpy.mod) unless fmod=1 (mod, numpy.fmod).
Outputs Mod(const NodeContext& ctx) {
  ctx.CheckInputs(2, 2);
  const char* name = ctx.attr_int("fmod", 0) == 0 ? "floor_mod" : "mod";
  return {relay::call(name, {ctx.input(0), ctx.input(1)})};
}

// TVM's BitShift: left_shift or right_shift.
Outputs BitShift(const NodeContext& ctx) {
  ctx.CheckInputs(2, 2);
  const std::string direction = ctx.attr_string("direction", "");
  if (direction != "LEFT" && direction != "RIGHT") ctx.Fail("direction must be LEFT or RIGHT");
  return {relay::call(direction == "LEFT" ? "left_shift" : "right_shift",
                      {ctx.input(0), ctx.input(1)})};
}

// TVM's IsInf: isinf, masked by the sign for detect_negative / detect_positive = 0.
Outputs IsInf(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  ir::Expr x = ctx.input(0);
  ir::Expr r = relay::isinf(x);
  ir::Expr zero = ScalarConst(0, ctx.dtype(0));
  if (ctx.attr_int("detect_negative", 1) == 0) {
    r = relay::multiply(r, relay::call("greater", {x, zero}));
  }
  if (ctx.attr_int("detect_positive", 1) == 0) {
    r = relay::multiply(r, relay::call("less", {x, zero}));
  }
  return {r};
}

}  // namespace

void RegisterElementwise(ConverterTable& t) {
  t.Add("Add", 1, Binary("add"));
  t.Add("Sub", 1, Binary("subtract"));
  t.Add("Mul", 1, Binary("multiply"));
  t.Add("Div", 1, Binary("divide"));
  t.Add("Pow", 1, Pow);
  t.Add("Equal", 1, Binary("equal"));
  t.Add("Greater", 1, Binary("greater"));
  t.Add("Less", 1, Binary("less"));
  t.Add("GreaterOrEqual", 12, Binary("greater_equal"));
  t.Add("LessOrEqual", 12, Binary("less_equal"));
  t.Add("Max", 1, Variadic("maximum"));
  t.Add("Min", 1, Variadic("minimum"));
  t.Add("Sum", 1, Variadic("add"));
  t.Add("Mean", 1, Mean);
  t.Add("Sqrt", 1, Unary("sqrt"));
  t.Add("Exp", 1, Unary("exp"));
  t.Add("Log", 1, Unary("log"));
  t.Add("Neg", 1, Unary("negative"));
  t.Add("Abs", 1, Unary("abs"));
  t.Add("Floor", 1, Unary("floor"));
  t.Add("Ceil", 1, Unary("ceil"));
  t.Add("Round", 11, [](const NodeContext& ctx) -> Outputs {
    ctx.CheckInputs(1, 1);
    return {RoundHalfToEven(ctx.input(0), ctx.dtype(0))};
  });
  t.Add("Erf", 9, Unary("erf"));
  t.Add("Sin", 7, Unary("sin"));
  t.Add("Cos", 7, Unary("cos"));
  t.Add("Reciprocal", 1, Reciprocal);
  t.Add("Not", 1, Unary("logical_not"));
  t.Add("And", 1, Binary("logical_and"));
  t.Add("Or", 1, Binary("logical_or"));
  t.Add("Xor", 1, Binary("logical_xor"));
  t.Add("Sign", 9, Unary("sign"));
  t.Add("Tan", 7, Unary("tan"));
  t.Add("Sinh", 9, Unary("sinh"));
  t.Add("Cosh", 9, Unary("cosh"));
  t.Add("Asin", 7, Unary("asin"));
  t.Add("Acos", 7, Unary("acos"));
  t.Add("Atan", 7, Unary("atan"));
  t.Add("Asinh", 9, Unary("asinh"));
  t.Add("Acosh", 9, Unary("acosh"));
  t.Add("Atanh", 9, Unary("atanh"));
  t.Add("IsNaN", 9, Unary("isnan"));
  t.Add("IsInf", 10, IsInf);
  t.Add("Mod", 10, Mod);
  t.Add("BitShift", 11, BitShift);
}

}  // namespace relaypass::frontend::onnx_import
