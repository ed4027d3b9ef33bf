// Converters for inputs known only at run time: TVM v0.13 from_onnx's dynamic-op forms (see
// dynamic.h). Every value built here is int64 (ONNX's shape dtype) unless said otherwise.
#include "dynamic.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "relaypass/ir/expr.h"

namespace relaypass::frontend::onnx_import {

namespace relay = relaypass::relay;
using ir::AttrValue;

namespace {

const ir::DataType kI64 = ir::DataType::Int64();

ir::Expr Less(const ir::Expr& a, const ir::Expr& b) {
  return relay::call("less", {a, b});
}
ir::Expr Equal(const ir::Expr& a, const ir::Expr& b) {
  return relay::call("equal", {a, b});
}
ir::Expr All(const ir::Expr& x) {
  return relay::call("all", {x});
}

// Axes (int64) counted from the end made non-negative: where(a < 0, a + rank, a), TVM's
// normalize_axes.
ir::Expr NormalizeAxes(const ir::Expr& axes, int64_t rank) {
  return relay::where(Less(axes, ScalarConst(0, kI64)),
                      relay::add(axes, ScalarConst(static_cast<double>(rank), kI64)), axes);
}

// The static length of a 1-D input (`what`), or unsupported when it is `?`.
int64_t StaticLength(const NodeContext& ctx, size_t i, const std::string& what) {
  if (ctx.ndim(i) > 1) ctx.Fail(what + " must be a 1-D tensor");
  if (ctx.ndim(i) == 0) return 1;
  const int64_t n = ctx.shape(i)[0];
  if (n < 0) ctx.Unsupported(what + " of a length not known at import");
  return n;
}

// A scalar (or 1-element) input as an int64 scalar.
ir::Expr Int64Scalar(const NodeContext& ctx, size_t i) {
  ir::Expr x = AsInt64(ctx, i);
  return ctx.ndim(i) == 0 ? x : relay::reshape(x, Ints{});
}

// The k-subsets of [0, r), ascending, each ascending.
std::vector<Ints> Subsets(int64_t r, int64_t k) {
  std::vector<Ints> out;
  Ints pick;
  // Every bitmask of r bits (r is a tensor rank: small).
  for (uint64_t mask = 0; mask < (uint64_t{1} << r); ++mask) {
    pick.clear();
    for (int64_t b = 0; b < r; ++b) {
      if (mask & (uint64_t{1} << b)) pick.push_back(b);
    }
    if (static_cast<int64_t>(pick.size()) == k) out.push_back(pick);
  }
  return out;
}

}  // namespace

ir::Expr Int64Vector(const Ints& values) {
  ir::NDArray a = ir::NDArray::Empty({static_cast<int64_t>(values.size())}, kI64);
  std::copy(values.begin(), values.end(), a.mutable_data<int64_t>());
  return ir::MakeConstant(a);
}

ir::Expr ShapeTensor(const NodeContext& ctx, size_t i) {
  const ir::Shape& s = ctx.shape(i);
  if (std::all_of(s.begin(), s.end(), [](int64_t d) { return d >= 0; })) return Int64Vector(s);
  return relay::shape_of(ctx.input(i), "int64");
}

ir::Expr AsInt64(const NodeContext& ctx, size_t i) {
  if (ctx.dtype(i) == kI64) return ctx.input(i);
  return relay::cast(ctx.input(i), "int64");
}

Outputs DynReshape(const NodeContext& ctx, bool allowzero) {
  StaticLength(ctx, 1, "shape");
  return {relay::call("dyn.reshape", {ctx.input(0), AsInt64(ctx, 1)},
                      {{"allowzero", AttrValue::Bool(allowzero)}})};
}

Outputs DynSqueeze(const NodeContext& ctx) {
  StaticLength(ctx, 1, "axes");
  return {relay::call("dyn.squeeze", {ctx.input(0), NormalizeAxes(AsInt64(ctx, 1), ctx.ndim(0))})};
}

Outputs DynUnsqueeze(const NodeContext& ctx) {
  const int64_t n = StaticLength(ctx, 1, "axes");
  ir::Expr axes = relay::sort(NormalizeAxes(AsInt64(ctx, 1), ctx.ndim(0) + n));
  ir::Expr x = ctx.input(0);
  for (int64_t k = 0; k < n; ++k) {
    ir::Expr axis = relay::take(axes, ScalarConst(static_cast<double>(k), kI64), 0);
    x = relay::call("dyn.expand_dims", {x, axis}, {{"num_newaxis", AttrValue::Int(1)}});
  }
  return {x};
}

Outputs DynExpand(const NodeContext& ctx) {
  const int64_t n = StaticLength(ctx, 1, "shape");
  const int64_t r = ctx.ndim(0);
  ir::Expr in_shape = ShapeTensor(ctx, 0);
  ir::Expr shape = AsInt64(ctx, 1);
  if (r < n) in_shape = relay::concatenate({Int64Vector(Ints(n - r, 1)), in_shape}, 0);
  if (n < r) shape = relay::concatenate({Int64Vector(Ints(r - n, 1)), shape}, 0);
  return {relay::call("dyn.broadcast_to", {ctx.input(0), relay::maximum(in_shape, shape)})};
}

Outputs DynTile(const NodeContext& ctx) {
  if (StaticLength(ctx, 1, "repeats") != ctx.ndim(0)) ctx.Fail("repeats needs one value per axis");
  return {relay::call("dyn.tile", {ctx.input(0), AsInt64(ctx, 1)})};
}

Outputs DynSlice(const NodeContext& ctx) {
  const int64_t r = ctx.ndim(0);
  const int64_t n = StaticLength(ctx, 1, "starts");
  if (StaticLength(ctx, 2, "ends") != n) ctx.Fail("starts and ends must have the same length");
  ir::Expr axes;
  if (ctx.has_input(3)) {
    if (StaticLength(ctx, 3, "axes") != n) ctx.Fail("axes must have a value per start");
    axes = NormalizeAxes(AsInt64(ctx, 3), r);
  } else {
    Ints all(n);
    for (int64_t k = 0; k < n; ++k) all[k] = k;
    axes = Int64Vector(all);
  }
  ir::Expr steps = Int64Vector(Ints(n, 1));
  if (ctx.has_input(4)) {
    if (StaticLength(ctx, 4, "steps") != n) ctx.Fail("steps must have a value per start");
    steps = AsInt64(ctx, 4);
  }
  // Axes not sliced keep [0, extent) with step 1.
  ir::Expr begin = relay::scatter_elements(Int64Vector(Ints(r, 0)), axes, AsInt64(ctx, 1));
  ir::Expr end = relay::scatter_elements(ShapeTensor(ctx, 0), axes, AsInt64(ctx, 2));
  ir::Expr strides = relay::scatter_elements(Int64Vector(Ints(r, 1)), axes, steps);
  return {relay::call("dyn.strided_slice", {ctx.input(0), begin, end, strides},
                      {{"slice_mode", AttrValue::Str("end")}})};
}

Outputs DynPad(const NodeContext& ctx, const ir::Expr& pad_value, const std::string& mode) {
  const int64_t r = ctx.ndim(0);
  if (StaticLength(ctx, 1, "pads") != 2 * r) ctx.Fail("pads must have 2 values per axis");
  // ONNX's [x1_begin, x2_begin, ..., x1_end, x2_end, ...] as Relay's ((begin, end), ...).
  ir::Expr width = relay::transpose(relay::reshape(AsInt64(ctx, 1), Ints{2, r}), Ints{1, 0});
  return {relay::call("dyn.nn.pad", {ctx.input(0), width, pad_value},
                      {{"pad_mode", AttrValue::Str(mode)}})};
}

Outputs DynConstantOfShape(const NodeContext& ctx, const ir::NDArray& fill) {
  StaticLength(ctx, 0, "shape");
  ir::NDArray scalar = ir::NDArray::Empty({}, fill.dtype());
  std::copy_n(static_cast<const uint8_t*>(fill.raw_data()), fill.dtype().bytes(),
              static_cast<uint8_t*>(scalar.mutable_raw_data()));
  return {relay::call("dyn.full", {ir::MakeConstant(scalar), AsInt64(ctx, 0)},
                      {{"dtype", AttrValue::Str(fill.dtype().ToString())}})};
}

Outputs DynTopK(const NodeContext& ctx) {
  StaticLength(ctx, 1, "K");
  const int64_t axis = ctx.attr_int("axis", -1);
  const bool largest = ctx.attr_int("largest", 1) != 0;
  ir::Expr t = relay::call("dyn.topk", {ctx.input(0), Int64Scalar(ctx, 1)},
                           {{"axis", AttrValue::Int(ctx.Int32(axis, "axis"))},
                            {"ret_type", AttrValue::Str("both")},
                            {"is_ascend", AttrValue::Bool(!largest)},
                            {"dtype", AttrValue::Str("int64")}});
  return {relay::get_item(t, 0), relay::get_item(t, 1)};
}

Outputs DynCumSum(const NodeContext& ctx) {
  const int64_t r = ctx.ndim(0);
  if (r == 0) ctx.Fail("CumSum of a scalar");
  const bool exclusive = ctx.attr_int("exclusive", 0) != 0;
  const bool reverse = ctx.attr_int("reverse", 0) != 0;
  auto along = [&](int64_t axis) {
    ir::Expr x = ctx.input(0);
    if (!reverse) return relay::cumsum(x, axis, "", exclusive);
    x = relay::cumsum(relay::reverse(x, static_cast<int>(axis)), axis, "", exclusive);
    return relay::reverse(x, static_cast<int>(axis));
  };
  ir::Expr axis = NormalizeAxes(Int64Scalar(ctx, 1), r);
  ir::Expr out = along(r - 1);
  for (int64_t a = r - 2; a >= 0; --a) {
    out = ir::MakeIf(Equal(axis, ScalarConst(static_cast<double>(a), kI64)), along(a), out);
  }
  return {out};
}

Outputs DynOneHot(const NodeContext& ctx) {
  const int nd = ctx.ndim(0);
  int64_t axis = ctx.attr_int("axis", -1);
  if (axis < 0) axis += nd + 1;
  const ir::DataType idt = ctx.dtype(0);
  ir::Expr off = relay::take(ctx.input(2), ScalarConst(0, ir::DataType::Int32()));
  ir::Expr on = relay::take(ctx.input(2), ScalarConst(1, ir::DataType::Int32()));
  ir::Expr depth = relay::cast(Int64Scalar(ctx, 1), idt.ToString());
  ir::Expr indices = ctx.input(0);
  indices = relay::where(Less(indices, ScalarConst(0, idt)), relay::add(indices, depth), indices);
  return {relay::call("dyn.one_hot", {indices, on, off, Int64Scalar(ctx, 1)},
                      {{"axis", AttrValue::Int(ctx.Int32(axis, "axis"))},
                       {"dtype", AttrValue::Str(ctx.dtype(2).ToString())}})};
}

Outputs DynRange(const NodeContext& ctx) {
  auto scalar = [&](size_t i) {
    return ctx.ndim(i) == 0 ? ctx.input(i) : relay::reshape(ctx.input(i), Ints{});
  };
  return {relay::call("arange", {scalar(0), scalar(1), scalar(2)},
                      {{"dtype", AttrValue::Str(ctx.dtype(0).ToString())}})};
}

Outputs DynReduce(const NodeContext& ctx, bool keepdims,
                  const std::function<ir::Expr(const ir::Expr&, const Ints&, bool)>& reduce) {
  const int64_t r = ctx.ndim(0);
  const int64_t n = StaticLength(ctx, 1, "axes");
  if (n > r || r > 8) ctx.Unsupported("run-time axes on this rank");
  ir::Expr axes = relay::sort(NormalizeAxes(AsInt64(ctx, 1), r));
  const std::vector<Ints> subsets = Subsets(r, n);
  auto branch = [&](const Ints& pick) {
    ir::Expr y = reduce(ctx.input(0), pick, keepdims);
    return relay::call("dyn.reshape", {y, relay::shape_of(y, "int64")});
  };
  ir::Expr out = branch(subsets.back());
  for (size_t k = subsets.size() - 1; k-- > 0;) {
    out = ir::MakeIf(All(Equal(axes, Int64Vector(subsets[k]))), branch(subsets[k]), out);
  }
  return {out};
}

Outputs DynResize(const NodeContext& ctx, const ir::Expr& roi,
                  const relay::image::Resize2DArgs& a) {
  ir::Expr size;
  const bool has_scales = ctx.has_input(2) && !(ctx.ndim(2) == 1 && ctx.shape(2)[0] == 0);
  if (ctx.has_input(3) && !has_scales) {
    size = relay::strided_slice(AsInt64(ctx, 3), {2}, {4});
  } else {
    // The input extents times the scales, truncated as the static converter (and TVM) does.
    ir::Expr extents = relay::cast(ShapeTensor(ctx, 0), "float32");
    ir::Expr scaled = relay::multiply(extents, relay::cast(ctx.input(2), "float32"));
    size = relay::cast(relay::strided_slice(scaled, {2}, {4}), "int64");
  }
  return {relay::call(
      "dyn.image.resize2d", {ctx.input(0), size, roi},
      {{"layout", AttrValue::Str(a.layout)},
       {"method", AttrValue::Str(a.method)},
       {"coordinate_transformation_mode", AttrValue::Str(a.coordinate_transformation_mode)},
       {"rounding_method", AttrValue::Str(a.rounding_method)},
       {"cubic_alpha", AttrValue::Double(a.cubic_alpha)},
       {"cubic_exclude", AttrValue::Int(a.cubic_exclude)},
       {"extrapolation_value", AttrValue::Double(a.extrapolation_value)},
       {"out_dtype", AttrValue::Str(a.out_dtype)}})};
}

Outputs DynWindow(const NodeContext& ctx, double a0, double a1, double a2, bool periodic,
                  const std::string& dtype) {
  const ir::DataType f32 = ir::DataType::Float32();
  ir::Expr size = Int64Scalar(ctx, 0);
  ir::Expr n = relay::cast(relay::call("arange", {ScalarConst(0, kI64), size, ScalarConst(1, kI64)},
                                       {{"dtype", AttrValue::Str("int64")}}),
                           "float32");
  ir::Expr denom = periodic ? size : relay::subtract(size, ScalarConst(1, kI64));
  denom = relay::cast(denom, "float32");
  // N = 0 (a symmetric window of one sample): the angle is 0, as the static converter's.
  ir::Expr t = relay::where(relay::call("greater", {denom, ScalarConst(0, f32)}),
                            relay::divide(relay::multiply(n, ScalarConst(2 * M_PI, f32)), denom),
                            relay::zeros_like(n));
  ir::Expr w = relay::subtract(ScalarConst(a0, f32),
                               relay::multiply(ScalarConst(a1, f32), relay::call("cos", {t})));
  w = relay::add(w, relay::multiply(ScalarConst(a2, f32),
                                    relay::call("cos", {relay::multiply(t, ScalarConst(2, f32))})));
  return {relay::cast(w, dtype)};
}

Outputs DynCompress(const NodeContext& ctx) {
  ir::Expr positions = relay::reshape(relay::call("argwhere", {ctx.input(1)}), Ints{-1});
  if (!ctx.has_attr("axis")) {
    return {relay::take(relay::reshape(ctx.input(0), Ints{-1}), positions, 0)};
  }
  const int64_t axis = NormalizeAxis(ctx, ctx.attr_int("axis", 0), ctx.ndim(0));
  return {relay::take(ctx.input(0), positions, axis)};
}

Outputs DynNonZero(const NodeContext& ctx) {
  return {relay::cast(relay::transpose(relay::call("argwhere", {ctx.input(0)})), "int64")};
}

Outputs DynSplit(const NodeContext& ctx, int64_t axis) {
  const int64_t n = static_cast<int64_t>(ctx.num_outputs());
  if (StaticLength(ctx, 1, "split") != n) ctx.Fail("split has a size per output");
  const int64_t r = ctx.ndim(0);
  ir::Expr sizes = AsInt64(ctx, 1);
  ir::Expr ends = relay::cumsum(sizes, 0);
  ir::Expr starts = relay::subtract(ends, sizes);
  const ir::Expr at = Int64Vector(Ints{axis});
  Outputs out;
  for (int64_t k = 0; k < n; ++k) {
    ir::Expr begin = relay::scatter_elements(Int64Vector(Ints(r, 0)), at,
                                             relay::strided_slice(starts, {k}, {k + 1}));
    ir::Expr end =
        relay::scatter_elements(ShapeTensor(ctx, 0), at, relay::strided_slice(ends, {k}, {k + 1}));
    out.push_back(relay::call("dyn.strided_slice",
                              {ctx.input(0), begin, end, Int64Vector(Ints(r, 1))},
                              {{"slice_mode", AttrValue::Str("end")}}));
  }
  return out;
}

Outputs DynUpsample(const NodeContext& ctx, const std::string& method) {
  ir::Expr scales = relay::cast(ctx.input(1), "float64");
  ir::Expr h = relay::take(scales, ScalarConst(2, kI64), 0);
  ir::Expr w = relay::take(scales, ScalarConst(3, kI64), 0);
  return {relay::call("dyn.nn.upsampling", {ctx.input(0), h, w},
                      {{"layout", AttrValue::Str("NCHW")},
                       {"method", AttrValue::Str(method)},
                       {"align_corners", AttrValue::Bool(false)}})};
}

}  // namespace relaypass::frontend::onnx_import
