// BatchNormalization (inference) and Dropout, as TVM: nn.batch_norm(...)[0] and
// nn.dropout(...)[0]; Dropout's mask output is all true in inference. LayerNormalization and
// InstanceNormalization composed from mean / rsqrt.
#include "context.h"
#include "relaypass/relay.h"

namespace relaypass::frontend::onnx_import {

namespace {

namespace relay = relaypass::relay;

Outputs BatchNorm(const NodeContext& ctx) {
  ctx.CheckInputs(5, 5);
  if (ctx.attr_int("training_mode", 0) != 0 || ctx.num_outputs() > 1) {
    ctx.Unsupported("training mode (running mean and variance outputs)");
  }
  relay::nn::BatchNormArgs args;
  args.epsilon = ctx.attr_float("epsilon", 1e-5);
  ir::Expr bn = relay::nn::batch_norm(ctx.input(0), ctx.input(1), ctx.input(2), ctx.input(3),
                                      ctx.input(4), args);
  return {relay::get_item(bn, 0)};
}

Outputs Dropout(const NodeContext& ctx) {
  ctx.CheckInputs(1, 3);
  if (ctx.has_input(2) && ctx.ScalarValue(2, "training_mode") != 0) {
    ctx.Unsupported("training_mode=true");
  }
  double rate = ctx.attr_float("ratio", 0.5);
  if (ctx.has_input(1)) rate = ctx.ScalarValue(1, "ratio");
  Outputs out{relay::get_item(relay::nn::dropout(ctx.input(0), rate), 0)};
  if (ctx.num_outputs() > 1 && !ctx.node().output(1).empty()) {
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

// LayerNormalization-17, composed (TVM v0.13 emits nn.layer_norm, which relaypass lacks).
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

// InstanceNormalization, composed (TVM emits nn.instance_norm): per sample and channel.
Outputs InstanceNorm(const NodeContext& ctx) {
  ctx.CheckInputs(3, 3);
  const int r = ctx.ndim(0);
  Ints axes;
  for (int i = 2; i < r; ++i) axes.push_back(i);
  Normalized n = Normalize(ctx, axes, ctx.attr_float("epsilon", 1e-5));
  ir::Expr scale = relay::expand_dims(ctx.input(1), 1, r - 2);
  ir::Expr bias = relay::expand_dims(ctx.input(2), 1, r - 2);
  return {relay::add(relay::multiply(n.y, scale), bias)};
}

}  // namespace

void RegisterNorm(ConverterTable& t) {
  t.Add("BatchNormalization", 1, BatchNorm);
  t.Add("Dropout", 1, Dropout);
  t.Add("LayerNormalization", 17, LayerNorm);
  t.Add("InstanceNormalization", 1, InstanceNorm);
}

}  // namespace relaypass::frontend::onnx_import
