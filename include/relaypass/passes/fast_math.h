// FastMath (TVM v0.13's src/relay/transforms/fast_math.cc): replaces exp, erf, tanh and
// nn.softmax by their fast approximations fast_exp, fast_erf, fast_tanh and nn.fast_softmax (the
// softmax keeps its attrs). The kernels are TOPI's approximations (src/op/kernels/fast_math.cc).
#pragma once

#include "relaypass/transform/pass.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {

/// Function pass "FastMath", opt_level 4, requires InferType.
transform::Pass FastMath();
void RegisterFastMath(transform::PassRegistry& registry);

}  // namespace relaypass::passes
