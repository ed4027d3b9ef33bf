// MaxPool, AveragePool, GlobalAveragePool and GlobalMaxPool as TVM's Pool converters (2-D and
// 3-D, 1-D as 2-D over a height of 1:
// nn.max_pool2d / nn.avg_pool2d with pool_size, strides, padding, dilation, ceil_mode and
// count_include_pad). SAME auto_pad becomes the explicit padding it implies. MaxPool's Indices
// output (2-D) is built from other ops (maxpool_indices.h).
#include "context.h"
#include "dynamic.h"
#include "maxpool_indices.h"
#include "relaypass/relay.h"
#include "spatial.h"

namespace relaypass::frontend::onnx_import {

namespace {

namespace relay = relaypass::relay;

// The pool of `data` (shaped as the node's input 0) with the node's attributes.
Outputs PoolOf(const NodeContext& ctx, ir::Expr data, bool max) {
  const int n = ctx.ndim(0) - 2;
  if (n != 2 && n != 1 && n != 3) ctx.Unsupported(std::to_string(n) + "-D pooling (1-D to 3-D)");
  const bool indices = max && ctx.num_outputs() > 1 && !ctx.node().output(1).empty();
  if (indices && n != 2) ctx.Unsupported("MaxPool's Indices output of a 1-D or 3-D pool");
  const int64_t storage_order = max ? ctx.attr_int("storage_order", 0) : 0;
  if (storage_order != 0 && storage_order != 1) {
    ctx.Fail("storage_order must be 0 or 1, not " + std::to_string(storage_order));
  }
  relay::nn::Pool2DArgs args;
  args.pool_size = ctx.attr_positive_ints_n("kernel_shape", n, {});
  args.strides = ctx.attr_positive_ints_n("strides", n, Ints(n, 1));
  args.dilation = ctx.attr_positive_ints_n("dilations", n, Ints(n, 1));
  const Ints spatial(ctx.shape(0).begin() + 2, ctx.shape(0).end());
  args.padding = ResolvePads(ctx, spatial, args.pool_size, args.strides, args.dilation);
  if (n == 3) {  // nn.max_pool3d / nn.avg_pool3d
    relay::nn::Pool3DArgs a3;
    a3.pool_size = args.pool_size;
    a3.strides = args.strides;
    a3.dilation = args.dilation;
    a3.padding = args.padding;
    a3.ceil_mode = ctx.attr_int("ceil_mode", 0) != 0;
    a3.count_include_pad = ctx.attr_int("count_include_pad", 0) != 0;
    return {max ? relay::nn::max_pool3d(data, a3) : relay::nn::avg_pool3d(data, a3)};
  }
  if (n == 1) {  // 1-D as 2-D over (1, W)
    data = relay::expand_dims(data, 2);
    args.pool_size.insert(args.pool_size.begin(), 1);
    args.strides.insert(args.strides.begin(), 1);
    args.dilation.insert(args.dilation.begin(), 1);
    args.padding = {0, args.padding[0], 0, args.padding[1]};
  }
  args.ceil_mode = ctx.attr_int("ceil_mode", 0) != 0;
  args.count_include_pad = ctx.attr_int("count_include_pad", 0) != 0;
  ir::Expr out = max ? relay::nn::max_pool2d(data, args) : relay::nn::avg_pool2d(data, args);
  if (n == 1) out = relay::squeeze(out, relay::Ints{2});
  if (indices) return {out, MaxPoolIndices(ctx, data, ctx.shape(0), args, storage_order == 1)};
  return {out};
}

Converter Pool(bool max) {
  return [max](const NodeContext& ctx) -> Outputs {
    ctx.CheckInputs(1, 1);
    return PoolOf(ctx, ctx.input(0), max);
  };
}

ir::Expr GlobalPoolOf(const NodeContext& ctx, const ir::Expr& data, bool max) {
  if (ctx.ndim(0) != 4) {
    ctx.Unsupported(std::to_string(ctx.ndim(0) - 2) + "-D global pooling (only 2-D)");
  }
  return max ? relay::nn::global_max_pool2d(data) : relay::nn::global_avg_pool2d(data);
}

Converter GlobalPool(bool max) {
  return [max](const NodeContext& ctx) -> Outputs {
    ctx.CheckInputs(1, 1);
    return {max ? GlobalPoolOf(ctx, ctx.input(0), true) : GlobalAveragePoolOf(ctx, ctx.input(0))};
  };
}

// TVM's MaxUnpool: the values scattered (scatter_elements on the flattened tensors) into zeros
// of the default shape (in - 1) * stride + kernel - pads, padded to output_shape when given.
Outputs MaxUnpool(const NodeContext& ctx) {
  ctx.CheckInputs(2, 3);
  const ir::Shape& in = ctx.StaticShape(0, "MaxUnpool's output shape needs at import");
  const int n = ctx.ndim(0) - 2;
  const Ints kernel = ctx.attr_positive_ints_n("kernel_shape", n, {});
  const Ints strides = ctx.attr_positive_ints_n("strides", n, Ints(n, 1));
  const Ints pads = ctx.attr_ints_n("pads", 2 * n, Ints(2 * n, 0));
  if (static_cast<int>(kernel.size()) != n) ctx.Fail("kernel_shape needs a value per axis");
  Ints shape{in[0], in[1]};
  for (int i = 0; i < n; ++i) {
    shape.push_back((in[2 + i] - 1) * strides[i] + kernel[i] - pads[i] - pads[n + i]);
  }
  ir::Expr zeros = relay::zeros(shape, ctx.dtype(0).ToString());
  ir::Expr flat = relay::scatter_elements(relay::reshape(zeros, relay::Ints{-1}),
                                          relay::reshape(ctx.input(1), relay::Ints{-1}),
                                          relay::reshape(ctx.input(0), relay::Ints{-1}), 0);
  ir::Expr out = relay::reshape(flat, shape);
  if (!ctx.has_input(2)) return {out};
  // The indices address the default shape; a larger output_shape pads it at the end (ONNX's
  // reference; TVM scatters into the larger shape directly).
  if (ctx.AtRunTime(2, "output_shape")) {
    // Known at run time: dyn.nn.pad by ((0, wanted - default), ...).
    const int64_t r = static_cast<int64_t>(shape.size());
    ir::Expr extra = relay::subtract(AsInt64(ctx, 2), Int64Vector(shape));
    ir::Expr width = relay::transpose(
        relay::reshape(relay::concatenate({Int64Vector(Ints(r, 0)), extra}, 0), relay::Ints{2, r}),
        relay::Ints{1, 0});
    return {relay::call("dyn.nn.pad", {out, width, ScalarConst(0, ctx.dtype(0))},
                        {{"pad_mode", ir::AttrValue::Str("constant")}})};
  }
  const Ints wanted = ctx.IntsValue(2, "output_shape");
  if (wanted.size() != shape.size()) ctx.Fail("output_shape needs a value per axis");
  std::vector<Ints> width;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (wanted[i] < shape[i]) ctx.Unsupported("an output_shape smaller than the default");
    width.push_back({0, wanted[i] - shape[i]});
  }
  return {relay::nn::pad(out, width, ScalarConst(0, ctx.dtype(0)))};
}

}  // namespace

ir::Expr AveragePoolOf(const NodeContext& ctx, const ir::Expr& data) {
  return PoolOf(ctx, data, false)[0];
}

ir::Expr GlobalAveragePoolOf(const NodeContext& ctx, const ir::Expr& data) {
  return GlobalPoolOf(ctx, data, false);
}

void RegisterPooling(ConverterTable& t) {
  t.Add("MaxUnpool", 9, MaxUnpool);
  t.Add("MaxPool", 1, Pool(true));
  t.Add("AveragePool", 1, Pool(false));
  t.Add("GlobalMaxPool", 1, GlobalPool(true));
  t.Add("GlobalAveragePool", 1, GlobalPool(false));
}

}  // namespace relaypass::frontend::onnx_import
