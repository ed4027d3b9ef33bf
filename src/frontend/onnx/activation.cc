// Activations and softmax, as TVM's converters build them (compositions of existing ops where
// TVM composes too: HardSigmoid, HardSwish, Elu, Selu, Softplus, Softsign, Mish).
#include <limits>

#include "context.h"
#include "relaypass/relay.h"

namespace relaypass::frontend::onnx_import {

namespace {

namespace relay = relaypass::relay;

ir::Expr C(const NodeContext& ctx, double v) {
  return ScalarConst(v, ctx.dtype(0));
}

Outputs Relu(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  return {relay::nn::relu(ctx.input(0))};
}
Outputs LeakyRelu(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  return {relay::nn::leaky_relu(ctx.input(0), ctx.attr_float("alpha", 0.01))};
}
Outputs Sigmoid(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  return {relay::sigmoid(ctx.input(0))};
}
Outputs Tanh(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  return {relay::tanh(ctx.input(0))};
}

// Clip-1/6: min and max attributes (default -inf / inf).
Outputs ClipV1(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  const double inf = std::numeric_limits<double>::infinity();
  return {relay::clip(ctx.input(0), ctx.attr_float("min", -inf), ctx.attr_float("max", inf))};
}

// Clip-11+: min and max inputs; constant ones become clip's attributes, others maximum/minimum.
Outputs ClipV11(const NodeContext& ctx) {
  ctx.CheckInputs(1, 3);
  const bool has_min = ctx.has_input(1), has_max = ctx.has_input(2);
  const bool min_known = has_min && ctx.value(1), max_known = has_max && ctx.value(2);
  if ((!has_min || min_known) && (!has_max || max_known)) {
    ir::DataType dt = ctx.dtype(0);
    double lo = dt.is_float() ? -std::numeric_limits<double>::infinity()
                              : -std::numeric_limits<double>::max();
    double hi = -lo;
    if (has_min) lo = ctx.ScalarValue(1, "min");
    if (has_max) hi = ctx.ScalarValue(2, "max");
    return {relay::clip(ctx.input(0), lo, hi)};
  }
  ir::Expr result = ctx.input(0);
  if (has_min) result = relay::maximum(result, ctx.input(1));
  if (has_max) result = relay::minimum(result, ctx.input(2));
  return {result};
}

Outputs HardSigmoid(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  ir::Expr x = relay::add(relay::multiply(ctx.input(0), C(ctx, ctx.attr_float("alpha", 0.2))),
                          C(ctx, ctx.attr_float("beta", 0.5)));
  return {relay::clip(x, 0, 1)};
}

Outputs HardSwish(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  ir::Expr x = relay::add(relay::multiply(ctx.input(0), C(ctx, 1.0 / 6)), C(ctx, 0.5));
  return {relay::multiply(ctx.input(0), relay::clip(x, 0, 1))};
}

// alpha * relu(1 - exp(x)) * -1 + relu(x): TVM's Elu.
ir::Expr EluOf(const NodeContext& ctx, double alpha) {
  ir::Expr x = ctx.input(0);
  return relay::add(
      relay::multiply(C(ctx, -alpha), relay::nn::relu(relay::subtract(C(ctx, 1.0), relay::exp(x)))),
      relay::nn::relu(x));
}
Outputs Elu(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  return {EluOf(ctx, ctx.attr_float("alpha", 1.0))};
}
Outputs Selu(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  const double alpha = ctx.attr_float("alpha", 1.67326319217681884765625);
  const double gamma = ctx.attr_float("gamma", 1.05070102214813232421875);
  return {relay::multiply(C(ctx, gamma), EluOf(ctx, alpha))};
}
Outputs Softplus(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  return {relay::log(relay::add(relay::exp(ctx.input(0)), C(ctx, 1.0)))};
}
Outputs Softsign(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  return {relay::divide(ctx.input(0), relay::add(C(ctx, 1.0), relay::abs(ctx.input(0))))};
}
Outputs Mish(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  ir::Expr x = ctx.input(0);
  return {relay::multiply(x, relay::tanh(relay::log(relay::add(C(ctx, 1.0), relay::exp(x)))))};
}
// TVM's ThresholdedRelu: x where x > alpha, else 0.
Outputs ThresholdedRelu(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  ir::Expr mask = relay::call("greater", {ctx.input(0), C(ctx, ctx.attr_float("alpha", 1.0))});
  return {relay::multiply(relay::cast(mask, ctx.dtype(0).ToString()), ctx.input(0))};
}
// TVM's PRelu: the slope broadcast to the input (broadcast_to_like) and both flattened,
// nn.prelu on axis 0, reshaped back.
Outputs PRelu(const NodeContext& ctx) {
  ctx.CheckInputs(2, 2);
  ir::Expr x = ctx.input(0);
  ir::Expr slope = ctx.input(1);
  if (ctx.opset() < 7 && ctx.ndim(1) == 1 && ctx.ndim(0) > 2 &&
      ctx.shape(1)[0] == ctx.shape(0)[1]) {
    slope = relay::expand_dims(slope, 1, ctx.ndim(0) - 2);
  }
  const relay::Ints shape(ctx.shape(0).begin(), ctx.shape(0).end());
  ir::Expr alpha = relay::reshape(relay::broadcast_to_like(slope, x), relay::Ints{-1});
  ir::Expr out = relay::nn::prelu(relay::reshape(x, relay::Ints{-1}), alpha, 0);
  return {relay::reshape(out, shape)};
}

// Celu: max(0, x) + min(0, alpha * (exp(x / alpha) - 1)).
Outputs Celu(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  const double alpha = ctx.attr_float("alpha", 1.0);
  ir::Expr x = ctx.input(0);
  ir::Expr e = relay::multiply(
      C(ctx, alpha), relay::subtract(relay::exp(relay::divide(x, C(ctx, alpha))), C(ctx, 1.0)));
  return {relay::add(relay::nn::relu(x), relay::minimum(C(ctx, 0.0), e))};
}

// Softmax / LogSoftmax before opset 13: the input coerced to 2-D at `axis` (default 1).
Converter SoftmaxV1(bool log) {
  return [log](const NodeContext& ctx) -> Outputs {
    ctx.CheckInputs(1, 1);
    const ir::Shape& shape = ctx.StaticShape(0, "the 2-D coercion needs at import");
    const int64_t ndim = ctx.ndim(0);
    const int64_t axis = NormalizeAxis(ctx, ctx.attr_int("axis", 1), ndim);
    auto softmax = [&](ir::Expr x, int a) {
      return log ? relay::nn::log_softmax(x, a) : relay::nn::softmax(x, a);
    };
    if (axis == ndim - 1) return {softmax(ctx.input(0), static_cast<int>(axis))};
    relay::Ints reshape{-1};
    if (axis != 0) {
      int64_t outer = 1;
      for (int64_t i = 0; i < axis; ++i) outer *= shape[i];
      reshape = {outer, -1};
    }
    ir::Expr x = relay::reshape(ctx.input(0), reshape);
    return {relay::reshape(softmax(x, -1), relay::Ints(shape.begin(), shape.end()))};
  };
}
Converter SoftmaxV13(bool log) {
  return [log](const NodeContext& ctx) -> Outputs {
    ctx.CheckInputs(1, 1);
    const int axis = static_cast<int>(NormalizeAxis(ctx, ctx.attr_int("axis", -1), ctx.ndim(0)));
    return {log ? relay::nn::log_softmax(ctx.input(0), axis)
                : relay::nn::softmax(ctx.input(0), axis)};
  };
}

}  // namespace

void RegisterActivations(ConverterTable& t) {
  t.Add("Relu", 1, Relu);
  t.Add("LeakyRelu", 1, LeakyRelu);
  t.Add("Sigmoid", 1, Sigmoid);
  t.Add("Tanh", 1, Tanh);
  t.Add("Clip", 1, ClipV1);
  t.Add("Clip", 11, ClipV11);
  t.Add("HardSigmoid", 1, HardSigmoid);
  t.Add("HardSwish", 14, HardSwish);
  t.Add("Elu", 1, Elu);
  t.Add("Selu", 1, Selu);
  t.Add("Softplus", 1, Softplus);
  t.Add("Softsign", 1, Softsign);
  t.Add("Mish", 1, Mish);
  t.Add("ThresholdedRelu", 10, ThresholdedRelu);
  t.Add("PRelu", 1, PRelu);
  t.Add("Celu", 12, Celu);
  t.Add("Softmax", 1, SoftmaxV1(false));
  t.Add("Softmax", 13, SoftmaxV13(false));
  t.Add("LogSoftmax", 1, SoftmaxV1(true));
  t.Add("LogSoftmax", 13, SoftmaxV13(true));
}

}  // namespace relaypass::frontend::onnx_import
