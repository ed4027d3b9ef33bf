// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (inference forms), composed: the target
// class of each element is picked with a one-hot mask (equal to a constant class index range),
// as relaypass has no take / gather.
#include "context.h"
#include "relaypass/relay.h"

namespace relaypass::frontend::onnx_import {

namespace {

namespace relay = relaypass::relay;

// The loss of log-probabilities `logp` ([N, C, d...]) against `target` ([N, d...]).
ir::Expr Nll(const NodeContext& ctx, const ir::Expr& logp, const ir::Shape& shape,
             ir::DataType dtype, size_t target, size_t weight) {
  const int r = static_cast<int>(shape.size());
  if (r < 2) ctx.Fail("input must have rank >= 2");
  const int64_t classes = shape[1];
  ir::NDArray range = ir::NDArray::Empty({classes}, ctx.dtype(target));
  for (int64_t c = 0; c < classes; ++c) {
    if (ctx.dtype(target) == ir::DataType::Int32())
      range.mutable_data<int32_t>()[c] = static_cast<int32_t>(c);
    else
      range.mutable_data<int64_t>()[c] = c;
  }
  ir::Expr classes_col = relay::expand_dims(ir::MakeConstant(range), 1, r - 2);  // [C, 1...]
  ir::Expr tgt = relay::expand_dims(ctx.input(target), 1);                       // [N, 1, d...]
  ir::Expr onehot = relay::cast(relay::call("equal", {tgt, classes_col}), dtype.ToString());
  ir::Expr picked = relay::sum(relay::multiply(logp, onehot), relay::Ints{1});  // [N, d...]
  ir::Expr w;  // the weight of each element, null for 1
  if (ctx.has_input(weight)) {
    ir::Expr wc = relay::expand_dims(ctx.input(weight), 1, r - 2);
    w = relay::sum(relay::multiply(onehot, wc), relay::Ints{1});
  }
  if (ctx.has_attr("ignore_index")) {
    ir::Expr keep = relay::cast(
        relay::call("not_equal", {ctx.input(target),
                                  ScalarConst(static_cast<double>(ctx.attr_int("ignore_index", 0)),
                                              ctx.dtype(target))}),
        dtype.ToString());
    w = w ? relay::multiply(w, keep) : keep;
  }
  ir::Expr loss = relay::negative(picked);
  if (w) loss = relay::multiply(loss, w);
  const std::string reduction = ctx.attr_string("reduction", "mean");
  if (reduction == "none") return loss;
  if (reduction == "sum") return relay::sum(loss);
  if (reduction != "mean") ctx.Fail("unknown reduction '" + reduction + "'");
  if (!w) return relay::mean(loss);
  return relay::divide(relay::sum(loss), relay::sum(w));
}

Outputs NllLoss(const NodeContext& ctx) {
  ctx.CheckInputs(2, 3);
  return {Nll(ctx, ctx.input(0), ctx.shape(0), ctx.dtype(0), 1, 2)};
}

Outputs SoftmaxCrossEntropy(const NodeContext& ctx) {
  ctx.CheckInputs(2, 3);
  ir::Expr logp = relay::nn::log_softmax(ctx.input(0), 1);
  return {Nll(ctx, logp, ctx.shape(0), ctx.dtype(0), 1, 2), logp};
}

}  // namespace

void RegisterLoss(ConverterTable& t) {
  t.Add("NegativeLogLikelihoodLoss", 12, NllLoss);
  t.Add("SoftmaxCrossEntropyLoss", 12, SoftmaxCrossEntropy);
}

}  // namespace relaypass::frontend::onnx_import
