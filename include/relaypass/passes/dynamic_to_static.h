// DynamicToStatic (TVM v0.13's src/relay/transforms/dynamic_to_static.cc) rewrites dyn.* operators
// whose shape arguments are constants into their static forms. relaypass has no dyn.* operators,
// so what is left is the pass's last step, which TVM runs on every function: FoldConstant on the
// module holding the function, then type inference (DynamicToStaticMutator::PrepareInput).
#pragma once

#include "relaypass/transform/pass.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {

/// Function pass "DynamicToStatic", opt_level 2, no required passes.
transform::Pass DynamicToStatic();
void RegisterDynamicToStatic(transform::PassRegistry& registry);

}  // namespace relaypass::passes
