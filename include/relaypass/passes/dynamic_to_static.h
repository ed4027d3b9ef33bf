// DynamicToStatic (TVM v0.13's src/relay/transforms/dynamic_to_static.cc) rewrites dyn.* operators
// whose shape arguments are constants (after FoldConstant) into their static forms, then folds
// constants and infers types again (DynamicToStaticMutator::PrepareInput), as TVM does for every
// function.
#pragma once

#include "relaypass/transform/pass.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {

/// Function pass "DynamicToStatic", opt_level 2, no required passes.
transform::Pass DynamicToStatic();
void RegisterDynamicToStatic(transform::PassRegistry& registry);

}  // namespace relaypass::passes
