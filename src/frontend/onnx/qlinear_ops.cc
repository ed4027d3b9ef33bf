// ONNX Runtime's com.microsoft quantized operators as TVM v0.13's from_onnx imports them (ONNX
// Runtime computes them in float too): QLinearAdd, QLinearMul, QLinearSigmoid, QLinearLeakyRelu,
// QLinearAveragePool and QLinearGlobalAveragePool as qnn.dequantize, the float op, qnn.quantize
// to the output's parameters in the input's type; QLinearConcat as qnn.concatenate.
#include "context.h"
#include "qnn_params.h"
#include "relaypass/relay.h"
#include "spatial.h"

namespace relaypass::frontend::onnx_import {

namespace {

namespace relay = relaypass::relay;

const ir::DataType kF32 = ir::DataType::Float(32);
const ir::DataType kI32 = ir::DataType::Int32();

// Input `x` dequantized with the scale and zero point at `x + 1`, `x + 2`.
ir::Expr Dequantized(const NodeContext& ctx, size_t x) {
  return QnnDequantize(ctx.input(x), QnnScalar(ctx, x + 1, kF32), QnnScalar(ctx, x + 2, kI32));
}

// `out` quantized to the scale and zero point at `at`, `at + 1`, in input 0's type.
ir::Expr Requantized(const NodeContext& ctx, const ir::Expr& out, size_t at) {
  return QnnQuantize(out, FoldIfConstant(QnnScalar(ctx, at, kF32)), QnnScalar(ctx, at + 1, kI32),
                     -1, ctx.dtype(0));
}

Converter Binary(const char* op) {
  return [op](const NodeContext& ctx) -> Outputs {
    ctx.CheckInputs(8, 8);
    return {Requantized(ctx, relay::call(op, {Dequantized(ctx, 0), Dequantized(ctx, 3)}), 6)};
  };
}

Outputs QLinearSigmoid(const NodeContext& ctx) {
  ctx.CheckInputs(5, 5);
  return {Requantized(ctx, relay::sigmoid(Dequantized(ctx, 0)), 3)};
}

Outputs QLinearLeakyRelu(const NodeContext& ctx) {
  ctx.CheckInputs(5, 5);
  // TVM's default alpha here is 1.0 (ONNX Runtime's schema says 0.01; models set it).
  return {Requantized(ctx, relay::nn::leaky_relu(Dequantized(ctx, 0), ctx.attr_float("alpha", 1.0)),
                      3)};
}

void CheckChannelsFirst(const NodeContext& ctx) {
  if (ctx.attr_int("channels_last", 0) != 0) ctx.Unsupported("channels_last=1");
}

Outputs QLinearAveragePool(const NodeContext& ctx) {
  ctx.CheckInputs(5, 5);
  CheckChannelsFirst(ctx);
  return {Requantized(ctx, AveragePoolOf(ctx, Dequantized(ctx, 0)), 3)};
}

Outputs QLinearGlobalAveragePool(const NodeContext& ctx) {
  ctx.CheckInputs(5, 5);
  CheckChannelsFirst(ctx);
  return {Requantized(ctx, GlobalAveragePoolOf(ctx, Dequantized(ctx, 0)), 3)};
}

// Inputs: Y_scale, Y_zero_point, then (tensor, scale, zero point) per input.
Outputs QLinearConcat(const NodeContext& ctx) {
  if (ctx.num_inputs() < 5 || ctx.num_inputs() % 3 != 2) {
    ctx.Fail("Additional input count must be a multiple of 3 -- tensor/scale/zero_point tuples");
  }
  if (!ctx.has_attr("axis")) ctx.Fail("the axis attribute is required");
  std::vector<ir::Expr> tensors, scales, zero_points;
  for (size_t i = 2; i < ctx.num_inputs(); i += 3) {
    tensors.push_back(ctx.input(i));
    scales.push_back(QnnScalar(ctx, i + 1, kF32));
    zero_points.push_back(QnnScalar(ctx, i + 2, kI32));
  }
  return {relay::call("qnn.concatenate",
                      {relay::tuple(tensors), relay::tuple(scales), relay::tuple(zero_points),
                       FoldIfConstant(QnnScalar(ctx, 0, kF32)), QnnScalar(ctx, 1, kI32)},
                      {{"axis", ir::AttrValue::Int(ctx.attr_int("axis", 0))}})};
}

}  // namespace

void RegisterQLinear(ConverterTable& t) {
  t.Add("QLinearAdd", 10, Binary("add"));
  t.Add("QLinearMul", 10, Binary("multiply"));
  t.Add("QLinearSigmoid", 10, QLinearSigmoid);
  t.Add("QLinearLeakyRelu", 10, QLinearLeakyRelu);
  t.Add("QLinearConcat", 1, QLinearConcat);
  t.Add("QLinearAveragePool", 1, QLinearAveragePool);
  t.Add("QLinearGlobalAveragePool", 1, QLinearGlobalAveragePool);
}

bool IsQLinearContribOp(const std::string& op_type) {
  static const char* const kOps[] = {
      "QLinearAdd",    "QLinearMul",         "QLinearSigmoid",          "QLinearLeakyRelu",
      "QLinearConcat", "QLinearAveragePool", "QLinearGlobalAveragePool"};
  for (const char* op : kOps) {
    if (op_type == op) return true;
  }
  return false;
}

}  // namespace relaypass::frontend::onnx_import
