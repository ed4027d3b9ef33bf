// The Reduce ops as TVM: sum / mean / max / min / prod with axis (all axes when absent) and
// keepdims; ReduceL1, ReduceL2, ReduceSumSquare, ReduceLogSum and ReduceLogSumExp composed.
#include "context.h"
#include "dynamic.h"
#include "relaypass/relay.h"

namespace relaypass::frontend::onnx_import {

namespace {

namespace relay = relaypass::relay;

enum class Kind { kSum, kMean, kMax, kMin, kProd, kL1, kL2, kSumSquare, kLogSum, kLogSumExp };

// One reduction of `x` over `axes` (non-negative).
ir::Expr ReduceExpr(Kind kind, const ir::Expr& x, const Ints& axes, bool keep) {
  switch (kind) {
    case Kind::kSum:
      return relay::sum(x, axes, keep);
    case Kind::kMean:
      return relay::mean(x, axes, keep);
    case Kind::kMax:
      return relay::max(x, axes, keep);
    case Kind::kMin:
      return relay::min(x, axes, keep);
    case Kind::kProd:
      return relay::prod(x, axes, keep);
    case Kind::kL1:
      return relay::sum(relay::abs(x), axes, keep);
    case Kind::kL2:
      return relay::sqrt(relay::sum(relay::multiply(x, x), axes, keep));
    case Kind::kSumSquare:
      return relay::sum(relay::multiply(x, x), axes, keep);
    case Kind::kLogSum:
      return relay::log(relay::sum(x, axes, keep));
    case Kind::kLogSumExp: {
      ir::Expr m = relay::max(x, axes, true);
      ir::Expr s = relay::log(relay::sum(relay::exp(relay::subtract(x, m)), axes, true));
      ir::Expr out = relay::add(s, m);
      return keep ? out : relay::squeeze(out, axes);
    }
  }
  return {};
}

Converter Reduce(Kind kind) {
  return [kind](const NodeContext& ctx) -> Outputs {
    ctx.CheckInputs(1, 2);
    ir::Expr x = ctx.input(0);
    const int ndim = ctx.ndim(0);
    Ints axes;
    bool have_axes = false;
    if (ctx.has_input(1) && ctx.AtRunTime(1, "axes")) {
      // Axes known only at run time: a reduction per possible set, chosen by a Relay If; an
      // axes tensor of static length 0 is no axes.
      if (!(ctx.ndim(1) == 1 && ctx.shape(1)[0] == 0)) {
        return DynReduce(ctx, ctx.attr_int("keepdims", 1) != 0,
                         [kind](const ir::Expr& data, const Ints& a, bool keep) {
                           return ReduceExpr(kind, data, a, keep);
                         });
      }
    } else if (ctx.has_input(1)) {  // ReduceSum-13 (and every Reduce op from opset 18)
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
    return {ReduceExpr(kind, x, axes, keep)};
  };
}

// TVM's ArgMax / ArgMin: argmax(data, axis=[axis], keepdims, select_last_index) cast to int64.
Converter ArgReduce(bool is_max) {
  return [is_max](const NodeContext& ctx) -> Outputs {
    ctx.CheckInputs(1, 1);
    const relay::Ints axis{ctx.attr_int("axis", 0)};
    const bool keepdims = ctx.attr_int("keepdims", 1) != 0;
    const bool last = ctx.attr_int("select_last_index", 0) != 0;
    ir::Expr r = is_max ? relay::argmax(ctx.input(0), axis, keepdims, false, last)
                        : relay::argmin(ctx.input(0), axis, keepdims, false, last);
    return {relay::cast(r, "int64")};
  };
}

// TVM's Hardmax: one_hot(argmax) along the axis (opset 13), or over the 2-D coercion at `axis`
// (before).
Outputs Hardmax(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  const ir::Shape& s = ctx.StaticShape(0, "Hardmax's one_hot depth needs at import");
  const int64_t nd = ctx.ndim(0);
  const ir::DataType dt = ctx.dtype(0);
  if (ctx.opset() >= 13) {
    const int64_t axis = NormalizeAxis(ctx, ctx.attr_int("axis", -1), nd);
    ir::Expr am = relay::argmax(ctx.input(0), relay::Ints{axis});
    return {relay::one_hot(am, ScalarConst(1.0, dt), ScalarConst(0.0, dt),
                           static_cast<int>(s[axis]), static_cast<int>(axis), dt.ToString())};
  }
  const int64_t axis = NormalizeAxis(ctx, ctx.attr_int("axis", 1), nd, /*inclusive=*/true);
  int64_t pre = 1, post = 1;
  for (int64_t i = 0; i < nd; ++i) (i < axis ? pre : post) *= s[i];
  ir::Expr x = relay::reshape(ctx.input(0), relay::Ints{pre, post});
  ir::Expr am = relay::argmax(x, relay::Ints{1});
  ir::Expr oh = relay::one_hot(am, ScalarConst(1.0, dt), ScalarConst(0.0, dt),
                               static_cast<int>(post), 1, dt.ToString());
  return {relay::reshape(oh, relay::Ints(s.begin(), s.end()))};
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
  t.Add("ArgMax", 1, ArgReduce(true));
  t.Add("ArgMin", 1, ArgReduce(false));
  t.Add("Hardmax", 1, Hardmax);
}

}  // namespace relaypass::frontend::onnx_import
