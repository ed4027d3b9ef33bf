// Gemm and MatMul as TVM: nn.dense with the second operand transposed. MatMul of an N-D tensor
// by a 2-D matrix flattens the leading axes, as TVM does; batched MatMul (both operands above
// rank 2) is a broadcast multiply and sum: relaypass has no nn.batch_matmul yet.
#include <algorithm>

#include "context.h"
#include "relaypass/relay.h"

namespace relaypass::frontend::onnx_import {

namespace {

namespace relay = relaypass::relay;

Outputs Gemm(const NodeContext& ctx) {
  ctx.CheckInputs(2, 3);
  if (ctx.ndim(0) != 2 || ctx.ndim(1) != 2) ctx.Fail("Gemm takes 2-D A and B");
  const bool trans_a = ctx.attr_int("transA", 0) != 0;
  const bool trans_b = ctx.attr_int("transB", 0) != 0;
  const double alpha = ctx.attr_float("alpha", 1.0);
  const double beta = ctx.attr_float("beta", 1.0);
  const ir::DataType dtype = ctx.dtype(0);
  const int64_t channels = trans_b ? ctx.shape(1)[0] : ctx.shape(1)[1];
  ir::Expr a = ctx.input(0), b = ctx.input(1);
  if (trans_a) a = relay::transpose(a, relay::Ints{1, 0});
  if (!trans_b) b = relay::transpose(b, relay::Ints{1, 0});
  if (alpha != 1.0) a = relay::multiply(a, ScalarConst(alpha, dtype));
  ir::Expr out = relay::nn::dense(a, b, channels);
  if (ctx.has_input(2)) {
    ir::Expr c = ctx.input(2);
    if (beta != 1.0) c = relay::multiply(ScalarConst(beta, dtype), c);
    out = relay::add(out, c);
  }
  return {out};
}

Outputs MatMul(const NodeContext& ctx) {
  ctx.CheckInputs(2, 2);
  const ir::Shape& as = ctx.shape(0);
  const ir::Shape& bs = ctx.shape(1);
  const std::string out_dtype = ctx.dtype(0).ToString();
  const int ra = ctx.ndim(0), rb = ctx.ndim(1);
  if (ra < 1 || rb < 1) ctx.Fail("MatMul of a scalar");
  if (rb == 2 && ra >= 2) {
    ir::Expr b = relay::transpose(ctx.input(1), relay::Ints{1, 0});
    if (ra == 2) return {relay::nn::dense(ctx.input(0), b, std::nullopt, out_dtype)};
    ir::Expr a = relay::reshape(ctx.input(0), relay::Ints{-1, as.back()});
    ir::Expr out = relay::nn::dense(a, b, std::nullopt, out_dtype);
    relay::Ints final_shape(as.begin(), as.end() - 1);
    final_shape.push_back(bs[1]);
    return {relay::reshape(out, final_shape)};
  }
  if (ra == 1 && rb == 2) {  // a vector times a matrix: [K] x [K, N] -> [N]
    ir::Expr a = relay::expand_dims(ctx.input(0), 0);
    ir::Expr b = relay::transpose(ctx.input(1), relay::Ints{1, 0});
    return {relay::squeeze(relay::nn::dense(a, b, std::nullopt, out_dtype), relay::Ints{0})};
  }
  if (rb == 1 && ra >= 2) {  // [.., K] x [K] -> [..]
    ir::Expr b = relay::expand_dims(ctx.input(1), 0);
    ir::Expr out = relay::nn::dense(ctx.input(0), b, std::nullopt, out_dtype);
    return {relay::squeeze(out, relay::Ints{ra - 1})};
  }
  if (ra == 1 && rb == 1) {
    return {relay::sum(relay::multiply(ctx.input(0), ctx.input(1)), relay::Ints{0})};
  }
  if (ra == 1) ctx.Unsupported("MatMul of a vector by a batched matrix");
  // Both operands batched: relaypass has no nn.batch_matmul (TVM's choice here), so the product
  // is a broadcast multiply of [.., M, K, 1] by [.., 1, K, N] summed over K.
  ir::Expr a = relay::expand_dims(ctx.input(0), ra);
  ir::Expr b = relay::expand_dims(ctx.input(1), rb - 2);
  const int64_t r = std::max(ra, rb) + 1;
  return {relay::sum(relay::multiply(a, b), relay::Ints{r - 2})};
}

}  // namespace

void RegisterMatMul(ConverterTable& t) {
  t.Add("Gemm", 1, Gemm);
  t.Add("MatMul", 1, MatMul);
}

}  // namespace relaypass::frontend::onnx_import
