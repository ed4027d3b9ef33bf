// What the qnn lowerings share (TVM's src/relay/qnn/utils.h): reading constant scales and zero
// points, the dtype limits, constants, ExpandBiasToMatchAxis, the fixed-point multiplications
// and a requantize of an intermediate result.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "relaypass/ir/dtype.h"
#include "relaypass/ir/expr.h"
#include "relaypass/ir/type.h"

namespace relaypass::qnn {

using ir::DataType;
using ir::Expr;

// TVM's IsConstScalar: a Constant of rank 0.
bool IsConstScalar(const Expr& e);
// TVM's IsEqualScalar: two rank-0 constants of one dtype and value.
bool IsEqualScalar(const Expr& a, const Expr& b);
// The constant under `e`'s integer casts (the importers write zero points as cast(constant,
// int32)), or null.
const ir::ConstantNode* ConstantUnderCasts(const Expr& e);
// Whether `e` is a constant (under casts) whose every value is 0.
bool IsAllZeros(const Expr& e);
// The value of a constant with one element (a scale or zero point); ValueError naming `op` and
// `what` if `e` is not a constant or holds more than one value.
double ScalarValue(const Expr& e, const std::string& op, const std::string& what);
// Every value of a constant (per-channel scales); ValueError if `e` is not a constant.
std::vector<double> ConstValues(const Expr& e, const std::string& op, const std::string& what);

// The smallest and largest values of an integer dtype (TVM's GetQmin / GetQmax).
int64_t QMin(DataType dtype);
int64_t QMax(DataType dtype);

// A rank-0 constant, and a 1-D constant, of `dtype` (8-, 16-, 32- or 64-bit integers, float32 or
// float64).
Expr ScalarConst(DataType dtype, double value);
Expr VectorConst(DataType dtype, const std::vector<double>& values);

// TVM's ExpandBiasToMatchAxis for one axis: a 1-D tensor given trailing unit axes so that it
// broadcasts along `axis` of a rank-`ndim` tensor.
Expr ExpandToAxis(const Expr& vec, int ndim, int axis);

// The tensor type of a qnn argument (a lowering needs its shape or dtype); ValueError naming `op`
// when the type is missing.
const ir::TensorTypeNode& TensorTypeOf(const ir::Type& type, const std::string& op);

// TVM's GetFixedPointMultiplierShift: `multiplier` = significand * 2^(shift - 31), significand
// an int32 in [2^30, 2^31).
std::pair<int32_t, int32_t> FixedPointMultiplierShift(double multiplier);

// int32 `tensor` times `multipliers` (one value, or one per channel along `axis`) in fixed point,
// int32 result. "UPWARD" rounds halves up (TVM's fixed_point_multiply ops), "TONEAREST" away
// from zero (TVM's FixedPointMultiplyToNearest): int64 multiply, rounding offset, right shift.
Expr FixedPointMultiply(const Expr& tensor, const std::vector<double>& multipliers, int ndim,
                        int axis, const std::string& rounding);

// TVM's qnn Requantize helper as the binary ops and the matmuls use it: the requantize lowering
// of `data` (of type `data_type`) with the current requantize config's rounding and compute
// dtype.
Expr Requantize(const Expr& data, const ir::TensorTypeNode& data_type, const Expr& input_scale,
                const Expr& input_zero_point, const Expr& output_scale,
                const Expr& output_zero_point, DataType out_dtype, int axis = -1);

// The requantize lowering itself (TVM's RequantizeLower), rounding and compute dtype resolved.
Expr RequantizeLower(const Expr& data, const ir::TensorTypeNode& data_type, const Expr& input_scale,
                     const Expr& input_zero_point, const Expr& output_scale,
                     const Expr& output_zero_point, int axis, const std::string& rounding,
                     const std::string& compute_dtype, DataType out_dtype);

// TVM's RequantizeOrUpcast: requantized to the target parameters if they differ, else cast.
Expr RequantizeOrUpcast(const Expr& data, const ir::TensorTypeNode& data_type, const Expr& scale,
                        const Expr& zero_point, const Expr& target_scale,
                        const Expr& target_zero_point, int axis = -1);

// TVM's relay `round` (tir.round, llvm.round): halves away from zero, for a float32 or float64
// tensor; the lowerings emit the `round` op itself, as TVM's.
Expr RoundHalfAwayFromZero(const Expr& x, DataType dtype);

// Clipped to `dtype`'s range and cast to it (TVM's ConvertDtype).
Expr ClipAndCast(const Expr& data, DataType dtype);

}  // namespace relaypass::qnn
