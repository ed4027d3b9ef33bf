// The Reduce ops as TVM: sum / mean / max / min / prod with axis (all axes when absent) and
// keepdims; ReduceL1, ReduceL2, ReduceSumSquare, ReduceLogSum and ReduceLogSumExp composed.
#include "../../op/op_common.h"
#include "context.h"
#include "relaypass/relay.h"

namespace relaypass::frontend::onnx_import {

namespace {

namespace relay = relaypass::relay;

enum class Kind { kSum, kMean, kMax, kMin, kProd, kL1, kL2, kSumSquare, kLogSum, kLogSumExp };

Converter Reduce(Kind kind) {
  return [kind](const NodeContext& ctx) -> Outputs {
    ctx.CheckInputs(1, 2);
    ir::Expr x = ctx.input(0);
    const int ndim = ctx.ndim(0);
    Ints axes;
    bool have_axes = false;
    if (ctx.has_input(1)) {  // ReduceSum-13 (and every Reduce op from opset 18)
      axes = ctx.IntsValue(1, "axes");
      have_axes = !axes.empty();
    } else if (ctx.has_attr("axes")) {
      axes = ctx.attr_ints("axes");
      have_axes = true;
    }
    if (!have_axes) {
      if (ctx.attr_int("noop_with_empty_axes", 0)) return {x};
      axes.clear();
      for (int i = 0; i < ndim; ++i) axes.push_back(i);
    }
    for (int64_t& a : axes) a = NormalizeAxis(ctx, a, ndim);
    const bool keep = ctx.attr_int("keepdims", 1) != 0;
    switch (kind) {
      case Kind::kSum:
        return {relay::sum(x, axes, keep)};
      case Kind::kMean:
        return {relay::mean(x, axes, keep)};
      case Kind::kMax:
        return {relay::max(x, axes, keep)};
      case Kind::kMin:
        return {relay::min(x, axes, keep)};
      case Kind::kProd:
        return {relay::prod(x, axes, keep)};
      case Kind::kL1:
        return {relay::sum(relay::abs(x), axes, keep)};
      case Kind::kL2:
        return {relay::sqrt(relay::sum(relay::multiply(x, x), axes, keep))};
      case Kind::kSumSquare:
        return {relay::sum(relay::multiply(x, x), axes, keep)};
      case Kind::kLogSum:
        return {relay::log(relay::sum(x, axes, keep))};
      case Kind::kLogSumExp: {
        ir::Expr m = relay::max(x, axes, true);
        ir::Expr s = relay::log(relay::sum(relay::exp(relay::subtract(x, m)), axes, true));
        ir::Expr out = relay::add(s, m);
        return {keep ? out : relay::squeeze(out, axes)};
      }
    }
    return {};
  };
}

}  // namespace

void RegisterReduce(ConverterTable& t) {
  t.Add("ReduceSum", 1, Reduce(Kind::kSum));
  t.Add("ReduceMean", 1, Reduce(Kind::kMean));
  t.Add("ReduceMax", 1, Reduce(Kind::kMax));
  t.Add("ReduceMin", 1, Reduce(Kind::kMin));
  t.Add("ReduceProd", 1, Reduce(Kind::kProd));
  t.Add("ReduceL1", 1, Reduce(Kind::kL1));
  t.Add("ReduceL2", 1, Reduce(Kind::kL2));
  t.Add("ReduceSumSquare", 1, Reduce(Kind::kSumSquare));
  t.Add("ReduceLogSum", 1, Reduce(Kind::kLogSum));
  t.Add("ReduceLogSumExp", 1, Reduce(Kind::kLogSumExp));
}

}  // namespace relaypass::frontend::onnx_import
