// DeadCodeElimination: removes unused pure let-bindings and optionally inlines those used once
// (TVM v0.13 semantics, relay_semantics.md 3.10).
#pragma once

#include "relaypass/transform/pass.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {

/// Module pass "DeadCodeElimination", opt_level 1, requires InferType. A pure let-binding whose
/// variable is never used is removed; with `inline_once`, one used exactly once is substituted at
/// its use. `ignore_impurity` treats every binding as pure. Iterative: any let-chain length.
transform::Pass DeadCodeElimination(bool inline_once = false, bool ignore_impurity = false);
void RegisterDeadCodeElimination(transform::PassRegistry& registry);

}  // namespace relaypass::passes
