// ONNX Runtime's com.microsoft quantized operators as TVM v0.13's from_onnx imports them (ONNX
// Runtime computes them in float too): QLinearAdd, QLinearMul, QLinearSigmoid, QLinearLeakyRelu,
// QLinearAveragePool, QLinearGlobalAveragePool and QLinearSoftmax as qnn.dequantize, the float
// op, qnn.quantize to the output's parameters in the input's type; QLinearConcat as
// qnn.concatenate; QGemm as qnn.dequantize of both operands, nn.dense, the dequantized int32
// bias, and qnn.quantize when the output is quantized.
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

// ONNX Runtime's QLinearSoftmax: `opset` says which Softmax it is; before 13 the input is
// coerced to 2-D at `axis` (the softmax runs over all the trailing axes at once).
Outputs QLinearSoftmax(const NodeContext& ctx) {
  ctx.CheckInputs(5, 5);
  const int rank = ctx.ndim(0);
  const int64_t axis = NormalizeAxis(ctx, ctx.attr_int("axis", -1), rank);
  ir::Expr x = Dequantized(ctx, 0);
  if (ctx.attr_int("opset", 13) >= 13 || axis == rank - 1) {
    return {Requantized(ctx, relay::nn::softmax(x, static_cast<int>(axis)), 3)};
  }
  const ir::Shape& shape = ctx.StaticShape(0, "QLinearSoftmax before opset 13");
  int64_t outer = 1, inner = 1;
  for (int i = 0; i < rank; ++i) (i < axis ? outer : inner) *= shape[i];
  ir::Expr flat = relay::nn::softmax(relay::reshape(x, relay::Ints{outer, inner}), 1);
  return {Requantized(ctx, relay::reshape(flat, relay::Ints(shape.begin(), shape.end())), 3)};
}

// ONNX Runtime's QGemm: Y = alpha * A' * B' + C, A and B dequantized (B per column: b_scale and
// b_zero_point of one value or N), C an int32 bias at scale a_scale * b_scale, zero point 0;
// quantized to y_scale / y_zero_point when given, float32 otherwise.
Outputs QGemm(const NodeContext& ctx) {
  ctx.CheckInputs(6, 9);
  if (ctx.ndim(0) != 2 || ctx.ndim(3) != 2) ctx.Fail("QGemm takes 2-D A and B");
  const bool trans_a = ctx.attr_int("transA", 0) != 0;
  const bool trans_b = ctx.attr_int("transB", 0) != 0;
  const double alpha = ctx.attr_float("alpha", 1.0);
  ir::Expr a_scale = QnnScalar(ctx, 1, kF32);
  ir::Expr b_scale = QnnScalarOr1D(ctx, 4, kF32);
  ir::Expr a = QnnDequantize(ctx.input(0), a_scale, QnnScalar(ctx, 2, kI32));
  // B's columns are its axis 1, or axis 0 when it is given transposed.
  ir::Expr b = QnnDequantize(ctx.input(3), b_scale, QnnScalarOr1D(ctx, 5, kI32), trans_b ? 0 : 1);
  if (trans_a) a = relay::transpose(a, relay::Ints{1, 0});
  if (!trans_b) b = relay::transpose(b, relay::Ints{1, 0});
  const int64_t units = ctx.shape(3)[trans_b ? 0 : 1];
  ir::Expr out = relay::nn::dense(a, b, units);
  if (alpha != 1.0) out = relay::multiply(out, ScalarConst(alpha, kF32));
  if (ctx.has_input(6)) {
    ir::Expr c_scale = FoldIfConstant(relay::multiply(a_scale, b_scale));
    // A per-column scale runs along C's last axis (its columns).
    out = relay::add(out, QnnDequantize(ctx.input(6), c_scale, ScalarConst(0, kI32), -1));
  }
  if (!ctx.has_input(7)) return {out};
  if (!ctx.has_input(8)) ctx.Fail("QGemm: y_scale without y_zero_point");
  return {QnnQuantize(out, FoldIfConstant(QnnScalar(ctx, 7, kF32)), QnnScalar(ctx, 8, kI32), -1,
                      ctx.dtype(8))};
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
  t.Add("QLinearSoftmax", 1, QLinearSoftmax);
  t.Add("QGemm", 1, QGemm);
}

bool IsQLinearContribOp(const std::string& op_type) {
  static const char* const kOps[] = {
      "QLinearAdd",    "QLinearMul",         "QLinearSigmoid",           "QLinearLeakyRelu",
      "QLinearConcat", "QLinearAveragePool", "QLinearGlobalAveragePool", "QLinearSoftmax",
      "QGemm"};
  for (const char* op : kOps) {
    if (op_type == op) return true;
  }
  return false;
}

}  // namespace relaypass::frontend::onnx_import
