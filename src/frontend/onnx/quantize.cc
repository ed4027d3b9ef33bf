// QuantizeLinear, DequantizeLinear and DynamicQuantizeLinear as TVM v0.13's from_onnx imports
// them: qnn.quantize / qnn.dequantize with the zero point cast to int32, the axis TVM picks
// (opset 10: 0; opset 13: the attribute, 0 for a tensor of rank < 2). qnn.quantize rounds halves
// away from zero where ONNX rounds them to even (TVM's behaviour; docs/quantization.md).
#include "context.h"
#include "qnn_params.h"
#include "relaypass/relay.h"

namespace relaypass::frontend::onnx_import {

namespace {

namespace relay = relaypass::relay;

const ir::DataType kInt32 = ir::DataType::Int32();

// The zero point's type names the output type (uint8 when it is omitted, as ONNX says).
ir::DataType QuantizedType(const NodeContext& ctx) {
  const ir::DataType out = ctx.has_input(2) ? ctx.dtype(2) : ir::DataType::UInt(8);
  if (out != ir::DataType::UInt(8) && out != ir::DataType::Int(8)) {
    ctx.Unsupported("quantized type " + out.ToString() + " (int8 and uint8)");
  }
  return out;
}

// The zero point: absent is 0; otherwise cast to int32 as TVM's `_op.cast(zp, "int32")`.
ir::Expr ZeroPoint(const NodeContext& ctx) {
  if (!ctx.has_input(2)) return ScalarConst(0, kInt32);
  return relay::cast(ctx.input(2), "int32");
}

int64_t Axis(const NodeContext& ctx, int min_rank) {
  if (ctx.opset() < 13) return 0;
  return ctx.ndim(0) < min_rank ? 0 : ctx.attr_int("axis", 1);
}

Outputs QuantizeLinear(const NodeContext& ctx) {
  ctx.CheckInputs(2, 3);
  return {
      QnnQuantize(ctx.input(0), ctx.input(1), ZeroPoint(ctx), Axis(ctx, 2), QuantizedType(ctx))};
}

Outputs DequantizeLinear(const NodeContext& ctx) {
  ctx.CheckInputs(2, 3);
  return {QnnDequantize(ctx.input(0), ctx.input(1), ZeroPoint(ctx), Axis(ctx, 2))};
}

// TVM's converter: scale = (max(0, max(x)) - min(0, min(x))) / 255, zero point =
// uint8(round(clip(0 - min(x) / scale, 0, 255))), y = qnn.quantize(x, scale, zp, 0, uint8).
Outputs DynamicQuantizeLinear(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  const ir::DataType dt = ctx.dtype(0);
  ir::Expr x = ctx.input(0);
  ir::Expr zero = ScalarConst(0, dt);
  ir::Expr maximum = relay::maximum(zero, relay::max(x));
  ir::Expr minimum = relay::minimum(zero, relay::min(x));
  ir::Expr scale = relay::divide(relay::subtract(maximum, minimum), ScalarConst(255, dt));
  ir::Expr zp = relay::subtract(zero, relay::divide(relay::min(x), scale));
  zp = relay::cast(relay::round(relay::clip(zp, 0, 255)), "uint8");
  ir::Expr y = QnnQuantize(x, scale, relay::cast(zp, "int32"), 0, ir::DataType::UInt(8));
  return {y, scale, zp};
}

}  // namespace

void RegisterQuantize(ConverterTable& t) {
  t.Add("QuantizeLinear", 10, QuantizeLinear);
  t.Add("DequantizeLinear", 10, DequantizeLinear);
  t.Add("DynamicQuantizeLinear", 11, DynamicQuantizeLinear);
}

}  // namespace relaypass::frontend::onnx_import
