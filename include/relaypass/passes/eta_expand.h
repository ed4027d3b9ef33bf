// EtaExpand (TVM v0.13's src/relay/transforms/eta_expand.cc). With expand_global_var, every
// reference to a global function, in call position too, becomes
// `fn (%eta_expand_param, ...) { @f(%eta_expand_param, ...) }` (the parameters annotated as @f's);
// one function per global var, shared by its references (TVM's memoized mutator).
// expand_constructor (TVM: constructors not in call position become functions calling them) is
// not implemented yet and changes nothing.
#pragma once

#include "relaypass/transform/pass.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {

/// Module pass "EtaExpand", opt_level 1.
transform::Pass EtaExpand(bool expand_constructor = false, bool expand_global_var = false);
void RegisterEtaExpand(transform::PassRegistry& registry);

}  // namespace relaypass::passes
