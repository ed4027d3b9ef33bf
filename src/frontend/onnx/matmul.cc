// Gemm and MatMul as TVM: nn.dense with the second operand transposed. MatMul of an N-D tensor
// by a 2-D matrix flattens the leading axes, as TVM does; batched MatMul (both operands above
// rank 2) is nn.batch_matmul on 3-D views, as TVM's.
#include <algorithm>

#include "context.h"
#include "qnn_params.h"
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

// TVM's try_resolve_to_const: one element made a scalar (squeeze), cast to `dtype`, folded (a
// value known at import becomes one constant).
ir::Expr ResolvedParam(const NodeContext& ctx, size_t i, ir::DataType dtype) {
  ir::Expr x = ctx.input(i);
  const ir::Shape& shape = ctx.shape(i);
  const bool one = std::all_of(shape.begin(), shape.end(), [](ir::Dim d) { return d == 1; });
  if (one && !shape.empty()) x = relay::squeeze(x);
  if (ctx.dtype(i) != dtype) x = relay::cast(x, dtype.ToString());
  return FoldIfConstant(x);
}

void CheckQuantizedType(const NodeContext& ctx, size_t i, const std::string& what) {
  const ir::DataType t = ctx.dtype(i);
  if (t != ir::DataType::Int(8) && t != ir::DataType::UInt(8)) {
    ctx.Fail(what + " must be int8 or uint8, not " + t.ToString());
  }
}

// TVM's QLinearMatMul core (MatMulInteger reuses it): qnn.dense(a, transpose(b), ...) with
// units = b's columns and an int32 result. TVM takes 2-D operands only; operands of one rank >= 3
// with the same batch extents go through qnn.batch_matmul here (b transposed per batch).
ir::Expr QnnMatMul(const NodeContext& ctx, ir::Expr a_zp, ir::Expr b_zp, ir::Expr a_scale,
                   ir::Expr b_scale) {
  const size_t ib = ctx.op_type() == "QLinearMatMul" ? 3 : 1;
  const ir::Shape& as = ctx.shape(0);
  const ir::Shape& bs = ctx.shape(ib);
  const int ra = ctx.ndim(0), rb = ctx.ndim(ib);
  ir::Expr a = ctx.input(0), b = ctx.input(ib);
  if (ra == 2 && rb == 2) {
    return relay::call(
        "qnn.dense",
        {a, relay::transpose(b, relay::Ints{1, 0}), std::move(a_zp), std::move(b_zp),
         std::move(a_scale), std::move(b_scale)},
        {{"units", ir::AttrValue::Int(bs[1])}, {"out_dtype", ir::AttrValue::Str("int32")}});
  }
  const bool same_batch = ra == rb && ra >= 3 && std::equal(as.begin(), as.end() - 2, bs.begin());
  if (!same_batch || std::any_of(as.begin(), as.end(), [](ir::Dim d) { return d < 0; }) ||
      std::any_of(bs.begin(), bs.end(), [](ir::Dim d) { return d < 0; })) {
    ctx.Unsupported(ctx.op_type() +
                    " of 2-D operands, or of operands of one rank with equal static batch extents");
  }
  const int64_t m = as[ra - 2], k = as[ra - 1], n = bs[rb - 1];
  a = relay::reshape(a, relay::Ints{-1, m, k});
  b = relay::transpose(relay::reshape(b, relay::Ints{-1, k, n}), relay::Ints{0, 2, 1});
  ir::Expr out =
      relay::call("qnn.batch_matmul",
                  {a, b, std::move(a_zp), std::move(b_zp), std::move(a_scale), std::move(b_scale)},
                  {{"out_dtype", ir::AttrValue::Str("int32")},
                   {"transpose_a", ir::AttrValue::Bool(false)},
                   {"transpose_b", ir::AttrValue::Bool(true)}});
  relay::Ints final_shape(as.begin(), as.end() - 1);
  final_shape.push_back(n);
  return relay::reshape(out, final_shape);
}

// MatMulInteger as TVM's: QLinearMatMul's qnn.dense with unit scales, no requantize.
Outputs MatMulInteger(const NodeContext& ctx) {
  ctx.CheckInputs(2, 4);
  CheckQuantizedType(ctx, 0, "MatMulInteger: the first input");
  CheckQuantizedType(ctx, 1, "MatMulInteger: the second input");
  const ir::DataType i32 = ir::DataType::Int32(), f32 = ir::DataType::Float(32);
  ir::Expr a_zp = ctx.has_input(2) ? ResolvedParam(ctx, 2, i32) : ScalarConst(0, i32);
  ir::Expr b_zp = ctx.has_input(3) ? ResolvedParam(ctx, 3, i32) : ScalarConst(0, i32);
  return {QnnMatMul(ctx, a_zp, b_zp, ScalarConst(1.0, f32), ScalarConst(1.0, f32))};
}

// QLinearMatMul as TVM's: qnn.dense into int32 at scale a_scale * b_scale, then qnn.requantize
// (axis -1, TONEAREST) to y_scale / y_zero_point, or dequantize + quantize when y_scale is not a
// constant.
Outputs QLinearMatMul(const NodeContext& ctx) {
  ctx.CheckInputs(8, 8);
  CheckQuantizedType(ctx, 0, "QLinearMatMul: a");
  CheckQuantizedType(ctx, 3, "QLinearMatMul: b");
  CheckQuantizedType(ctx, 7, "QLinearMatMul: y_zero_point");
  const ir::DataType i32 = ir::DataType::Int32(), f32 = ir::DataType::Float(32);
  ir::Expr a_scale = ResolvedParam(ctx, 1, f32);
  ir::Expr b_scale = ResolvedParam(ctx, 4, f32);
  ir::Expr y_scale = ResolvedParam(ctx, 6, f32);
  ir::Expr y_zp = ResolvedParam(ctx, 7, i32);
  ir::Expr acc =
      QnnMatMul(ctx, ResolvedParam(ctx, 2, i32), ResolvedParam(ctx, 5, i32), a_scale, b_scale);
  ir::Expr acc_scale = FoldIfConstant(relay::multiply(a_scale, b_scale));
  ir::Expr acc_zp = ScalarConst(0, i32);
  const ir::DataType out = ctx.dtype(7);
  if (y_scale.as<ir::ConstantNode>()) {
    return {QnnRequantize(acc, acc_scale, acc_zp, y_scale, y_zp, -1, "TONEAREST", out)};
  }
  return {QnnQuantize(QnnDequantize(acc, acc_scale, acc_zp, 0), y_scale, y_zp, 0, out)};
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
