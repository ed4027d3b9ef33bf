// SimplifyExpr and SimplifyExprPostAlterOp: TVM v0.13's pattern rewrites
// (src/relay/transforms/simplify_expr.cc), for the operators relaypass has:
//   SimplifyAdd                     add(x, x) -> multiply(x, 2)
//   SimplifyRSqrt                   divide(n, sqrt(x)) -> multiply(n, rsqrt(x))
//   EliminateIdentity               x + 0, 0 + x, x * 1, 1 * x, x - 0, x / 1 (scalar constants)
//                                   -> x, when the result has x's type
//   SimplifyReshape                 reshape(reshape(x)) -> reshape(x) to the static result shape
//   SimplifyTranspose               two transposes / same-rank layout_transforms -> one transpose
//   SimplifyNoOpTranspose           identity transpose / layout_transform(A -> A) -> x
//   SimplifySameCast                cast to the input's own dtype -> x
//   SimplifyConsecutiveCast         cast(cast(x)) -> cast(x) when the first cast widens
//   SwitchAddMultiply               (x + c1) * c2 -> x * c2 + c1 * c2 (folded)
//   SimplifyAdjacentMultiplyOrAdd   (x * c1) * c2 -> x * (c1 * c2), the same for add
//   SimplifyClipAndConsecutiveCast  clip then casts whose dtype holds the clip interval -> clip
//   SimplifyClip                    clip covering the whole dtype range -> x
// applied in TVM's order and repeated as TVM's RewritePatterns does (simplify_expr/rewriter.h).
// Not here: the rewrites of operators relaypass lacks (zeros/ones/full and *_like ops,
// cast_like, collapse_sum_like, broadcast_to_like, contrib_reverse_reshape, the qnn.dequantize +
// argmax/argmin/argsort rewrites), SimplifyBinomial, and SimplifyTranspose's folding of
// rank-changing layout_transforms (such pairs are left as they are).
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
