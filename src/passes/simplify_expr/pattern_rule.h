// SimplifyExpr rules written as TVM writes them: a dataflow pattern matched by src/pattern's
// matcher (TVM's DFPatternMatcher: commutative add/multiply, a pattern node used twice matches one
// expression) and a callback, run by RewriteWithRules like the hand-matched rules.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "relaypass/pattern/pattern.h"
#include "rules.h"

namespace relaypass::passes::simplify {

/// TVM's SimplifyBinomial: a*x*x + b*x*y + c*y*y (in any of TVM's arrangements) becomes
/// a * ((x + p*y) * (x + q*y)) when the discriminant b*b - 4*a*c is not negative.
Rule SimplifyBinomial();

/// TVM's SimplifyDQArgMax / ArgMin / ArgSort (`op` is argmax, argmin or argsort): the operator
/// applied to qnn.dequantize(x, scale, zero_point) is applied to x itself (dequantizing is
/// monotonic, so the indices are the same), with the call's attributes.
Rule SimplifyDQArgFunc(const std::string& op);

}  // namespace relaypass::passes::simplify
