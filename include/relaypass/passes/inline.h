// Inline (TVM v0.13's src/relay/transforms/inline.cc): global functions marked `Inline=1` are
// inlined into their callers, callees before callers (reverse topological order of the call
// graph), and removed once nothing references them. A function is inlined only if it is not
// recursive and (by then) references no other global function. A call is replaced by the
// callee's body with the parameters bound to the arguments (a call to the function itself when
// it has a `Compiler` or `Extern` attribute); a reference outside call position by a copy of the
// function. Entry functions (referenced by none) stay even if marked.
#pragma once

#include "relaypass/transform/pass.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {

/// Module pass "Inline", opt_level 1. (TVM's PassInfo is named "InlineGlobals"; relaypass's
/// carries the registered name.)
transform::Pass Inline();
void RegisterInline(transform::PassRegistry& registry);

}  // namespace relaypass::passes
