// LambdaLift (TVM v0.13's src/relay/backend/vm/lambda_lift.cc): every nested, non-primitive
// function becomes a global function. One without free variables is lifted as it is and replaced
// by its global; one that captures variables is lifted as a `Closure=1` function of the captured
// variables (fresh, typed) returning the inner function, and replaced by a call of that global on
// the captured variables. A let-bound lambda that calls itself calls its lifted global instead.
// Globals are named "lifted_name" + a structural hash of the function, as TVM names them (the hash
// is relaypass's, so the digits differ from TVM's). Functions with a `Compiler` attribute are left
// alone. Reads the checked types of captured variables: run it on a typed module.
#pragma once

#include "relaypass/transform/pass.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {

/// Module pass "LambdaLift", opt_level 1.
transform::Pass LambdaLift();
void RegisterLambdaLift(transform::PassRegistry& registry);

}  // namespace relaypass::passes
