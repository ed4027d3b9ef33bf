// The one check of an operator call's result size against the memory budget, made from the
// call's checked type before its kernel runs: a result that cannot fit (its size overflows int64
// or exceeds the budget left) fails at once, before a kernel builds per-element tables or fills
// anything (nn.pad of 64 GiB used to run 13 s and take 4 GB before its output was allocated).
#pragma once

#include "relaypass/ir/type.h"

namespace relaypass::eval {

// Throws a ResourceError naming the result's shape and bytes when the tensors of `result_type`
// (a tensor type or a tuple of them; dimensions `?` are not counted) overflow int64 or need more
// than the memory budget has left. Does nothing for types it cannot size.
void CheckResultFitsBudget(const ir::Type& result_type);

}  // namespace relaypass::eval
