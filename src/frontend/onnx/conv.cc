// Conv as TVM's Conv converter: nn.conv2d with channels and kernel_size from the weight, the
// ONNX pads as padding (SAME auto_pad as an explicit nn.pad first, as TVM's autopad folds to),
// and nn.bias_add for the third input. 2-D and 3-D convolutions, and 1-D ones as 2-D over a
// height of 1 (relaypass has no conv1d). ConvTranspose as TVM's: nn.conv{1,2,3}d_transpose.
// ConvInteger and QLinearConv as TVM's: qnn.conv2d (and qnn.requantize), docs/quantization.md.
#include "context.h"
#include "qnn_params.h"
#include "relaypass/ir/op_registry.h"
#include "relaypass/relay.h"
#include "spatial.h"

namespace relaypass::frontend::onnx_import {

namespace {

namespace relay = relaypass::relay;

const ir::DataType kInt32 = ir::DataType::Int32();

// The convolution of `data` by `weight` (the node's input `w_index`, whose static shape gives the
// kernel), with the node's attributes, then `bias` (when given) by nn.bias_add; padding values of
// `dtype`.
ir::Expr ConvCore(const NodeContext& ctx, size_t w_index, ir::Expr data, ir::Expr weight,
                  ir::Expr bias, ir::DataType dtype) {
  const int ndim = ctx.ndim(0);
  if ((ndim != 4 && ndim != 3 && ndim != 5) || ctx.ndim(w_index) != ndim) {
    ctx.Unsupported(std::to_string(ndim - 2) + "-D convolution (1-D to 3-D)");
  }
  const int n = ndim - 2;
  const ir::Shape& w = ctx.shape(w_index);
  Ints kernel = ctx.attr_positive_ints_n("kernel_shape", n, Ints(w.begin() + 2, w.end()));
  Ints strides = ctx.attr_positive_ints_n("strides", n, Ints(n, 1));
  Ints dilations = ctx.attr_positive_ints_n("dilations", n, Ints(n, 1));
  const Ints spatial(ctx.shape(0).begin() + 2, ctx.shape(0).end());
  Ints pads = ResolvePads(ctx, spatial, kernel, strides, dilations);
  if (n == 3) {  // nn.conv3d, as TVM's dimension_picker
    if (IsSamePad(ctx)) {
      data = relay::nn::pad(
          data, {{0, 0}, {0, 0}, {pads[0], pads[3]}, {pads[1], pads[4]}, {pads[2], pads[5]}},
          ScalarConst(0.0, dtype));
      pads = Ints(6, 0);
    }
    relay::nn::Conv3DArgs args;
    args.strides = strides;
    args.padding = pads;
    args.dilation = dilations;
    args.groups = ctx.attr_int32("group", 1);
    args.channels = w[0];
    args.kernel_size = kernel;
    ir::Expr out = relay::nn::conv3d(data, weight, args);
    if (bias) out = relay::nn::bias_add(out, bias);
    return out;
  }
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
                          ScalarConst(0.0, dtype));
    pads = Ints(4, 0);
  }
  relay::nn::Conv2DArgs args;
  args.strides = strides;
  args.padding = pads;
  args.dilation = dilations;
  args.groups = ctx.attr_int32("group", 1);
  args.channels = w[0];
  args.kernel_size = kernel;
  ir::Expr out = relay::nn::conv2d(data, weight, args);
  if (bias) out = relay::nn::bias_add(out, bias);
  if (n == 1) out = relay::squeeze(out, relay::Ints{2});
  return out;
}

Outputs Conv(const NodeContext& ctx) {
  ctx.CheckInputs(2, 3);
  return {ConvCore(ctx, 1, ctx.input(0), ctx.input(1), ctx.has_input(2) ? ctx.input(2) : ir::Expr(),
                   ctx.dtype(0))};
}

// qnn.conv2d as TVM's ConvInteger / QLinearConv converters build it: channels and kernel_size
// from the weight, the ONNX pads as padding (qnn.conv2d pads with the input zero point); SAME
// auto_pad pads first with nn.pad of the zero point's value, as TVM's autopad. Only 2-D, as TVM.
ir::Expr QnnConv2D(const NodeContext& ctx, size_t w_index, ir::Expr data, ir::Expr x_zero_point,
                   ir::Expr w_zero_point, ir::Expr x_scale, ir::Expr w_scale) {
  if (ctx.ndim(0) != 4 || ctx.ndim(w_index) != 4) {
    ctx.Unsupported("Only 2D kernels are supported for operator " + ctx.op_type() + ".");
  }
  const ir::Shape& w = ctx.shape(w_index);
  const Ints kernel = ctx.attr_positive_ints_n("kernel_shape", 2, Ints(w.begin() + 2, w.end()));
  relay::nn::Conv2DArgs args;
  args.strides = ctx.attr_positive_ints_n("strides", 2, Ints(2, 1));
  args.dilation = ctx.attr_positive_ints_n("dilations", 2, Ints(2, 1));
  const Ints spatial(ctx.shape(0).begin() + 2, ctx.shape(0).end());
  Ints pads = ResolvePads(ctx, spatial, kernel, args.strides, args.dilation);
  if (IsSamePad(ctx)) {
    ir::Expr pad_value = FoldIfConstant(x_zero_point);
    if (!pad_value.as<ir::ConstantNode>()) ctx.Fail("Zero point expected to be a constant");
    data =
        relay::nn::pad(data, {{0, 0}, {0, 0}, {pads[0], pads[2]}, {pads[1], pads[3]}}, pad_value);
    pads = Ints(4, 0);
  }
  args.padding = pads;
  args.groups = ctx.attr_int32("group", 1);
  args.channels = w[0];
  args.kernel_size = kernel;
  args.out_dtype = "int32";
  ir::Expr conv = relay::nn::conv2d(data, ctx.input(w_index), args);
  return ir::MakeCall(ir::GetOp("qnn.conv2d"),
                      {data, ctx.input(w_index), std::move(x_zero_point), std::move(w_zero_point),
                       std::move(x_scale), std::move(w_scale)},
                      conv.as<ir::CallNode>()->attrs);
}

// ConvInteger: qnn.conv2d with unit scales, the zero points cast to int32 (0 when omitted).
Outputs ConvInteger(const NodeContext& ctx) {
  ctx.CheckInputs(2, 4);
  const ir::DataType f32 = ir::DataType::Float(32);
  ir::Expr x_zp = ctx.has_input(2) ? relay::cast(ctx.input(2), "int32") : ScalarConst(0, kInt32);
  ir::Expr w_zp = ctx.has_input(3) ? relay::cast(ctx.input(3), "int32") : ScalarConst(0, kInt32);
  return {
      QnnConv2D(ctx, 1, ctx.input(0), x_zp, w_zp, ScalarConst(1.0, f32), ScalarConst(1.0, f32))};
}

// QLinearConv as TVM's: qnn.conv2d, nn.bias_add of the int32 bias, then qnn.requantize from
// x_scale * w_scale (zero point 0) to y_scale / y_zero_point on axis 1 (dequantize + quantize
// when y_scale is not a constant). A 1-D w_scale or w_zero_point has one value per output
// channel.
Outputs QLinearConv(const NodeContext& ctx) {
  ctx.CheckInputs(8, 9);
  const ir::DataType f32 = ir::DataType::Float(32);
  ir::Expr x_scale = QnnScalar(ctx, 1, f32);
  ir::Expr x_zp = QnnScalar(ctx, 2, kInt32);
  ir::Expr w_scale = QnnScalarOr1D(ctx, 4, f32);
  ir::Expr w_zp = QnnScalarOr1D(ctx, 5, kInt32);
  ir::Expr y_scale = FoldIfConstant(QnnScalar(ctx, 6, f32));
  ir::Expr y_zp = QnnScalar(ctx, 7, kInt32);
  // TVM's check, except that one value in a 1-D tensor is taken as per-tensor (ONNX allows it).
  const ir::Dim m = ctx.shape(3).empty() ? -1 : ctx.shape(3)[0];
  for (size_t i : {size_t{4}, size_t{5}}) {
    if (ctx.ndim(i) == 1 && ctx.shape(i)[0] != 1 && ctx.shape(i)[0] != m) {
      ctx.Fail("The number of elements should be equal to the number of output channels");
    }
  }
  ir::Expr out = QnnConv2D(ctx, 3, ctx.input(0), x_zp, w_zp, x_scale, w_scale);
  if (ctx.has_input(8)) out = relay::nn::bias_add(out, ctx.input(8));
  const ir::DataType out_dtype = ctx.dtype(7);
  ir::Expr requantize_scale = relay::multiply(x_scale, w_scale);
  if (y_scale.as<ir::ConstantNode>()) {
    return {QnnRequantize(out, requantize_scale, ScalarConst(0, kInt32), y_scale, y_zp, 1, "None",
                          out_dtype)};
  }
  out = QnnDequantize(out, requantize_scale, ScalarConst(0, kInt32), 1);
  return {QnnQuantize(out, y_scale, y_zp, 1, out_dtype)};
}

// TVM's ConvTranspose (_impl_v11): channels = weight.shape[1] * group; SAME auto_pad and
// output_shape become explicit pads (negative ones extend the output, as TVM's).
Outputs ConvTranspose(const NodeContext& ctx) {
  ctx.CheckInputs(2, 3);
  const int ndim = ctx.ndim(0);
  const int n = ndim - 2;
  if (n < 1 || n > 3 || ctx.ndim(1) != ndim) {
    ctx.Unsupported(std::to_string(n) + "-D transposed convolution (1-D to 3-D)");
  }
  const ir::Shape& w = ctx.shape(1);
  const int64_t group = ctx.attr_int("group", 1);
  const Ints kernel = ctx.attr_positive_ints_n("kernel_shape", n, Ints(w.begin() + 2, w.end()));
  const Ints strides = ctx.attr_positive_ints_n("strides", n, Ints(n, 1));
  const Ints dilations = ctx.attr_positive_ints_n("dilations", n, Ints(n, 1));
  const Ints output_padding = ctx.attr_ints_n("output_padding", n, Ints(n, 0));
  Ints pads = ctx.attr_ints_n("pads", 2 * n, Ints(2 * n, 0));
  const std::string auto_pad = ctx.attr_string("auto_pad", "NOTSET");
  const bool has_output_shape = ctx.has_attr("output_shape");
  if (has_output_shape || auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
    const Ints output_shape = ctx.attr_ints_n("output_shape", n, Ints(n, 0));
    const ir::Shape& in = ctx.StaticShape(0, "output_shape / SAME padding needs at import");
    Ints total(n);
    for (int i = 0; i < n; ++i) {
      const int64_t full = (kernel[i] - 1) * dilations[i] + 1 + output_padding[i];
      total[i] = has_output_shape ? strides[i] * (in[2 + i] - 1) + full - output_shape[i]
                                  : full - strides[i];
    }
    Ints left(n), right(n);
    for (int i = 0; i < n; ++i) {
      left[i] = total[i] >= 0 ? total[i] / 2 : -((-total[i] + 1) / 2);  // Python's floor division
      right[i] = total[i] - left[i];
    }
    // ONNX's split: SAME_UPPER puts the smaller half first, SAME_LOWER the larger (TVM v0.13
    // swaps the two, which the backend tests' values contradict); output_shape alone as TVM.
    Ints first = right, second = left;
    if (auto_pad == "SAME_UPPER") {
      first = left;
      second = right;
    }
    pads = first;
    pads.insert(pads.end(), second.begin(), second.end());
  } else if (auto_pad == "VALID") {
    pads = Ints(2 * n, 0);
  } else if (auto_pad != "NOTSET") {
    ctx.Fail("invalid auto_pad " + auto_pad);
  }
  relay::nn::ConvTransposeArgs args;
  args.strides = strides;
  args.padding = pads;
  args.dilation = dilations;
  args.output_padding = output_padding;
  args.groups = ctx.Int32(group, "group");
  args.channels = w[1] * group;
  args.kernel_size = kernel;
  ir::Expr out = n == 1   ? relay::nn::conv1d_transpose(ctx.input(0), ctx.input(1), args)
                 : n == 2 ? relay::nn::conv2d_transpose(ctx.input(0), ctx.input(1), args)
                          : relay::nn::conv3d_transpose(ctx.input(0), ctx.input(1), args);
  if (ctx.has_input(2)) out = relay::nn::bias_add(out, ctx.input(2));
  return {out};
}

}  // namespace

void RegisterConv(ConverterTable& t) {
  t.Add("Conv", 1, Conv);
  t.Add("ConvTranspose", 1, ConvTranspose);
  t.Add("ConvInteger", 10, ConvInteger);
  t.Add("QLinearConv", 10, QLinearConv);
}

}  // namespace relaypass::frontend::onnx_import
