// Gemm and MatMul as TVM: nn.dense with the second operand transposed. MatMul of an N-D tensor
// by a 2-D matrix flattens the leading axes, as TVM does; batched MatMul (both operands above
// rank 2) is nn.batch_matmul on 3-D views, as TVM's.
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

// The product of `a` and `b`, whose static shapes are the node's inputs `ia` and `ib`.
ir::Expr MatMulCore(const NodeContext& ctx, ir::Expr a_in, size_t ia, ir::Expr b_in, size_t ib,
                    const std::string& out_dtype) {
  const ir::Shape& as = ctx.shape(ia);
  const ir::Shape& bs = ctx.shape(ib);
  const int ra = ctx.ndim(ia), rb = ctx.ndim(ib);
  if (ra < 1 || rb < 1) ctx.Fail("MatMul of a scalar");
  auto any = [](const ir::Shape& s) {
    return std::any_of(s.begin(), s.end(), [](int64_t d) { return d < 0; });
  };
  // The leading extents of `x` (rank r) up to `end`, at run time.
  auto extents = [](const ir::Expr& x, int64_t begin, int64_t end) {
    return relay::strided_slice(relay::shape_of(x, "int64"), {begin}, {end});
  };
  if (rb == 2 && ra >= 2) {
    ir::Expr b = relay::transpose(b_in, relay::Ints{1, 0});
    if (ra == 2) return relay::nn::dense(a_in, b, std::nullopt, out_dtype);
    // [.., K] flattened to [-1, K]; K from B when A's is `?` (a dyn.reshape's result), or
    // kept from A at run time (reverse_reshape's 0) when neither knows it.
    const int64_t k = as.back() >= 0 ? as.back() : bs[0];
    ir::Expr a = k >= 0 ? relay::reshape(a_in, relay::Ints{-1, k})
                        : relay::reverse_reshape(a_in, relay::Ints{-1, 0});
    ir::Expr out = relay::nn::dense(a, b, std::nullopt, out_dtype);
    if (any(as) || bs[1] < 0) {  // `?` leading extents: the output shape at run time
      ir::Expr shape = relay::concatenate({extents(a_in, 0, ra - 1), extents(b_in, 1, 2)}, 0);
      return relay::call("dyn.reshape", {out, shape});
    }
    relay::Ints final_shape(as.begin(), as.end() - 1);
    final_shape.push_back(bs[1]);
    return relay::reshape(out, final_shape);
  }
  if (ra == 1 && rb == 2) {  // a vector times a matrix: [K] x [K, N] -> [N]
    ir::Expr a = relay::expand_dims(a_in, 0);
    ir::Expr b = relay::transpose(b_in, relay::Ints{1, 0});
    return relay::squeeze(relay::nn::dense(a, b, std::nullopt, out_dtype), relay::Ints{0});
  }
  if (rb == 1 && ra >= 2) {  // [.., K] x [K] -> [..]
    ir::Expr b = relay::expand_dims(b_in, 0);
    ir::Expr out = relay::nn::dense(a_in, b, std::nullopt, out_dtype);
    return relay::squeeze(out, relay::Ints{ra - 1});
  }
  if (ra == 1 && rb == 1) {
    return relay::sum(relay::multiply(a_in, b_in), relay::Ints{0});
  }
  if (ra == 1 || rb == 1) ctx.Unsupported("MatMul of a vector by a batched matrix");
  // TVM's batched path: both operands broadcast to the common batch, flattened to 3-D, and
  // nn.batch_matmul with the second transposed (use_nt_batch_matmul); the result reshaped to
  // batch + [M, N].
  const int r = std::max(ra, rb);
  if (any(as) || any(bs)) {
    // `?` extents: both flattened to 3-D from the right (reverse_reshape [-1, 0, 0]), the batch
    // extents equal at run time (no broadcasting), the result shaped at run time.
    if (ra != rb) ctx.Unsupported("a batched MatMul of `?` extents and different ranks");
    ir::Expr a = relay::reverse_reshape(a_in, relay::Ints{-1, 0, 0});
    ir::Expr b = relay::reverse_reshape(b_in, relay::Ints{-1, 0, 0});
    ir::Expr out = relay::nn::batch_matmul(a, relay::transpose(b, relay::Ints{0, 2, 1}), out_dtype);
    ir::Expr shape = relay::concatenate({extents(a_in, 0, ra - 1), extents(b_in, rb - 1, rb)}, 0);
    return relay::call("dyn.reshape", {out, shape});
  }
  relay::Ints batch(r - 2, 1);
  for (int i = 0; i < r - 2; ++i) {
    const int ia = i - (r - ra), ib = i - (r - rb);
    const int64_t da = ia >= 0 ? as[ia] : 1, db = ib >= 0 ? bs[ib] : 1;
    if (da != db && da != 1 && db != 1) ctx.Fail("batch dimensions do not broadcast");
    batch[i] = std::max(da, db);
  }
  auto prepare = [&](ir::Expr x, const ir::Shape& s, int rank) {
    relay::Ints full = batch;
    full.push_back(s[rank - 2]);
    full.push_back(s[rank - 1]);
    if (relay::Ints(s.begin(), s.end()) != full) x = relay::broadcast_to(x, full);
    if (full.size() != 3)
      x = relay::reshape(x, relay::Ints{-1, full[full.size() - 2], full.back()});
    return x;
  };
  ir::Expr a = prepare(a_in, as, ra);
  ir::Expr bt = relay::transpose(prepare(b_in, bs, rb), relay::Ints{0, 2, 1});
  ir::Expr out = relay::nn::batch_matmul(a, bt, out_dtype);
  relay::Ints final_shape = batch;
  final_shape.push_back(as[ra - 2]);
  final_shape.push_back(bs[rb - 1]);
  return relay::reshape(out, final_shape);
}

Outputs MatMul(const NodeContext& ctx) {
  ctx.CheckInputs(2, 2);
  return {MatMulCore(ctx, ctx.input(0), 0, ctx.input(1), 1, ctx.dtype(0).ToString())};
}

// An integer tensor minus its zero point, in float64 (exact for the 8-bit types); a 1-D zero
// point of B runs along its columns, of A along its rows.
ir::Expr CenteredOperand(const NodeContext& ctx, size_t i, size_t zp, bool rows) {
  ir::Expr x = relay::cast(ctx.input(i), "float64");
  if (!ctx.has_input(zp)) return x;
  ir::Expr z = relay::cast(ctx.input(zp), "float64");
  if (rows && ctx.ndim(zp) == 1 && ctx.shape(zp)[0] > 1) z = relay::expand_dims(z, 1);
  return relay::subtract(x, z);
}

// MatMulInteger: the product of the centered operands, as int32 (TVM: qnn.dense / batch_matmul).
Outputs MatMulInteger(const NodeContext& ctx) {
  ctx.CheckInputs(2, 4);
  ir::Expr out = MatMulCore(ctx, CenteredOperand(ctx, 0, 2, true), 0,
                            CenteredOperand(ctx, 1, 3, false), 1, "float64");
  return {relay::cast(out, "int32")};
}

// QLinearMatMul: the centered product rescaled by a_scale * b_scale / y_scale, rounded half to
// even, shifted by y_zero_point and saturated.
Outputs QLinearMatMul(const NodeContext& ctx) {
  ctx.CheckInputs(8, 8);
  ir::Expr acc = MatMulCore(ctx, CenteredOperand(ctx, 0, 2, true), 0,
                            CenteredOperand(ctx, 3, 5, false), 3, "float64");
  ir::Expr scale = relay::divide(
      relay::multiply(relay::cast(ctx.input(1), "float64"), relay::cast(ctx.input(4), "float64")),
      relay::cast(ctx.input(6), "float64"));
  ir::Expr q = relay::add(RoundHalfToEven(relay::multiply(acc, scale), ir::DataType::Float(64)),
                          relay::cast(ctx.input(7), "float64"));
  const ir::DataType out = ctx.dtype(7);
  const bool is_signed = out.is_int();
  return {relay::cast(relay::clip(q, is_signed ? -128 : 0, is_signed ? 127 : 255), out.ToString())};
}

// TVM's Einsum: einsum(inputs, equation).
Outputs Einsum(const NodeContext& ctx) {
  if (ctx.num_inputs() < 1) ctx.Fail("Einsum needs an input");
  std::vector<ir::Expr> operands;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) operands.push_back(ctx.input(i));
  return {relay::einsum(operands, ctx.attr_string("equation", ""))};
}

}  // namespace

void RegisterMatMul(ConverterTable& t) {
  t.Add("Einsum", 12, Einsum);
  t.Add("MatMulInteger", 10, MatMulInteger);
  t.Add("QLinearMatMul", 10, QLinearMatMul);
  t.Add("Gemm", 1, Gemm);
  t.Add("MatMul", 1, MatMul);
}

}  // namespace relaypass::frontend::onnx_import
