// CanonicalizeCast: an up-cast (to a type of more bits) used by several elementwise or broadcast
// calls is copied, one copy per further use, so that FuseOps can fuse each copy into its
// consumer instead of materialising the cast (TVM v0.13, src/relay/transforms/
// canonicalize_cast.cc). The first use, in the order TVM's recursive mutator reaches it, keeps
// the original.
#pragma once

#include "relaypass/transform/pass.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {

/// Function pass "CanonicalizeCast", opt_level 3, requires InferType.
transform::Pass CanonicalizeCast();
void RegisterCanonicalizeCast(transform::PassRegistry& registry);

}  // namespace relaypass::passes
