// Exhaustiveness of match expressions (TVM's relay.analysis.unmatched_cases, match_exhaustion.cc).
#pragma once

#include <string>
#include <vector>

#include "relaypass/ir/module.h"

namespace relaypass::ir {

/// The patterns of values no clause of `match` matches (empty when the match is complete), as
/// TVM computes them: candidates start as one wildcard and are refined by the first clause that
/// needs a wildcard spelled out, using the ADT definitions of `mod`. Throws InternalError if a
/// constructor's ADT is not in `mod`, and Error for patterns nested deeper than 10,000 levels.
std::vector<Pattern> UnmatchedCases(const Match& match, const IRModule& mod);

/// A pattern as TVM prints it (`Cons(_, Nil)`, `(_, _)`, `%x`).
std::string PatternToString(const Pattern& pattern);

}  // namespace relaypass::ir
