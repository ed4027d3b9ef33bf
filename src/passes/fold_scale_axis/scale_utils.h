// Shape and constant analysis shared by both FoldScaleAxis directions (TVM's pattern_utils.h
// helpers of the same names).
#pragma once

#include <string_view>
#include <vector>

#include "message.h"
#include "relaypass/ir/expr.h"
#include "relaypass/ir/type.h"

namespace relaypass::passes::fold_scale_axis {

// The name of the operator `call` applies, or "" when the callee is not an operator.
std::string_view OpName(const ir::CallNode* call);

// The checked tensor type of `e`; PassError when type inference has not run on it.
const ir::TensorTypeNode& TensorTypeOf(const ir::Expr& e);

// True if `e` is a constant of float32/float64/int8/int32/uint8/uint32 whose elements are all
// >= 0, possibly under expand_dims, reshape, transpose, squeeze or repeat.
bool IsAllPositiveConstant(const ir::Expr& e);

// Whether `rhs` broadcasts onto `lhs` touching only `lhs_axes`: rhs has at most lhs's rank, its
// dims aligned to the right equal lhs's on `lhs_axes` and are 1 elsewhere. With `rhs_value`, a
// match replaces *rhs_value by the rhs squeezed down to the listed axes (a rank-0 rhs is
// broadcast to them instead, see the .cc). Note that a rank-0 rhs matches only when `rhs_value`
// is given, as in TVM.
bool MatchBroadcastToLeftAxes(const ir::TensorTypeNode& lhs, const ir::TensorTypeNode& rhs,
                              const AxesSet& lhs_axes, ir::Expr* rhs_value = nullptr);

// A per-channel vector laid out so that it broadcasts against a rank-`target_ndim` value whose
// channel is `axis`: expand_dims(v, axis=1, num_newaxis=target_ndim-axis-1), or `v` itself when
// the channel is the last axis.
ir::Expr ExpandBiasToMatchAxis(const ir::Expr& bias, int64_t target_ndim, int64_t axis);

// reshape(scale, newshape) with `shape`'s dims on `axes` and 1 elsewhere (for blocked layouts,
// whose channel spans two axes); null if one of those dims is unknown.
ir::Expr ReshapeToMatchAxis(const ir::Expr& scale, const std::vector<ir::Dim>& shape,
                            const AxesSet& axes);

// ReshapeToMatchAxis for several axes, ExpandBiasToMatchAxis for one.
ir::Expr ReshapeOrExpandToMatchAxis(const ir::Expr& scale, const std::vector<ir::Dim>& shape,
                                    const AxesSet& axes);

}  // namespace relaypass::passes::fold_scale_axis
