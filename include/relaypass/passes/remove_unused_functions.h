// RemoveUnusedFunctions: removes every global function not reachable (through calls or other
// references to its GlobalVar) from the entry functions (TVM v0.13, remove_unused_functions in
// src/relay/backend/vm/removed_unused_funcs.cc).
#pragma once

#include <string>
#include <vector>

#include "relaypass/transform/pass.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {

/// Module pass "RemoveUnusedFunctions", opt_level 1. An entry function the module does not
/// have is a PassError, as TVM's module lookup fails.
transform::Pass RemoveUnusedFunctions(std::vector<std::string> entry_functions = {"main"});
void RegisterRemoveUnusedFunctions(transform::PassRegistry& registry);

}  // namespace relaypass::passes
