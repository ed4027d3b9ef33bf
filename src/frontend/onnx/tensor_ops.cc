// Tensors: Constant, Cast, ConstantOfShape, Pad, Expand, Tile, and Gather / Slice / Range on
// values known at import (shape arithmetic; at run time they need take / strided_slice /
// arange, which relaypass does not have yet).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "../../op/op_common.h"
#include "context.h"
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
  std::optional<ir::DataType> to = DTypeFromOnnx(static_cast<int>(ctx.attr_int("to", 0)));
  if (!to) ctx.Unsupported("Cast to " + OnnxTypeName(static_cast<int>(ctx.attr_int("to", 0))));
  return {relay::cast(ctx.input(0), to->ToString())};
}

Outputs ConstantOfShape(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  Ints shape = ctx.IntsValue(0, "shape");
  ir::NDArray fill = ir::NDArray::Scalar<float>(0.0f, ir::DataType::Float32());
  if (const onnx::AttributeProto* a = ctx.attr("value")) {
    fill = TensorFromProto(a->t(), ".", "ConstantOfShape's value");
    if (fill.size() != 1) ctx.Fail("value must have one element");
  }
  for (int64_t d : shape) {
    if (d < 0) ctx.Fail("negative dimension in shape");
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
    pads = ctx.IntsValue(1, "pads");
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

// Expand: numpy broadcasting against `shape`; relaypass has no broadcast_to, so the input is
// added to zeros of the broadcast shape (multiplied by ones for bool).
Outputs Expand(const NodeContext& ctx) {
  ctx.CheckInputs(2, 2);
  Ints shape = ctx.IntsValue(1, "shape");
  const ir::Shape& in = ctx.shape(0);
  const size_t r = std::max(shape.size(), in.size());
  Ints out(r, 1);
  for (size_t i = 0; i < r; ++i) {
    int64_t a = i + in.size() >= r ? in[i + in.size() - r] : 1;
    int64_t b = i + shape.size() >= r ? shape[i + shape.size() - r] : 1;
    if (a != b && a != 1 && b != 1) ctx.Fail("shape is not broadcastable with the input");
    out[i] = a == 1 ? b : a;
  }
  if (out == Ints(in.begin(), in.end())) return {ctx.input(0)};
  if (ctx.dtype(0).is_bool()) ctx.Unsupported("Expand of a bool tensor (needs broadcast_to)");
  return {relay::add(ctx.input(0), ir::MakeConstant(ir::NDArray::Empty(out, ctx.dtype(0))))};
}

// Tile: the input concatenated `repeats[i]` times along each axis (TVM emits tile).
Outputs Tile(const NodeContext& ctx) {
  ctx.CheckInputs(2, 2);
  Ints repeats = ctx.IntsValue(1, "repeats");
  if (static_cast<int>(repeats.size()) != ctx.ndim(0)) ctx.Fail("repeats needs one value per axis");
  ir::Expr x = ctx.input(0);
  for (int i = 0; i < ctx.ndim(0); ++i) {
    if (repeats[i] < 1) ctx.Unsupported("repeats below 1");
    if (repeats[i] == 1) continue;
    x = relay::concatenate(std::vector<ir::Expr>(repeats[i], x), i);
  }
  return {x};
}

Outputs Gather(const NodeContext& ctx) {
  ctx.CheckInputs(2, 2);
  const ir::NDArray& data = ctx.RequireValue(0, "data (Gather at run time needs take)", false);
  Ints indices = ctx.IntsValue(1, "indices (Gather at run time needs take)", false);
  const ir::Shape& ishape = ctx.shape(1);
  const int64_t axis = NormalizeAxis(ctx, ctx.attr_int("axis", 0), data.ndim());
  const ir::Shape& ds = data.shape();
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < axis; ++i) outer *= ds[i];
  for (int64_t i = axis + 1; i < data.ndim(); ++i) inner *= ds[i];
  ir::Shape out_shape(ds.begin(), ds.begin() + axis);
  out_shape.insert(out_shape.end(), ishape.begin(), ishape.end());
  out_shape.insert(out_shape.end(), ds.begin() + axis + 1, ds.end());
  ir::NDArray out = ir::NDArray::Empty(out_shape, data.dtype());
  const size_t eb = data.dtype().bytes();
  const auto* src = static_cast<const uint8_t*>(data.raw_data());
  auto* dst = static_cast<uint8_t*>(out.mutable_raw_data());
  const int64_t n = static_cast<int64_t>(indices.size());
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t j = 0; j < n; ++j) {
      int64_t k = indices[j] < 0 ? indices[j] + ds[axis] : indices[j];
      if (k < 0 || k >= ds[axis]) ctx.Fail("index " + std::to_string(indices[j]) + " out of range");
      std::memcpy(dst + ((o * n + j) * inner) * eb, src + ((o * ds[axis] + k) * inner) * eb,
                  inner * eb);
    }
  }
  return {ir::MakeConstant(out)};
}

Outputs Slice(const NodeContext& ctx) {
  const ir::NDArray& data =
      ctx.RequireValue(0, "data (Slice at run time needs strided_slice)", false);
  const int64_t r = data.ndim();
  Ints starts, ends, axes, steps;
  if (ctx.opset() < 10) {
    ctx.CheckInputs(1, 1);
    starts = ctx.attr_ints("starts");
    ends = ctx.attr_ints("ends");
    axes = ctx.attr_ints("axes");
  } else {
    ctx.CheckInputs(3, 5);
    starts = ctx.IntsValue(1, "starts");
    ends = ctx.IntsValue(2, "ends");
    if (ctx.has_input(3)) axes = ctx.IntsValue(3, "axes");
    if (ctx.has_input(4)) steps = ctx.IntsValue(4, "steps");
  }
  if (axes.empty()) {
    for (size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
  }
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
    ctx.Fail("starts, ends, axes and steps must have the same length");
  Ints begin(r, 0), step(r, 1), count(r);
  for (int64_t i = 0; i < r; ++i) count[i] = data.shape()[i];
  for (size_t i = 0; i < starts.size(); ++i) {
    const int64_t a = NormalizeAxis(ctx, axes[i], r);
    const int64_t dim = data.shape()[a], s = steps[i];
    if (s == 0) ctx.Fail("step 0");
    int64_t b = starts[i] < 0 ? starts[i] + dim : starts[i];
    int64_t e = ends[i] < 0 ? ends[i] + dim : ends[i];
    if (s > 0) {
      b = std::clamp<int64_t>(b, 0, dim);
      e = std::clamp<int64_t>(e, 0, dim);
      count[a] = e > b ? (e - b + s - 1) / s : 0;
    } else {
      b = std::clamp<int64_t>(b, -1, dim - 1);
      e = std::clamp<int64_t>(e, -1, dim - 1);
      count[a] = b > e ? (b - e - s - 1) / -s : 0;
    }
    begin[a] = b;
    step[a] = s;
  }
  ir::NDArray out = ir::NDArray::Empty(count, data.dtype());
  const size_t eb = data.dtype().bytes();
  ir::Shape strides(r, 1);
  for (int64_t i = r - 2; i >= 0; --i) strides[i] = strides[i + 1] * data.shape()[i + 1];
  const auto* src = static_cast<const uint8_t*>(data.raw_data());
  auto* dst = static_cast<uint8_t*>(out.mutable_raw_data());
  Ints idx(r, 0);
  for (int64_t n = 0; n < out.size(); ++n) {
    int64_t off = 0;
    for (int64_t i = 0; i < r; ++i) off += (begin[i] + idx[i] * step[i]) * strides[i];
    std::memcpy(dst + n * eb, src + off * eb, eb);
    for (int64_t i = r - 1; i >= 0; --i) {
      if (++idx[i] < count[i]) break;
      idx[i] = 0;
    }
  }
  return {ir::MakeConstant(out)};
}

Outputs Range(const NodeContext& ctx) {
  ctx.CheckInputs(3, 3);
  const double start = ctx.ScalarValue(0, "start"), limit = ctx.ScalarValue(1, "limit");
  const double delta = ctx.ScalarValue(2, "delta");
  if (delta == 0) ctx.Fail("delta 0");
  const int64_t n = std::max<int64_t>(0, static_cast<int64_t>(std::ceil((limit - start) / delta)));
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
  t.Add("Slice", 1, Slice);
  t.Add("Range", 11, Range);
}

}  // namespace relaypass::frontend::onnx_import
