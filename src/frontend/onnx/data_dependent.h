// Helpers of the converters whose results are sized by the data (NonMaxSuppression, Unique).
#pragma once

#include "relaypass/ir/expr.h"

namespace relaypass::frontend::onnx_import {

// TVM's relay.strided_slice(data, begin, end) with tensor arguments, as its Python wrapper
// builds it: begin wrapped into the data's extents (where / slice_like of shape_of), strides
// const([1]) and dyn.strided_slice, whose result has `?` extents.
ir::Expr DynamicStridedSlice(const ir::Expr& data, const ir::Expr& begin, const ir::Expr& end);

}  // namespace relaypass::frontend::onnx_import
