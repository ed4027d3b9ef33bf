// SimplifyInference: rewrites inference-time ops into arithmetic (TVM v0.13 semantics):
// batch_norm(...).0 becomes scale/shift arithmetic, dropout(x).0 becomes x.
#pragma once

#include "relaypass/transform/pass.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {

/// Function pass "SimplifyInference", opt_level 0, requires InferType.
transform::Pass SimplifyInference();
void RegisterSimplifyInference(transform::PassRegistry& registry);

}  // namespace relaypass::passes
