// CanonicalizeOps: rewrites nn.bias_add(x, b, axis=a) into add(x, expand_dims(b, axis=1,
// num_newaxis=ndim-a-1)) (no expand_dims when `a` is the last axis), so that later passes only
// see ops with layout rules (relay_semantics.md 3.7).
#pragma once

#include "relaypass/transform/pass.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {

/// Function pass "CanonicalizeOps", opt_level 3, requires InferType.
transform::Pass CanonicalizeOps();
void RegisterCanonicalizeOps(transform::PassRegistry& registry);

}  // namespace relaypass::passes
