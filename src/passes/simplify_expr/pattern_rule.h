// SimplifyExpr rules written as TVM writes them: a dataflow pattern matched by src/pattern's
// matcher (TVM's DFPatternMatcher: commutative add/multiply, a pattern node used twice matches one
// expression) and a callback, run by RewriteWithRules like the hand-matched rules.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "relaypass/pattern/pattern.h"
#include "rewriter.h"

namespace relaypass::passes::simplify {

/// A rule from `pattern`, its roots (Rule::roots) read from it (pattern::RootOps), and each node
/// checked with pattern::MightMatch before the matcher runs. The callback sees, for each of
/// `captures` in order, the rewritten expression it matched, or a null Expr when the matched
/// alternative does not use it. The calls the pattern matched below the root are the match's
/// inner nodes (used only inside the match, as TVM's grouper requires).
Rule PatternRule(std::string name, pattern::DFPattern pattern,
                 std::vector<pattern::DFPattern> captures,
                 std::function<ir::Expr(const ir::Expr& pre, const ir::Expr& post,
                                        const std::vector<ir::Expr>& captures)>
                     rewrite);

/// TVM's SimplifyBinomial: a*x*x + b*x*y + c*y*y (in any of TVM's arrangements) becomes
/// a * ((x + p*y) * (x + q*y)) when the discriminant b*b - 4*a*c is not negative.
Rule SimplifyBinomial();

/// TVM's SimplifyDQArgMax / ArgMin / ArgSort (`op` is argmax, argmin or argsort): the operator
/// applied to qnn.dequantize(x, scale, zero_point) is applied to x itself (dequantizing is
/// monotonic, so the indices are the same), with the call's attributes.
Rule SimplifyDQArgFunc(const std::string& op);

}  // namespace relaypass::passes::simplify
