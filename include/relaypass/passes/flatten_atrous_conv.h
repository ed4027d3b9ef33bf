// FlattenAtrousConv: TVM v0.13 (src/relay/transforms/flatten_atrous_conv.cc) rewrites
// nn.space_to_batch_nd -> nn.conv2d -> nn.batch_to_space_nd into one nn.conv2d with dilation.
// relaypass has neither nn.space_to_batch_nd nor nn.batch_to_space_nd, so no relaypass program
// contains the pattern and the pass returns every function unchanged.
#pragma once

#include "relaypass/transform/pass.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {

/// Function pass "FlattenAtrousConv", opt_level 0, requires InferType.
transform::Pass FlattenAtrousConv();
void RegisterFlattenAtrousConv(transform::PassRegistry& registry);

}  // namespace relaypass::passes
