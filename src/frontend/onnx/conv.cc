// Conv as TVM's Conv converter: nn.conv2d with channels and kernel_size from the weight, the
// ONNX pads as padding (SAME auto_pad as an explicit nn.pad first, as TVM's autopad folds to),
// and nn.bias_add for the third input. 2-D convolutions, and 1-D ones as 2-D over a height of 1
// (relaypass has no conv1d); no 3-D.
#include "../../op/op_common.h"
#include "context.h"
#include "relaypass/relay.h"
#include "spatial.h"

namespace relaypass::frontend::onnx_import {

namespace {

namespace relay = relaypass::relay;

Outputs Conv(const NodeContext& ctx) {
  ctx.CheckInputs(2, 3);
  const int ndim = ctx.ndim(0);
  if ((ndim != 4 && ndim != 3) || ctx.ndim(1) != ndim) {
    ctx.Unsupported(std::to_string(ndim - 2) + "-D convolution (2-D, and 1-D through it)");
  }
  const int n = ndim - 2;
  const ir::Shape& w = ctx.shape(1);
  Ints kernel = ctx.attr_ints("kernel_shape", Ints(w.begin() + 2, w.end()));
  Ints strides = ctx.attr_ints("strides", Ints(n, 1));
  Ints dilations = ctx.attr_ints("dilations", Ints(n, 1));
  const Ints spatial(ctx.shape(0).begin() + 2, ctx.shape(0).end());
  Ints pads = ResolvePads(ctx, spatial, kernel, strides, dilations);
  ir::Expr data = ctx.input(0);
  ir::Expr weight = ctx.input(1);
  if (n == 1) {  // 1-D as 2-D over (1, W): relaypass has no nn.conv1d
    data = relay::expand_dims(data, 2);
    weight = relay::expand_dims(weight, 2);
    kernel.insert(kernel.begin(), 1);
    strides.insert(strides.begin(), 1);
    dilations.insert(dilations.begin(), 1);
    pads = {0, pads[0], 0, pads[1]};
  }
  if (IsSamePad(ctx)) {
    data = relay::nn::pad(data, {{0, 0}, {0, 0}, {pads[0], pads[2]}, {pads[1], pads[3]}},
                          ScalarConst(0.0, ctx.dtype(0)));
    pads = Ints(4, 0);
  }
  relay::nn::Conv2DArgs args;
  args.strides = strides;
  args.padding = pads;
  args.dilation = dilations;
  args.groups = static_cast<int>(ctx.attr_int("group", 1));
  args.channels = w[0];
  args.kernel_size = kernel;
  ir::Expr out = relay::nn::conv2d(data, weight, args);
  if (ctx.has_input(2)) out = relay::nn::bias_add(out, ctx.input(2));
  if (n == 1) out = relay::squeeze(out, relay::Ints{2});
  return {out};
}

}  // namespace

void RegisterConv(ConverterTable& t) {
  t.Add("Conv", 1, Conv);
}

}  // namespace relaypass::frontend::onnx_import
