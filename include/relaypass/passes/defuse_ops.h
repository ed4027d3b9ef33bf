// DefuseOps (TVM v0.13's src/relay/transforms/defuse_ops.cc): the inverse of FuseOps. Every call
// of a function literal (a fused primitive function) is replaced by the function's body with its
// parameters, matched by name as TVM does, replaced by the call's arguments.
#pragma once

#include "relaypass/transform/pass.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {

/// Function pass "DefuseOps", opt_level 3, requires InferType. PassError if a called function
/// has two parameters of one name (TVM's check).
transform::Pass DefuseOps();
void RegisterDefuseOps(transform::PassRegistry& registry);

}  // namespace relaypass::passes
