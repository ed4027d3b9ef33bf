// ToBasicBlockNormalForm: binds to let variables only the expressions that are used from more
// than one scope (if branches, function bodies) in a way that lifts them into an enclosing
// scope, so that each basic block computes what it uses (TVM v0.13,
// src/relay/transforms/to_basic_block_normal_form.cc). Dataflow graphs without control flow come
// back structurally equal.
#pragma once

#include "relaypass/transform/pass.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {

/// Module pass "ToBasicBlockNormalForm", opt_level 1: converts every function without a
/// `Compiler` attribute. No InferType follows, so rebuilt nodes carry no checked types (as TVM).
transform::Pass ToBasicBlockNormalForm();
void RegisterToBasicBlockNormalForm(transform::PassRegistry& registry);

}  // namespace relaypass::passes
