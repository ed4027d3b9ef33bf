// BatchNormalization (inference) and Dropout, as TVM: nn.batch_norm(...)[0] and
// nn.dropout(...)[0]; Dropout's mask output is all true in inference. LayerNormalization
// composed from mean and variance as TVM's converter does; InstanceNormalization and LRN as
// nn.instance_norm and nn.lrn.
#include <algorithm>

#include "context.h"
#include "relaypass/relay.h"

namespace relaypass::frontend::onnx_import {

namespace {

namespace relay = relaypass::relay;

// Training mode (which TVM does not convert): normalised with the batch's mean and population
// variance over every axis but 1; the running statistics updated with `momentum`.
Outputs BatchNormTraining(const NodeContext& ctx) {
  const int r = ctx.ndim(0);
  const ir::DataType dt = ctx.dtype(0);
  Ints axes{0};
  for (int i = 2; i < r; ++i) axes.push_back(i);
  ir::Expr x = ctx.input(0);
  ir::Expr mean = relay::mean(x, axes, true);
  ir::Expr d = relay::subtract(x, mean);
  ir::Expr var = relay::mean(relay::multiply(d, d), axes, true);
  auto channel = [&](ir::Expr v) { return r > 2 ? relay::expand_dims(v, 1, r - 2) : v; };
  ir::Expr y = relay::divide(
      d, relay::sqrt(relay::add(var, ScalarConst(ctx.attr_float("epsilon", 1e-5), dt))));
  y = relay::add(relay::multiply(y, channel(ctx.input(1))), channel(ctx.input(2)));
  const double m = ctx.attr_float("momentum", 0.9);
  auto running = [&](size_t i, ir::Expr current) {
    return relay::add(
        relay::multiply(ctx.input(i), ScalarConst(m, dt)),
        relay::multiply(relay::reshape(current, relay::Ints{-1}), ScalarConst(1 - m, dt)));
  };
  return {y, running(3, mean), running(4, var)};
}

Outputs BatchNorm(const NodeContext& ctx) {
  ctx.CheckInputs(5, 5);
  if (ctx.attr_int("training_mode", 0) != 0 || ctx.num_outputs() > 1) return BatchNormTraining(ctx);
  relay::nn::BatchNormArgs args;
  args.epsilon = ctx.attr_float("epsilon", 1e-5);
  ir::Expr bn = relay::nn::batch_norm(ctx.input(0), ctx.input(1), ctx.input(2), ctx.input(3),
                                      ctx.input(4), args);
  return {relay::get_item(bn, 0)};
}

Outputs Dropout(const NodeContext& ctx) {
  ctx.CheckInputs(1, 3);
  double rate = ctx.attr_float("ratio", 0.5);
  // A ratio known only at run time: the inference form (the identity), as TVM's converter. A
  // training_mode known only at run time could ask for random dropping, which TVM's converter
  // ignores (it would answer the identity, a wrong number): refused, unless the ratio is a
  // constant 0 (then training mode is the identity too).
  const bool ratio_at_run_time = ctx.has_input(1) && ctx.AtRunTime(1, "ratio");
  const bool mode_at_run_time = ctx.has_input(2) && ctx.AtRunTime(2, "training_mode");
  const bool at_run_time = ratio_at_run_time || mode_at_run_time;
  if (ctx.has_input(1) && !ratio_at_run_time) rate = ctx.ScalarValue(1, "ratio");
  if (mode_at_run_time && (ratio_at_run_time || rate != 0)) {
    ctx.Unsupported(
        "training_mode given at run time with a ratio that is not a constant 0 (training mode "
        "drops at random: TVM's converter ignores training_mode and would answer the "
        "identity)");
  }
  // Training mode drops at random; with a ratio of 0 it is the identity (and the inference
  // form below is exact).
  if (!at_run_time && ctx.has_input(2) && ctx.ScalarValue(2, "training_mode") != 0 && rate != 0) {
    ctx.Unsupported(
        "training_mode=true with a nonzero ratio (random dropping: the mask depends on the "
        "random generator and seed, so no output can match ONNX's expected one)");
  }
  Outputs out{relay::get_item(relay::nn::dropout(ctx.input(0), rate), 0)};
  const ir::Shape& s = ctx.shape(0);
  const bool any_dim = std::any_of(s.begin(), s.end(), [](int64_t d) { return d < 0; });
  if (ctx.num_outputs() > 1 && !ctx.node().output(1).empty() && (at_run_time || any_dim)) {
    out.push_back(relay::cast(relay::ones_like(ctx.input(0)), "bool"));
  } else if (ctx.num_outputs() > 1 && !ctx.node().output(1).empty()) {
    ir::NDArray mask = ir::NDArray::Empty(ctx.shape(0), ir::DataType::Bool());
    bool* m = mask.mutable_data<bool>();
    for (int64_t i = 0; i < mask.size(); ++i) m[i] = true;
    out.push_back(ir::MakeConstant(mask));
  }
  return out;
}

// (x - mean) * rsqrt(var + eps) over `axes` (kept), with the mean and rsqrt term.
struct Normalized {
  ir::Expr y, mean, inv_std;
};
Normalized Normalize(const NodeContext& ctx, const Ints& axes, double eps) {
  ir::Expr x = ctx.input(0);
  ir::Expr mean = relay::mean(x, axes, true);
  ir::Expr d = relay::subtract(x, mean);
  ir::Expr var = relay::mean(relay::multiply(d, d), axes, true);
  ir::Expr inv = relay::rsqrt(relay::add(var, ScalarConst(eps, ctx.dtype(0))));
  return {relay::multiply(d, inv), mean, inv};
}

// LayerNormalization-17, composed as TVM's converter: (x - mean) * 1 / sqrt(var + eps), with the
// mean and inverse standard deviation as the extra outputs.
Outputs LayerNorm(const NodeContext& ctx) {
  ctx.CheckInputs(2, 3);
  const int64_t r = ctx.ndim(0);
  const int64_t axis = NormalizeAxis(ctx, ctx.attr_int("axis", -1), r);
  Ints axes;
  for (int64_t i = axis; i < r; ++i) axes.push_back(i);
  Normalized n = Normalize(ctx, axes, ctx.attr_float("epsilon", 1e-5));
  ir::Expr y = relay::multiply(n.y, ctx.input(1));
  if (ctx.has_input(2)) y = relay::add(y, ctx.input(2));
  return {y, n.mean, n.inv_std};
}

// TVM's InstanceNormalization: nn.instance_norm(data, scale, bias, axis=1, epsilon).
Outputs InstanceNorm(const NodeContext& ctx) {
  ctx.CheckInputs(3, 3);
  return {relay::nn::instance_norm(ctx.input(0), ctx.input(1), ctx.input(2), 1,
                                   ctx.attr_float("epsilon", 1e-5))};
}

// TVM's LRN: nn.lrn over the channel axis.
Outputs LRN(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  if (!ctx.has_attr("size")) ctx.Fail("LRN needs a size");
  return {relay::nn::lrn(ctx.input(0), ctx.attr_int32("size", 1), 1, ctx.attr_float("bias", 1.0),
                         ctx.attr_float("alpha", 0.0001), ctx.attr_float("beta", 0.75))};
}

// TVM's MeanVarianceNormalization: (x - mean) / (sqrt(mean(x^2) - mean^2) + 1e-9) over `axes`.
Outputs MeanVarianceNorm(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  const Ints axes = ctx.attr_ints("axes", Ints{0, 2, 3});
  const ir::DataType dt = ctx.dtype(0);
  ir::Expr x = ctx.input(0);
  ir::Expr mean = relay::mean(x, axes, true);
  ir::Expr mean_squared = relay::power(mean, ScalarConst(2, dt));
  ir::Expr squared_mean = relay::mean(relay::power(x, ScalarConst(2, dt)), axes, true);
  ir::Expr denom =
      relay::add(relay::sqrt(relay::subtract(squared_mean, mean_squared)), ScalarConst(1e-9, dt));
  return {relay::divide(relay::subtract(x, mean), denom)};
}

}  // namespace

void RegisterNorm(ConverterTable& t) {
  t.Add("MeanVarianceNormalization", 9, MeanVarianceNorm);
  t.Add("BatchNormalization", 1, BatchNorm);
  t.Add("Dropout", 1, Dropout);
  t.Add("LayerNormalization", 17, LayerNorm);
  t.Add("InstanceNormalization", 1, InstanceNorm);
  t.Add("LRN", 1, LRN);
}

}  // namespace relaypass::frontend::onnx_import
