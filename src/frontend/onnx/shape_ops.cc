// Shape manipulation: Reshape, Flatten, Transpose, Squeeze, Unsqueeze, Concat, Split, Identity,
// and Shape / Size, which fold to int64 constants when the extents are static and are
// shape_of / ndarray_size (run time) when one is `?`. A shape or axes input not known at import
// makes TVM's dyn ops (dyn.reshape, dyn.squeeze, dyn.expand_dims).
#include <numeric>

#include "context.h"
#include "dynamic.h"
#include "relaypass/relay.h"

namespace relaypass::frontend::onnx_import {

namespace {

namespace relay = relaypass::relay;
using ir::AttrValue;

ir::Expr Reshape(const NodeContext& ctx, const Ints& shape, bool allowzero) {
  if (!allowzero) return relay::reshape(ctx.input(0), shape);
  return relay::call("reshape", {ctx.input(0)},
                     {{"newshape", AttrValue::Ints(shape)}, {"allowzero", AttrValue::Bool(true)}});
}

Outputs ReshapeV1(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  return {Reshape(ctx, ctx.attr_ints("shape"), false)};
}
Outputs ReshapeV5(const NodeContext& ctx) {
  ctx.CheckInputs(2, 2);
  const bool allowzero = ctx.attr_int("allowzero", 0) != 0;
  if (ctx.AtRunTime(1, "shape")) return DynReshape(ctx, allowzero);
  return {Reshape(ctx, ctx.IntsValue(1, "shape"), allowzero)};
}

Outputs Flatten(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  const ir::Shape& shape = ctx.shape(0);
  int64_t axis = ctx.attr_int("axis", 1);  // in [-r, r]
  if (axis < 0) axis += ctx.ndim(0);
  if (axis < 0 || axis > ctx.ndim(0)) ctx.Fail("axis out of range");
  if (axis == 1 && ctx.ndim(0) >= 2) return {relay::nn::batch_flatten(ctx.input(0))};
  int64_t pre = 1, post = 1;
  bool pre_any = false, post_any = false;
  for (int64_t i = 0; i < ctx.ndim(0); ++i) {
    (i < axis ? pre_any : post_any) |= shape[i] < 0;
    (i < axis ? pre : post) *= shape[i];
  }
  if (pre_any && post_any) ctx.Unsupported("Flatten with `?` extents on both sides of axis");
  if (pre_any) return {relay::reshape(ctx.input(0), Ints{-1, post})};
  if (post_any) return {relay::reshape(ctx.input(0), Ints{pre, -1})};
  return {relay::reshape(ctx.input(0), Ints{pre, post})};
}

Outputs Transpose(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  if (!ctx.has_attr("perm")) return {relay::transpose(ctx.input(0))};
  return {relay::transpose(ctx.input(0), ctx.attr_ints("perm"))};
}

Outputs Squeeze(const NodeContext& ctx) {
  ctx.CheckInputs(1, 2);
  std::optional<Ints> axes;
  if (ctx.opset() < 13 && ctx.has_attr("axes")) axes = ctx.attr_ints("axes");
  if (ctx.opset() >= 13 && ctx.has_input(1)) {
    if (ctx.AtRunTime(1, "axes")) return DynSqueeze(ctx);
    axes = ctx.IntsValue(1, "axes");
  }
  if (axes) {
    for (int64_t& a : *axes) a = NormalizeAxis(ctx, a, ctx.ndim(0));
  }
  return {relay::squeeze(ctx.input(0), axes)};
}

// TVM's Unsqueeze: one expand_dims per axis, in ascending order of the output axes.
Outputs Unsqueeze(const NodeContext& ctx) {
  ctx.CheckInputs(1, 2);
  if (ctx.opset() >= 13 && ctx.has_input(1) && ctx.AtRunTime(1, "axes")) return DynUnsqueeze(ctx);
  Ints axes = ctx.opset() >= 13 ? ctx.IntsValue(1, "axes") : ctx.attr_ints("axes");
  const int64_t out_rank = ctx.ndim(0) + static_cast<int64_t>(axes.size());
  for (int64_t& a : axes) a = NormalizeAxis(ctx, a, out_rank);
  std::sort(axes.begin(), axes.end());
  ir::Expr x = ctx.input(0);
  for (int64_t a : axes) x = relay::expand_dims(x, static_cast<int>(a));
  return {x};
}

Outputs Concat(const NodeContext& ctx) {
  std::vector<ir::Expr> fields;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) fields.push_back(ctx.input(i));
  if (fields.empty()) ctx.Fail("Concat needs at least one input");
  const int axis = static_cast<int>(NormalizeAxis(ctx, ctx.attr_int("axis", 1), ctx.ndim(0)));
  return {relay::concatenate(fields, axis)};
}

Outputs Split(const NodeContext& ctx) {
  ctx.CheckInputs(1, 2);
  const int axis = static_cast<int>(NormalizeAxis(ctx, ctx.attr_int("axis", 0), ctx.ndim(0)));
  Ints split = ctx.attr_ints("split");
  if (ctx.has_input(1) && ctx.AtRunTime(1, "split")) return DynSplit(ctx, axis);
  if (ctx.has_input(1)) split = ctx.IntsValue(1, "split");
  const int n = static_cast<int>(ctx.num_outputs());
  ir::Expr call;
  if (split.empty()) {
    call = relay::split(ctx.input(0), n, axis);
  } else {
    if (static_cast<int>(split.size()) != n) ctx.Fail("split has a size per output");
    if (std::find(split.begin(), split.end(), 0) != split.end()) {
      // Empty pieces, which Relay's split (and so TVM's converter) rejects: one strided_slice
      // per piece.
      Outputs out;
      int64_t at = 0;
      for (int64_t size : split) {
        out.push_back(relay::strided_slice(ctx.input(0), {at}, {at + size}, relay::Ints{1},
                                           relay::Ints{axis}));
        at += size;
      }
      return out;
    }
    Ints indices;
    int64_t at = 0;
    for (size_t i = 0; i + 1 < split.size(); ++i) indices.push_back(at += split[i]);
    call = relay::split(ctx.input(0), indices, axis);
  }
  Outputs out;
  for (int k = 0; k < n; ++k) out.push_back(relay::get_item(call, k));
  return out;
}

Outputs Identity(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  return {ctx.input(0)};
}

Outputs Shape(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  const ir::Shape& shape = ctx.shape(0);
  const int64_t r = ctx.ndim(0);
  int64_t start = ctx.attr_int("start", 0), end = ctx.attr_int("end", r);
  if (start < 0) start += r;
  if (end < 0) end += r;
  start = std::clamp<int64_t>(start, 0, r);
  end = std::clamp<int64_t>(end, 0, r);
  Ints dims;
  bool dynamic = false;
  for (int64_t i = start; i < end; ++i) {
    dims.push_back(shape[i]);
    dynamic |= shape[i] < 0;
  }
  if (!dynamic) return {Int64Vector(dims)};
  // A `?` extent: the shape at run time (TVM's shape_of), sliced to [start, end).
  ir::Expr of = relay::shape_of(ctx.input(0), "int64");
  if (start == 0 && end == r) return {of};
  return {relay::strided_slice(of, {start}, {std::max(start, end)})};
}

Outputs Size(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  const ir::Shape& shape = ctx.shape(0);
  if (std::any_of(shape.begin(), shape.end(), [](int64_t d) { return d < 0; })) {
    return {relay::ndarray_size(ctx.input(0), "int64")};  // `?` extents: counted at run time
  }
  const int64_t n = std::accumulate(shape.begin(), shape.end(), int64_t{1}, std::multiplies<>());
  return {ScalarConst(static_cast<double>(n), ir::DataType::Int64())};
}

// TVM's DepthToSpace / SpaceToDepth: nn.depth_to_space (DCR or CRD) and nn.space_to_depth.
Outputs DepthToSpace(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  if (ctx.ndim(0) != 4) ctx.Fail("takes a 4-D input");
  ctx.StaticShape(0, "the blocksize check needs at import");
  const int64_t b = ctx.attr_int("blocksize", 0);
  if (b < 1 || b > ctx.shape(0)[1] || ctx.shape(0)[1] % (b * b))
    ctx.Fail("blocksize must divide the channels twice");
  return {relay::nn::depth_to_space(ctx.input(0), static_cast<int>(b), "NCHW",
                                    ctx.attr_string("mode", "DCR"))};
}
Outputs SpaceToDepth(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  if (ctx.ndim(0) != 4) ctx.Fail("takes a 4-D input");
  const ir::Shape& s = ctx.StaticShape(0, "the blocksize check needs at import");
  const int64_t b = ctx.attr_int("blocksize", 0);
  if (b < 1 || b > s[2] || b > s[3] || s[2] % b || s[3] % b)
    ctx.Fail("blocksize must divide height and width");
  return {relay::nn::space_to_depth(ctx.input(0), static_cast<int>(b))};
}

}  // namespace

void RegisterShapeOps(ConverterTable& t) {
  t.Add("Reshape", 1, ReshapeV1);
  t.Add("Reshape", 5, ReshapeV5);
  t.Add("Flatten", 1, Flatten);
  t.Add("Transpose", 1, Transpose);
  t.Add("Squeeze", 1, Squeeze);
  t.Add("Unsqueeze", 1, Unsqueeze);
  t.Add("Concat", 1, Concat);
  t.Add("Split", 1, Split);
  t.Add("Identity", 1, Identity);
  t.Add("Shape", 1, Shape);
  t.Add("Size", 1, Size);
  t.Add("DepthToSpace", 1, DepthToSpace);
  t.Add("SpaceToDepth", 1, SpaceToDepth);
}

}  // namespace relaypass::frontend::onnx_import
