// SimplifyFCTranspose (TVM v0.13's src/relay/transforms/simplify_fc_transpose.cc): rewrites
// `nn.dense(x, transpose(w))` with `w` a variable named in `target_weight` into
// `nn.dense(x, %w.T)`, a new variable of the transposed shape (one per dense, as TVM makes
// them). The function's parameters become, as TVM computes them, its remaining free variables in
// order of use followed by the new `.T` variables (parameters no longer used are dropped).
#pragma once

#include <string>
#include <vector>

#include "relaypass/transform/pass.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {

/// Function pass "SimplifyFCTranspose", opt_level 4, requires DeadCodeElimination. PassError
/// for a transposed weight variable that `target_weight` does not name (TVM's check).
transform::Pass SimplifyFCTranspose(std::vector<std::string> target_weight);
void RegisterSimplifyFCTranspose(transform::PassRegistry& registry);

}  // namespace relaypass::passes
