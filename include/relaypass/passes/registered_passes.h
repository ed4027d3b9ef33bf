// The library's passes and PassContext config options, as one explicit list each
// (src/passes/registered_passes.cc). src/builtins installs them into the process-wide registries;
// a program may also fill a registry of its own with them.
#pragma once

#include "relaypass/transform/pass_config.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {

/// Registers every pass of the library (InferType, PrintIR and the passes of src/passes).
void RegisterAllPasses(transform::PassRegistry& registry);

/// Registers the library's config options (relay.FuseOps.max_depth, ...).
void RegisterAllConfigOptions(transform::PassConfigRegistry& registry);

}  // namespace relaypass::passes
