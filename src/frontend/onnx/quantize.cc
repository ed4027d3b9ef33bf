// QuantizeLinear, DequantizeLinear and DynamicQuantizeLinear composed from Relay arithmetic
// (TVM emits qnn.quantize / qnn.dequantize, which relaypass does not have; the values are the
// same): round half to even, saturate to the output type, per-axis scales broadcast along
// `axis`.
#include <limits>

#include "context.h"
#include "relaypass/relay.h"

namespace relaypass::frontend::onnx_import {

namespace {

namespace relay = relaypass::relay;

// A 1-D per-channel parameter reshaped to broadcast along `axis` of a rank-`ndim` tensor.
ir::Expr AlongAxis(const NodeContext& ctx, ir::Expr v, size_t i, int64_t ndim) {
  if (ctx.ndim(i) != 1 || ndim <= 1) return v;
  const int64_t axis = NormalizeAxis(ctx, ctx.attr_int("axis", 1), ndim);
  const int trailing = static_cast<int>(ndim - axis - 1);
  return trailing > 0 ? relay::expand_dims(v, 1, trailing) : v;
}

std::pair<double, double> Range(const NodeContext& ctx, ir::DataType dt) {
  if (dt == ir::DataType::UInt(8)) return {0, 255};
  if (dt == ir::DataType::Int(8)) return {-128, 127};
  if (dt == ir::DataType::UInt(16)) return {0, 65535};
  if (dt == ir::DataType::Int(16)) return {-32768, 32767};
  if (dt == ir::DataType::Int32()) return {-2147483648.0, 2147483647.0};
  ctx.Unsupported("quantized type " + dt.ToString());
}

Outputs QuantizeLinear(const NodeContext& ctx) {
  ctx.CheckInputs(2, 3);
  const int64_t ndim = ctx.ndim(0);
  const ir::DataType out = ctx.has_input(2) ? ctx.dtype(2) : ir::DataType::UInt(8);
  const auto [lo, hi] = Range(ctx, out);
  const std::string ft = ctx.dtype(0).ToString();
  ir::Expr scale = AlongAxis(ctx, relay::cast(ctx.input(1), ft), 1, ndim);
  ir::Expr q = RoundHalfToEven(relay::divide(ctx.input(0), scale), ctx.dtype(0));
  if (ctx.has_input(2)) q = relay::add(q, AlongAxis(ctx, relay::cast(ctx.input(2), ft), 2, ndim));
  return {relay::cast(relay::clip(q, lo, hi), out.ToString())};
}

Outputs DequantizeLinear(const NodeContext& ctx) {
  ctx.CheckInputs(2, 3);
  const int64_t ndim = ctx.ndim(0);
  const std::string ft = ctx.dtype(1).ToString();
  ir::Expr x = relay::cast(ctx.input(0), ft);
  if (ctx.has_input(2)) {
    x = relay::subtract(x, AlongAxis(ctx, relay::cast(ctx.input(2), ft), 2, ndim));
  }
  return {relay::multiply(x, AlongAxis(ctx, ctx.input(1), 1, ndim))};
}

// y_scale = (max(x, 0) - min(x, 0)) / 255, y_zero_point = saturate(round(-min / y_scale)),
// y = saturate(round(x / y_scale) + y_zero_point), all uint8.
Outputs DynamicQuantizeLinear(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  const ir::DataType dt = ctx.dtype(0);
  ir::Expr x = ctx.input(0);
  ir::Expr zero = ScalarConst(0, dt);
  ir::Expr hi = relay::maximum(relay::max(x), zero);
  ir::Expr lo = relay::minimum(relay::min(x), zero);
  ir::Expr scale = relay::divide(relay::subtract(hi, lo), ScalarConst(255, dt));
  ir::Expr zp = relay::clip(RoundHalfToEven(relay::divide(relay::negative(lo), scale), dt), 0, 255);
  ir::Expr y = relay::clip(relay::add(RoundHalfToEven(relay::divide(x, scale), dt), zp), 0, 255);
  return {relay::cast(y, "uint8"), scale, relay::cast(zp, "uint8")};
}

}  // namespace

void RegisterQuantize(ConverterTable& t) {
  t.Add("QuantizeLinear", 10, QuantizeLinear);
  t.Add("DequantizeLinear", 10, DequantizeLinear);
  t.Add("DynamicQuantizeLinear", 11, DynamicQuantizeLinear);
}

}  // namespace relaypass::frontend::onnx_import
