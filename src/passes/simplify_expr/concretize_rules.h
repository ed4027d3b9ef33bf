// The rewrites of TVM v0.13's SimplifyExpr that make `*_like` and fill operators explicit:
// ConcretizeZerosLike/OnesLike/FullLike/ReshapeLike/CollapseSumLike/BroadcastToLike/
// CastLike and FullElementwise
// (src/relay/transforms/simplify_expr.cc). Each is a Rule for RewriteWithRules.
#pragma once

#include "rules.h"

namespace relaypass::passes::simplify {

// zeros_like(x) -> zeros(shape, dtype) when the result's shape is static; ones_like likewise.
Rule ConcretizeZerosLike();
Rule ConcretizeOnesLike();
// full_like(data, v) -> full(v, shape, dtype) when the result's shape is static.
Rule ConcretizeFullLike();
// reshape_like(data, like) -> reshape(data, shape) when the result's shape is static.
Rule ConcretizeReshapeLike();
// collapse_sum_like(data, like) -> collapse_sum_to(data, shape) (the shape as an int32 constant
// and the attribute) when the result's shape is static.
Rule ConcretizeCollapseSumLike();
// broadcast_to_like(data, like) -> broadcast_to(data, shape) when the result's shape is static.
Rule ConcretizeBroadcastToLike();
// cast_like(data, like) -> cast(data, like's dtype), whatever the shape.
Rule ConcretizeCastLike();
// A broadcast operator with a fill (full of a constant, ones, zeros or their *_like forms) as one
// argument takes the fill's scalar instead, when the other argument already has the result's type.
Rule FullElementwise();

}  // namespace relaypass::passes::simplify
