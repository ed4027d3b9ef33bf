// The rewrites of TVM v0.13's SimplifyExpr (src/relay/transforms/simplify_expr.cc) that apply to
// relaypass's operators, each as a Rule for RewriteWithRules.
#pragma once

#include <vector>

#include "rewriter.h"

namespace relaypass::passes::simplify {

// TVM's SimplifyExpr composer, in its order, without the rewrites of operators relaypass does
// not have (zeros/ones/full and their *_like forms, reshape_like, collapse_sum_like,
// broadcast_to_like, cast_like, contrib_reverse_reshape, qnn.dequantize with argmax/argmin/
// argsort) and without SimplifyBinomial.
std::vector<Rule> SimplifyExprRules();
// TVM's SimplifyExprPostAlterOp composer: EliminateIdentity, SimplifyReshape, SimplifySameCast,
// SimplifyConsecutiveCast, SimplifyClipAndConsecutiveCast, SimplifyClip.
std::vector<Rule> PostAlterOpRules();

// The number of rewrites in TVM's composers (their callback budget: 100 runs).
constexpr int kTvmSimplifyExprCallbacks = 24;
constexpr int kTvmPostAlterOpCallbacks = 6;

}  // namespace relaypass::passes::simplify
