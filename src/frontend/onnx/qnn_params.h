// What TVM's from_onnx does with the scales and zero points of ONNX's quantized operators
// (get_scalar, get_scalar_or_1d_tensor) and the qnn calls its converters build.
#pragma once

#include <string>

#include "context.h"
#include "relaypass/ir/expr.h"

namespace relaypass::frontend::onnx_import {

// TVM's get_scalar: an input known at import becomes a constant of `dtype` (its shape kept); one
// computed at run time must be a scalar or one element (squeezed), cast to `dtype`.
ir::Expr QnnScalar(const NodeContext& ctx, size_t i, ir::DataType dtype);
// TVM's get_scalar_or_1d_tensor: as QnnScalar, but a run-time rank-1 input keeps its shape (a
// per-channel scale or zero point).
ir::Expr QnnScalarOr1D(const NodeContext& ctx, size_t i, ir::DataType dtype);
// A quantization parameter that is absent (an omitted optional input): 0 as int32.
ir::Expr QnnZeroPoint(const NodeContext& ctx, size_t i);

// The qnn calls, with TVM's Python defaults (relay.qnn.op.quantize, ...).
ir::Expr QnnQuantize(ir::Expr data, ir::Expr scale, ir::Expr zero_point, int64_t axis,
                     ir::DataType out_dtype);
ir::Expr QnnDequantize(ir::Expr data, ir::Expr scale, ir::Expr zero_point, int64_t axis = -1);
ir::Expr QnnRequantize(ir::Expr data, ir::Expr input_scale, ir::Expr input_zero_point,
                       ir::Expr output_scale, ir::Expr output_zero_point, int64_t axis,
                       const std::string& rounding, ir::DataType out_dtype);

// TVM's fold_constant on a value of the converter: a constant expression (a cast of a constant,
// a product of constants) evaluated to one Constant; anything else as it is.
ir::Expr FoldIfConstant(const ir::Expr& e);

}  // namespace relaypass::frontend::onnx_import
