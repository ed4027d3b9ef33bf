// Reference results too degenerate to verify anything against: a comparison with them passes for
// many wrong results, so a check made against one is a warning, not a pass.
#pragma once

#include <string>

#include "relaypass/eval/value.h"

namespace relaypass::eval {

/// Why `reference` (a tensor or tuple of tensors that results are compared against) cannot tell a
/// correct result from a wrong one, or "" when it can. The first weak output tensor (numbered as
/// FlattenTensors numbers them) is named: one holding a NaN ("output 0 is NaN in 3 of 10 elements")
/// or one of two or more elements all equal ("output 1 is constant: all 10 elements are 0").
std::string WeakReference(const Value& reference);

}  // namespace relaypass::eval
