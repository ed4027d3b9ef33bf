// FuseOps: groups operator calls into `Primitive=1` functions along the post-dominator tree
// (TVM v0.13 semantics, relay_semantics.md 3.4).
#pragma once

#include "relaypass/transform/pass.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {

/// Function pass "FuseOps", opt_level 0, requires InferType. `fuse_opt_level` -1 uses the
/// PassContext's opt_level; 0 puts every call in its own function. The largest group size comes
/// from the config "relay.FuseOps.max_depth" (default 256), constant embedding from
/// "relay.FuseOps.link_params" (default false).
transform::Pass FuseOps(int fuse_opt_level = -1);
void RegisterFuseOps(transform::PassRegistry& registry);

}  // namespace relaypass::passes
