// Tensors: Constant, Cast, CastLike, ConstantOfShape, Pad, Expand (broadcast_to), Tile, Gather
// (take), GatherElements (gather), GatherND, Slice (strided_slice), Where, CumSum, TopK, OneHot,
// Trilu, Shrink, EyeLike, Scatter / ScatterElements / ScatterND, ReverseSequence, the Hann /
// Hamming / Blackman windows and Range on values known at import; the forms of dynamic.h when a
// shape, pads, repeats, starts, k, depth, axis or Range bound is known only at run time.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "context.h"
#include "dynamic.h"
#include "relaypass/frontend/onnx.h"
#include "relaypass/relay.h"
#include "tensor.h"

namespace relaypass::frontend::onnx_import {

namespace {

namespace relay = relaypass::relay;

Outputs Constant(const NodeContext& ctx) {
  ctx.CheckInputs(0, 0);
  if (const onnx::AttributeProto* a = ctx.attr("value")) {
    return {ir::MakeConstant(TensorFromProto(a->t(), ".", "Constant's value"))};
  }
  if (ctx.has_attr("value_float")) {
    return {ScalarConst(ctx.attr_float("value_float", 0), ir::DataType::Float32())};
  }
  if (ctx.has_attr("value_int")) {
    return {ScalarConst(static_cast<double>(ctx.attr_int("value_int", 0)), ir::DataType::Int64())};
  }
  if (ctx.has_attr("value_floats")) {
    std::vector<float> v = ctx.attr_floats("value_floats");
    ir::NDArray a = ir::NDArray::Empty({static_cast<int64_t>(v.size())}, ir::DataType::Float32());
    std::copy(v.begin(), v.end(), a.mutable_data<float>());
    return {ir::MakeConstant(a)};
  }
  if (ctx.has_attr("value_ints")) {
    Ints v = ctx.attr_ints("value_ints");
    ir::NDArray a = ir::NDArray::Empty({static_cast<int64_t>(v.size())}, ir::DataType::Int64());
    std::copy(v.begin(), v.end(), a.mutable_data<int64_t>());
    return {ir::MakeConstant(a)};
  }
  ctx.Unsupported("a Constant without a dense tensor or numeric value (sparse or string)");
}

Outputs Cast(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  std::optional<ir::DataType> to = DTypeFromOnnx(ctx.attr_int32("to", 0));
  if (!to) ctx.Unsupported("Cast to " + OnnxTypeName(ctx.attr_int32("to", 0)));
  return {relay::cast(ctx.input(0), to->ToString())};
}

Outputs ConstantOfShape(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  ir::NDArray fill = ir::NDArray::Scalar<float>(0.0f, ir::DataType::Float32());
  if (const onnx::AttributeProto* a = ctx.attr("value")) {
    fill = TensorFromProto(a->t(), ".", "ConstantOfShape's value");
    if (fill.size() != 1) ctx.Fail("value must have one element");
  }
  if (ctx.AtRunTime(0, "shape")) return DynConstantOfShape(ctx, fill);
  Ints shape = ctx.IntsValue(0, "shape");
  try {
    CheckedElementCount(shape, "the output shape");
  } catch (const OnnxError& e) {
    ctx.Fail(e.what());
  }
  ir::NDArray out = ir::NDArray::Empty(shape, fill.dtype());
  const size_t bytes = fill.dtype().bytes();
  auto* dst = static_cast<uint8_t*>(out.mutable_raw_data());
  for (int64_t i = 0; i < out.size(); ++i) std::memcpy(dst + i * bytes, fill.raw_data(), bytes);
  return {ir::MakeConstant(out)};
}

Outputs Pad(const NodeContext& ctx) {
  ctx.CheckInputs(1, 3);
  const int ndim = ctx.ndim(0);
  Ints pads;
  double value = 0;
  if (ctx.opset() < 11) {
    pads = ctx.attr_ints(ctx.opset() < 2 ? "paddings" : "pads");
    value = ctx.attr_float("value", 0.0);
  } else {
    // A constant_value known only at run time is nn.pad's pad_value argument as it is.
    const bool pads_at_run_time = ctx.AtRunTime(1, "pads");
    ir::Expr pad_value;
    if (ctx.has_input(2) && ctx.AtRunTime(2, "constant_value")) {
      pad_value = ctx.ndim(2) == 0 ? ctx.input(2) : relay::reshape(ctx.input(2), Ints{});
    }
    if (pads_at_run_time) {
      if (!pad_value) {
        pad_value = ScalarConst(ctx.has_input(2) ? ctx.ScalarValue(2, "constant_value") : 0.0,
                                ctx.dtype(0));
      }
      return DynPad(ctx, pad_value, ctx.attr_string("mode", "constant"));
    }
    pads = ctx.IntsValue(1, "pads");
    if (pad_value) {
      if (static_cast<int>(pads.size()) != 2 * ndim) ctx.Fail("pads must have 2 values per axis");
      std::vector<Ints> width;
      for (int i = 0; i < ndim; ++i) width.push_back({pads[i], pads[i + ndim]});
      return {relay::nn::pad(ctx.input(0), width, pad_value, ctx.attr_string("mode", "constant"))};
    }
    if (ctx.has_input(2)) value = ctx.ScalarValue(2, "constant_value");
  }
  if (static_cast<int>(pads.size()) != 2 * ndim) ctx.Fail("pads must have 2 values per axis");
  std::vector<Ints> width;
  for (int i = 0; i < ndim; ++i) {
    if (pads[i] < 0 || pads[i + ndim] < 0) ctx.Unsupported("negative pads (cropping)");
    width.push_back({pads[i], pads[i + ndim]});
  }
  std::string mode = ctx.attr_string("mode", "constant");
  if (mode != "constant" && mode != "edge" && mode != "reflect") ctx.Unsupported("mode " + mode);
  return {relay::nn::pad(ctx.input(0), width, ScalarConst(value, ctx.dtype(0)), mode)};
}

// TVM's Expand: broadcast_to the maximum of the input shape and `shape` (both left-padded
// with ones), folded to a constant shape.
Outputs Expand(const NodeContext& ctx) {
  ctx.CheckInputs(2, 2);
  if (ctx.AtRunTime(1, "shape")) return DynExpand(ctx);
  for (int64_t d : ctx.shape(0)) {
    if (d < 0) return DynExpand(ctx);  // a `?` input extent: the maximum taken at run time
  }
  Ints shape = ctx.IntsValue(1, "shape");
  const ir::Shape& in = ctx.shape(0);
  const size_t r = std::max(shape.size(), in.size());
  Ints out(r, 1);
  for (size_t i = 0; i < r; ++i) {
    int64_t a = i + in.size() >= r ? in[i + in.size() - r] : 1;
    int64_t b = i + shape.size() >= r ? shape[i + shape.size() - r] : 1;
    if (a != b && a != 1 && b != 1) ctx.Fail("shape is not broadcastable with the input");
    out[i] = std::max(a, b);
  }
  return {relay::broadcast_to(ctx.input(0), out)};
}

// TVM's Tile: tile(x, repeats).
Outputs Tile(const NodeContext& ctx) {
  ctx.CheckInputs(2, 2);
  if (ctx.AtRunTime(1, "repeats")) return DynTile(ctx);
  Ints repeats = ctx.IntsValue(1, "repeats");
  if (static_cast<int>(repeats.size()) != ctx.ndim(0)) ctx.Fail("repeats needs one value per axis");
  for (int64_t r : repeats) {
    if (r < 0) ctx.Fail("negative repeats");
  }
  return {relay::tile(ctx.input(0), repeats)};
}

// TVM's normalize_gather_indices: negative indices count from the end of `axis`; folded when the
// indices are known at import, else where(indices < 0, indices + extent, indices).
ir::Expr NormalizeIndices(const NodeContext& ctx, int64_t axis) {
  const ir::DataType dtype = ctx.dtype(1);
  const int64_t extent = ctx.shape(0)[axis];
  if (const ir::NDArray* known = ctx.value(1)) {
    Ints v = ctx.IntsValue(1, "indices", false);
    bool any_negative = false;
    for (int64_t& i : v) {
      if (i < 0) {
        i += extent;
        any_negative = true;
      }
    }
    if (!any_negative) return ctx.input(1);
    ir::NDArray a = ir::NDArray::Empty(known->shape(), ir::DataType::Int64());
    std::copy(v.begin(), v.end(), a.mutable_data<int64_t>());
    return relay::cast(ir::MakeConstant(a), dtype.ToString());
  }
  ir::Expr indices = ctx.input(1);
  ir::Expr negative = relay::call("less", {indices, ScalarConst(0, dtype)});
  if (extent < 0) {  // `?`: the extent at run time
    ir::Expr n = relay::take(relay::shape_of(ctx.input(0), dtype.ToString()),
                             ScalarConst(static_cast<double>(axis), ir::DataType::Int64()), 0);
    return relay::where(negative, relay::add(indices, n), indices);
  }
  return relay::where(
      negative, relay::add(indices, ScalarConst(static_cast<double>(extent), dtype)), indices);
}

// TVM's Gather: take(data, normalized indices, axis) (mode clip).
Outputs Gather(const NodeContext& ctx) {
  ctx.CheckInputs(2, 2);
  const int64_t axis = NormalizeAxis(ctx, ctx.attr_int("axis", 0), ctx.ndim(0));
  return {relay::take(ctx.input(0), NormalizeIndices(ctx, axis), axis)};
}

// TVM's GatherElements: gather(data, axis, normalized indices).
Outputs GatherElements(const NodeContext& ctx) {
  ctx.CheckInputs(2, 2);
  const int64_t axis = NormalizeAxis(ctx, ctx.attr_int("axis", 0), ctx.ndim(0));
  return {relay::gather(ctx.input(0), static_cast<int>(axis), NormalizeIndices(ctx, axis))};
}

// TVM's GatherND: the index tuples' axis moved first, index_rank from the indices' last dim.
Outputs GatherND(const NodeContext& ctx) {
  ctx.CheckInputs(2, 2);
  const int r = ctx.ndim(1);
  if (r < 1) ctx.Fail("indices must have rank >= 1");
  Ints axes{r - 1};
  for (int i = 0; i + 1 < r; ++i) axes.push_back(i);
  ir::Expr indices = relay::transpose(ctx.input(1), axes);
  const int batch_dims = ctx.opset() >= 12 ? ctx.attr_int32("batch_dims", 0) : 0;
  return {relay::gather_nd(ctx.input(0), indices, batch_dims, ctx.shape(1).back())};
}

// TVM's Slice: strided_slice with the starts, ends, steps and (non-negative) axes; before opset
// 10 the attributes spread over axes 0..max(axes) with INT32_MAX ends.
Outputs Slice(const NodeContext& ctx) {
  const int64_t r = ctx.ndim(0);
  Ints starts, ends, axes, steps;
  if (ctx.opset() < 10) {
    ctx.CheckInputs(1, 1);
    starts = ctx.attr_ints("starts");
    ends = ctx.attr_ints("ends");
    if (ctx.has_attr("axes")) {
      const Ints given = ctx.attr_ints("axes");
      int64_t n = 0;
      for (int64_t a : given) n = std::max(n, NormalizeAxis(ctx, a, r) + 1);
      Ints s(n, 0), e(n, 2147483647);
      for (size_t i = 0; i < given.size() && i < starts.size() && i < ends.size(); ++i) {
        const int64_t a = NormalizeAxis(ctx, given[i], r);
        s[a] = starts[i];
        e[a] = ends[i];
      }
      starts = s;
      ends = e;
    }
    if (ends.size() != starts.size()) ctx.Fail("starts and ends must have the same length");
    return {relay::strided_slice(ctx.input(0), starts, ends)};
  }
  ctx.CheckInputs(3, 5);
  const char* names[] = {"", "starts", "ends", "axes", "steps"};
  for (size_t i = 1; i < 5; ++i) {
    if (ctx.has_input(i) && ctx.AtRunTime(i, names[i])) return DynSlice(ctx);
  }
  starts = ctx.IntsValue(1, "starts");
  ends = ctx.IntsValue(2, "ends");
  if (ctx.has_input(3)) axes = ctx.IntsValue(3, "axes");
  if (ctx.has_input(4)) steps = ctx.IntsValue(4, "steps");
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || steps.size() != starts.size() ||
      (!axes.empty() && axes.size() != starts.size())) {
    ctx.Fail("starts, ends, axes and steps must have the same length");
  }
  for (int64_t s : steps) {
    if (s == 0) ctx.Fail("step 0");
  }
  if (axes.empty()) {
    return {relay::strided_slice(ctx.input(0), starts, ends, steps)};
  }
  for (int64_t& a : axes) a = NormalizeAxis(ctx, a, r);
  return {relay::strided_slice(ctx.input(0), starts, ends, steps, axes)};
}

// TVM's Where: where(condition, x, y).
Outputs Where(const NodeContext& ctx) {
  ctx.CheckInputs(3, 3);
  return {relay::where(ctx.input(0), ctx.input(1), ctx.input(2))};
}

// TVM's CumSum: the axis input known at import; reverse around cumsum for `reverse`.
Outputs CumSum(const NodeContext& ctx) {
  ctx.CheckInputs(2, 2);
  if (ctx.AtRunTime(1, "axis")) return DynCumSum(ctx);
  const int64_t axis = NormalizeAxis(ctx, ctx.IntsValue(1, "axis").at(0), ctx.ndim(0));
  const bool exclusive = ctx.attr_int("exclusive", 0) != 0;
  ir::Expr x = ctx.input(0);
  if (ctx.attr_int("reverse", 0) != 0) {
    x = relay::reverse(x, static_cast<int>(axis));
    x = relay::cumsum(x, axis, "", exclusive);
    return {relay::reverse(x, static_cast<int>(axis))};
  }
  return {relay::cumsum(x, axis, "", exclusive)};
}

// TVM's TopK: topk(data, k, axis, dtype="int64"); smallest (largest=0) as is_ascend (TVM sorts).
Outputs TopK(const NodeContext& ctx) {
  ctx.CheckInputs(1, 2);
  int64_t k = ctx.attr_int("k", 1);
  if (ctx.opset() >= 10 && ctx.AtRunTime(1, "K")) return DynTopK(ctx);
  if (ctx.opset() >= 10) k = ctx.IntsValue(1, "K").at(0);
  const int64_t axis = ctx.attr_int("axis", -1);
  const bool largest = ctx.attr_int("largest", 1) != 0;
  ir::Expr t = relay::topk(ctx.input(0), ctx.Int32(k, "K"), ctx.Int32(axis, "axis"), "both",
                           !largest, "int64");
  return {relay::get_item(t, 0), relay::get_item(t, 1)};
}

// TVM's OneHot: off and on values taken from `values`, negative indices wrapped, depth known at
// import, the dtype of the values.
Outputs OneHot(const NodeContext& ctx) {
  ctx.CheckInputs(3, 3);
  if (ctx.AtRunTime(1, "depth")) return DynOneHot(ctx);
  const Ints depths = ctx.IntsValue(1, "depth");
  if (depths.size() != 1) ctx.Fail("depth must have one element");
  const int depth = ctx.Int32(depths[0], "depth");
  if (depth < 1)
    ctx.Fail("depth must be positive, as ONNX requires; it is " + std::to_string(depth));
  const int nd = ctx.ndim(0);
  int64_t axis = ctx.attr_int("axis", -1);
  if (axis < 0) axis += nd + 1;
  const ir::DataType idt = ctx.dtype(0);
  ir::Expr off = relay::take(ctx.input(2), ScalarConst(0, ir::DataType::Int32()));
  ir::Expr on = relay::take(ctx.input(2), ScalarConst(1, ir::DataType::Int32()));
  ir::Expr indices = ctx.input(0);
  indices =
      relay::where(relay::call("less", {indices, ScalarConst(0, idt)}),
                   relay::add(indices, ScalarConst(static_cast<double>(depth), idt)), indices);
  return {
      relay::one_hot(indices, on, off, depth, ctx.Int32(axis, "axis"), ctx.dtype(2).ToString())};
}

// TVM's Trilu: trilu(data, k, upper) with k 0 when omitted.
Outputs Trilu(const NodeContext& ctx) {
  ctx.CheckInputs(1, 2);
  ir::Expr k = ctx.has_input(1) ? ctx.input(1) : ScalarConst(0, ir::DataType::Int64());
  if (ctx.has_input(1) && ctx.ndim(1) != 0) k = relay::reshape(k, {});
  return {relay::trilu(ctx.input(0), k, ctx.attr_int("upper", 1) != 0)};
}

// TVM's CastLike: cast_like(x, target).
Outputs CastLike(const NodeContext& ctx) {
  ctx.CheckInputs(2, 2);
  return {relay::cast_like(ctx.input(0), ctx.input(1))};
}

// TVM's Shrink: where(x < -lambd, x + bias, 0) + where(x > lambd, x - bias, 0).
Outputs Shrink(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  const ir::DataType dt = ctx.dtype(0);
  ir::Expr x = ctx.input(0);
  const double lambd = ctx.attr_float("lambd", 0.5), bias = ctx.attr_float("bias", 0.0);
  ir::Expr zeros = relay::zeros_like(x);
  ir::Expr lo = relay::where(relay::call("less", {x, relay::negative(ScalarConst(lambd, dt))}),
                             relay::add(x, ScalarConst(bias, dt)), zeros);
  ir::Expr hi = relay::where(relay::call("greater", {x, ScalarConst(lambd, dt)}),
                             relay::subtract(x, ScalarConst(bias, dt)), zeros);
  return {relay::add(lo, hi)};
}

// TVM's Scatter / ScatterElements: scatter_elements(data, indices, updates, axis, reduction)
// ("none" is "update").
Outputs ScatterElements(const NodeContext& ctx) {
  ctx.CheckInputs(3, 3);
  const int64_t axis = NormalizeAxis(ctx, ctx.attr_int("axis", 0), ctx.ndim(0));
  std::string reduction = ctx.attr_string("reduction", "none");
  if (reduction == "none") reduction = "update";
  if (reduction != "update" && reduction != "add" && reduction != "mul") {
    ctx.Unsupported("reduction " + reduction);
  }
  return {relay::scatter_elements(ctx.input(0), ctx.input(1), ctx.input(2), static_cast<int>(axis),
                                  reduction)};
}

// TVM's ScatterND: the index tuples' axis moved first, scatter_nd(data, indices, updates, mode).
Outputs ScatterND(const NodeContext& ctx) {
  ctx.CheckInputs(3, 3);
  const int r = ctx.ndim(1);
  if (r < 1) ctx.Fail("indices must have rank >= 1");
  Ints axes{r - 1};
  for (int i = 0; i + 1 < r; ++i) axes.push_back(i);
  std::string reduction = ctx.attr_string("reduction", "none");
  if (reduction == "none") reduction = "update";
  if (reduction != "update" && reduction != "add" && reduction != "mul") {
    ctx.Unsupported("reduction " + reduction);
  }
  return {relay::scatter_nd(ctx.input(0), relay::transpose(ctx.input(1), axes), ctx.input(2),
                            reduction)};
}

// TVM's ReverseSequence: reverse_sequence(data, sequence_lens, time_axis, batch_axis).
Outputs ReverseSequence(const NodeContext& ctx) {
  ctx.CheckInputs(2, 2);
  return {relay::reverse_sequence(ctx.input(0), ctx.input(1), ctx.attr_int32("time_axis", 0),
                                  ctx.attr_int32("batch_axis", 1))};
}

// Hann, Hamming and Blackman windows of a size known at import, as constants (ONNX's formulas:
// a0 - a1 cos(2 pi n / N) + a2 cos(4 pi n / N), N = size for periodic windows, size - 1 else).
Converter Window(double a0, double a1, double a2) {
  return [a0, a1, a2](const NodeContext& ctx) -> Outputs {
    ctx.CheckInputs(1, 1);
    if (ctx.AtRunTime(0, "size")) {
      std::optional<ir::DataType> dt = DTypeFromOnnx(ctx.attr_int32("output_datatype", 1));
      if (!dt) ctx.Unsupported("output_datatype");
      return DynWindow(ctx, a0, a1, a2, ctx.attr_int("periodic", 1) != 0, dt->ToString());
    }
    const Ints sizes = ctx.IntsValue(0, "size");
    if (sizes.size() != 1) ctx.Fail("size must have one element");
    const int64_t size = sizes[0];
    if (size < 0) ctx.Fail("negative size");
    const bool periodic = ctx.attr_int("periodic", 1) != 0;
    std::optional<ir::DataType> dt = DTypeFromOnnx(ctx.attr_int32("output_datatype", 1));
    if (!dt) ctx.Unsupported("output_datatype");
    const double n = static_cast<double>(periodic ? size : size - 1);
    ir::NDArray a = ir::NDArray::Empty({size}, ir::DataType::Float32());
    for (int64_t i = 0; i < size; ++i) {
      const double t = n > 0 ? 2 * M_PI * static_cast<double>(i) / n : 0.0;
      a.mutable_data<float>()[i] = static_cast<float>(a0 - a1 * std::cos(t) + a2 * std::cos(2 * t));
    }
    return {relay::cast(ir::MakeConstant(a), dt->ToString())};
  };
}

// TVM's Compress: take at the positions where the condition is true (argwhere); the condition
// must be known at import (a graph input is bound), the data may be computed.
Outputs Compress(const NodeContext& ctx) {
  ctx.CheckInputs(2, 2);
  if (ctx.AtRunTime(1, "condition")) return DynCompress(ctx);
  const Ints cond = ctx.IntsValue(1, "condition");
  ir::NDArray positions = ir::NDArray::Empty({0}, ir::DataType::Int32());
  std::vector<int32_t> picked;
  for (size_t i = 0; i < cond.size(); ++i) {
    if (cond[i] != 0) picked.push_back(static_cast<int32_t>(i));
  }
  positions = ir::NDArray::Empty({static_cast<int64_t>(picked.size())}, ir::DataType::Int32());
  std::copy(picked.begin(), picked.end(), positions.mutable_data<int32_t>());
  if (!ctx.has_attr("axis")) {
    return {
        relay::take(relay::reshape(ctx.input(0), relay::Ints{-1}), ir::MakeConstant(positions), 0)};
  }
  const int64_t axis = NormalizeAxis(ctx, ctx.attr_int("axis", 0), ctx.ndim(0));
  return {relay::take(ctx.input(0), ir::MakeConstant(positions), axis)};
}

// NonZero: the output shape depends on the values, so the input must be known at import (a
// graph input is bound); the indices as an int64 constant [rank, count] (TVM: argwhere).
Outputs NonZero(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  if (ctx.AtRunTime(0, "input (NonZero's output shape depends on it)")) return DynNonZero(ctx);
  const ir::NDArray& x = ctx.RequireValue(0, "input (NonZero's output shape depends on it)");
  const ir::Shape& s = x.shape();
  std::vector<Ints> hits;
  Ints idx(s.size(), 0);
  for (int64_t e = 0; e < x.size(); ++e) {
    if (x.GetAsDouble(e) != 0) hits.push_back(idx);
    for (size_t d = s.size(); d-- > 0;) {
      if (++idx[d] < s[d]) break;
      idx[d] = 0;
    }
  }
  const int64_t rank = static_cast<int64_t>(s.size()), n = static_cast<int64_t>(hits.size());
  ir::NDArray out = ir::NDArray::Empty({rank, n}, ir::DataType::Int64());
  for (int64_t k = 0; k < n; ++k) {
    for (int64_t d = 0; d < rank; ++d) out.mutable_data<int64_t>()[d * n + k] = hits[k][d];
  }
  return {ir::MakeConstant(out)};
}

// Det of [..., N, N] matrices with N <= 3, by cofactor expansion over slices (TVM has no det).
Outputs Det(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  const int r = ctx.ndim(0);
  if (r >= 2 && (ctx.shape(0)[r - 1] < 0 || ctx.shape(0)[r - 2] < 0)) {
    ctx.Unsupported("Det of matrices of `?` size");
  }
  if (r < 2 || ctx.shape(0)[r - 1] != ctx.shape(0)[r - 2]) ctx.Fail("input must be [..., N, N]");
  const int64_t n = ctx.shape(0)[r - 1];
  if (n > 3) ctx.Unsupported("Det of matrices larger than 3 x 3");
  const Ints axes{r - 2, r - 1};
  auto e = [&](int64_t i, int64_t j) {
    return relay::squeeze(
        relay::strided_slice(ctx.input(0), {i, j}, {i + 1, j + 1}, Ints{1, 1}, axes), axes);
  };
  auto mul = [](ir::Expr a, ir::Expr b) { return relay::multiply(a, b); };
  auto det2 = [&](int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
    return relay::subtract(mul(e(r0, c0), e(r1, c1)), mul(e(r0, c1), e(r1, c0)));
  };
  if (n == 1) return {e(0, 0)};
  if (n == 2) return {det2(0, 1, 0, 1)};
  ir::Expr d = relay::subtract(mul(e(0, 0), det2(1, 2, 1, 2)), mul(e(0, 1), det2(1, 2, 0, 2)));
  return {relay::add(d, mul(e(0, 2), det2(1, 2, 0, 1)))};
}

// EyeLike on a static 2-D shape: the constant itself (TVM scatters ones into zeros).
Outputs EyeLike(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  if (ctx.ndim(0) != 2) ctx.Fail("input must be 2-D");
  ctx.StaticShape(0, "EyeLike's constant needs at import");
  ir::DataType dt = ctx.dtype(0);
  if (ctx.has_attr("dtype")) {
    std::optional<ir::DataType> d = DTypeFromOnnx(ctx.attr_int32("dtype", 1));
    if (!d) ctx.Unsupported("dtype " + OnnxTypeName(ctx.attr_int32("dtype", 1)));
    dt = *d;
  }
  const int64_t rows = ctx.shape(0)[0], cols = ctx.shape(0)[1], k = ctx.attr_int("k", 0);
  ir::NDArray a = ir::NDArray::Empty({rows, cols}, ir::DataType::Float(64));
  for (int64_t i = 0; i < rows; ++i) {
    if (i + k >= 0 && i + k < cols) a.mutable_data<double>()[i * cols + i + k] = 1;
  }
  return {relay::cast(ir::MakeConstant(a), dt.ToString())};
}

Outputs Range(const NodeContext& ctx) {
  ctx.CheckInputs(3, 3);
  if (ctx.AtRunTime(0, "start") || ctx.AtRunTime(1, "limit") || ctx.AtRunTime(2, "delta")) {
    return DynRange(ctx);
  }
  const double start = ctx.ScalarValue(0, "start"), limit = ctx.ScalarValue(1, "limit");
  const double delta = ctx.ScalarValue(2, "delta");
  if (delta == 0) ctx.Fail("delta 0");
  const double count = std::ceil((limit - start) / delta);
  if (!(count < static_cast<double>(kMaxImportElements))) {  // NaN, inf, or too many
    ctx.Fail("Range(" + std::to_string(start) + ", " + std::to_string(limit) + ", " +
             std::to_string(delta) + ") has no element count below " +
             std::to_string(kMaxImportElements));
  }
  const int64_t n = count > 0 ? static_cast<int64_t>(count) : 0;
  ir::NDArray out = ir::NDArray::Empty({n}, ir::DataType::Float(64));
  for (int64_t i = 0; i < n; ++i) out.mutable_data<double>()[i] = start + i * delta;
  return {relay::cast(ir::MakeConstant(out), ctx.dtype(0).ToString())};
}

}  // namespace

void RegisterTensorOps(ConverterTable& t) {
  t.Add("Constant", 1, Constant);
  t.Add("Cast", 1, Cast);
  t.Add("ConstantOfShape", 9, ConstantOfShape);
  t.Add("Pad", 1, Pad);
  t.Add("Expand", 8, Expand);
  t.Add("Tile", 6, Tile);
  t.Add("Gather", 1, Gather);
  t.Add("GatherElements", 11, GatherElements);
  t.Add("GatherND", 11, GatherND);
  t.Add("Slice", 1, Slice);
  t.Add("Where", 9, Where);
  t.Add("CumSum", 11, CumSum);
  t.Add("TopK", 1, TopK);
  t.Add("OneHot", 9, OneHot);
  t.Add("Trilu", 14, Trilu);
  t.Add("CastLike", 15, CastLike);
  t.Add("Shrink", 9, Shrink);
  t.Add("EyeLike", 9, EyeLike);
  t.Add("Compress", 9, Compress);
  t.Add("NonZero", 9, NonZero);
  t.Add("Det", 11, Det);
  t.Add("Scatter", 9, ScatterElements);
  t.Add("ScatterElements", 11, ScatterElements);
  t.Add("ScatterND", 11, ScatterND);
  t.Add("ReverseSequence", 10, ReverseSequence);
  t.Add("HannWindow", 17, Window(0.5, 0.5, 0.0));
  t.Add("HammingWindow", 17, Window(25.0 / 46.0, 21.0 / 46.0, 0.0));
  t.Add("BlackmanWindow", 17, Window(0.42, 0.5, 0.08));
  t.Add("Range", 11, Range);
}

}  // namespace relaypass::frontend::onnx_import
