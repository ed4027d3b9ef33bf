// SimplifyExpr and SimplifyExprPostAlterOp: TVM v0.13's pattern rewrites
// (src/relay/transforms/simplify_expr.cc), for the operators relaypass has:
//   ConcretizeZerosLike / OnesLike  zeros_like(x) / ones_like(x) -> zeros / ones of the static
//                                   result shape (simplify_expr/concretize_rules.h)
//   ConcretizeFullLike / ReshapeLike  the same for full_like and reshape_like (applies once
//                                   relaypass has those operators)
//   ConcretizeCollapseSumLike       collapse_sum_like(x, y) -> collapse_sum_to(x, static shape)
//   ConcretizeBroadcastToLike       broadcast_to_like(x, y) -> broadcast_to(x, static shape)
//   ConcretizeCastLike              cast_like(x, y) -> cast(x, y's dtype)
//   SimplifyAdd                     add(x, x) -> multiply(x, 2)
//   SimplifyRSqrt                   divide(n, sqrt(x)) -> multiply(n, rsqrt(x))
//   EliminateIdentity               x + 0, 0 + x, x * 1, 1 * x, x - 0, x / 1 -> x, when the result
//                                   has x's type; 0 is a scalar constant, zeros() or
//                                   zeros_like(_), 1 a scalar constant, ones() or ones_like(_)
//   SimplifyReshape                 reshape(reshape(x)) -> reshape(x) to the static result shape
//                                   (either may be a contrib_reverse_reshape)
//   SimplifyTranspose               two transposes / same-rank layout_transforms -> one transpose
//   SimplifyNoOpTranspose           identity transpose / layout_transform(A -> A) -> x
//   SimplifySameCast                cast / cast_like to the input's own dtype -> x
//   SimplifyConsecutiveCast         cast(cast(x)) -> cast(x) when the first cast widens (either
//                                   may be a cast_like)
//   FullElementwise                 a broadcast op of x and full(c) / ones / zeros (or their
//                                   *_like forms) -> the op of x and the scalar, when x has the
//                                   result's type
//   SwitchAddMultiply               (x + c1) * c2 -> x * c2 + c1 * c2 (folded)
//   SimplifyAdjacentMultiplyOrAdd   (x * c1) * c2 -> x * (c1 * c2), the same for add
//   SimplifyClipAndConsecutiveCast  clip then casts whose dtype holds the clip interval -> clip
//   SimplifyClip                    clip covering the whole dtype range -> x
// applied in TVM's order and repeated as TVM's RewritePatterns does (simplify_expr/rewriter.h).
// Not here: the qnn.dequantize + argmax/argmin/argsort rewrites (no QNN yet), SimplifyBinomial, and
// SimplifyTranspose's folding of rank-changing layout_transforms (such pairs are left as they
// are).
#pragma once

#include "relaypass/transform/pass.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {

/// Function pass "SimplifyExpr", opt_level 0, requires InferType.
transform::Pass SimplifyExpr();
/// Function pass "SimplifyExprPostAlterOp", opt_level 0, requires InferType: EliminateIdentity,
/// SimplifyReshape, SimplifySameCast, SimplifyConsecutiveCast, SimplifyClipAndConsecutiveCast,
/// SimplifyClip.
transform::Pass SimplifyExprPostAlterOp();
void RegisterSimplifyExpr(transform::PassRegistry& registry);

}  // namespace relaypass::passes
