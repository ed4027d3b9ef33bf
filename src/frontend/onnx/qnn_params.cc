// TVM's get_scalar / get_scalar_or_1d_tensor and the qnn calls of the quantized converters.
#include "qnn_params.h"

#include "relaypass/passes/fold_constant.h"
#include "relaypass/relay.h"

namespace relaypass::frontend::onnx_import {

namespace {

namespace relay = relaypass::relay;

// `value` converted to `dtype` element by element (scales to float32, zero points to int32:
// every ONNX quantization type converts exactly).
ir::NDArray Converted(const ir::NDArray& value, ir::DataType dtype) {
  if (value.dtype() == dtype) return value;
  ir::NDArray out = ir::NDArray::Empty(value.shape(), dtype);
  for (int64_t k = 0; k < value.size(); ++k) {
    const double v = value.GetAsDouble(k);
    if (dtype == ir::DataType::Float(32)) {
      out.mutable_data<float>()[k] = static_cast<float>(v);
    } else {
      out.mutable_data<int32_t>()[k] = static_cast<int32_t>(v);
    }
  }
  return out;
}

ir::Expr Param(const NodeContext& ctx, size_t i, ir::DataType dtype, bool keep_1d) {
  if (const ir::NDArray* value = ctx.value(i)) return ir::MakeConstant(Converted(*value, dtype));
  const int rank = ctx.ndim(i);
  if (rank > 1 || (rank == 1 && !keep_1d && ctx.shape(i)[0] != 1)) {
    ctx.Fail("input " + std::to_string(i) + " ('" + ctx.node().input(static_cast<int>(i)) +
             "'): scale and zero_point input must be scalars" + (keep_1d ? " or 1D tensors" : ""));
  }
  ir::Expr x = ctx.input(i);
  if (rank == 1 && !keep_1d) x = relay::squeeze(x, relay::Ints{0});
  return relay::cast(x, dtype.ToString());
}

}  // namespace

ir::Expr QnnScalar(const NodeContext& ctx, size_t i, ir::DataType dtype) {
  return Param(ctx, i, dtype, false);
}

ir::Expr QnnScalarOr1D(const NodeContext& ctx, size_t i, ir::DataType dtype) {
  return Param(ctx, i, dtype, true);
}

ir::Expr QnnZeroPoint(const NodeContext& ctx, size_t i) {
  if (!ctx.has_input(i)) return ScalarConst(0, ir::DataType::Int32());
  return QnnScalar(ctx, i, ir::DataType::Int32());
}

ir::Expr QnnQuantize(ir::Expr data, ir::Expr scale, ir::Expr zero_point, int64_t axis,
                     ir::DataType out_dtype) {
  return relay::call("qnn.quantize", {std::move(data), std::move(scale), std::move(zero_point)},
                     {{"out_dtype", ir::AttrValue::Str(out_dtype.ToString())},
                      {"axis", ir::AttrValue::Int(axis)}});
}

ir::Expr QnnDequantize(ir::Expr data, ir::Expr scale, ir::Expr zero_point, int64_t axis) {
  return relay::call(
      "qnn.dequantize", {std::move(data), std::move(scale), std::move(zero_point)},
      {{"out_dtype", ir::AttrValue::Str("float32")}, {"axis", ir::AttrValue::Int(axis)}});
}

ir::Expr QnnRequantize(ir::Expr data, ir::Expr input_scale, ir::Expr input_zero_point,
                       ir::Expr output_scale, ir::Expr output_zero_point, int64_t axis,
                       const std::string& rounding, ir::DataType out_dtype) {
  return relay::call("qnn.requantize",
                     {std::move(data), std::move(input_scale), std::move(input_zero_point),
                      std::move(output_scale), std::move(output_zero_point)},
                     {{"axis", ir::AttrValue::Int(axis)},
                      {"rounding", ir::AttrValue::Str(rounding)},
                      {"compute_dtype", ir::AttrValue::Str("None")},
                      {"out_dtype", ir::AttrValue::Str(out_dtype.ToString())}});
}

ir::Expr FoldIfConstant(const ir::Expr& e) {
  return passes::FoldConstantExpr(e);
}

}  // namespace relaypass::frontend::onnx_import
