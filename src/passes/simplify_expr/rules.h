// The rewrites of TVM v0.13's SimplifyExpr (src/relay/transforms/simplify_expr.cc) that apply to
// relaypass's operators, each as a Rule for RewriteWithRules.
#pragma once

#include <vector>

#include "relaypass/pattern/rule_rewrite.h"

namespace relaypass::passes::simplify {

// The rules run on the pattern engine's rule rewriter (relaypass/pattern/rule_rewrite.h).
using Rule = pattern::RewriteRule;
using Match = pattern::RuleMatch;
using pattern::PatternRule;
using pattern::RewriteWithRules;

// TVM's SimplifyExpr composer, in its order (all 24 of its rewrites).
std::vector<Rule> SimplifyExprRules();
// TVM's SimplifyExprPostAlterOp composer: EliminateIdentity, SimplifyReshape, SimplifySameCast,
// SimplifyConsecutiveCast, SimplifyClipAndConsecutiveCast, SimplifyClip.
std::vector<Rule> PostAlterOpRules();

// The number of rewrites in TVM's composers (their callback budget: 100 runs).
constexpr int kTvmSimplifyExprCallbacks = 24;
constexpr int kTvmPostAlterOpCallbacks = 6;

}  // namespace relaypass::passes::simplify
