// The CombineParallel passes of TVM v0.13 (src/relay/transforms/combine_parallel_*.cc): parallel
// branches that start with the same operator on one input (and continue through the same
// elementwise calls) are computed by one combined call and sliced back apart. All three are
// level-4 function passes requiring InferType; relay.optimize runs them with
// min_num_branches=3. TVM names the conv2d pass's info "CombineParallelConv2d"; relaypass names
// it as it is registered, "CombineParallelConv2D".
#pragma once

#include <cstdint>

#include "relaypass/transform/pass.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {

/// conv2d (groups=1) branches -> one conv2d on weights concatenated along O, strided_slices.
transform::Pass CombineParallelConv2D(int64_t min_num_branches = 3);

/// dense branches -> one nn.batch_matmul of stacked inputs and weights, split + squeeze
/// (to_batch), or one dense on concatenated weights, strided_slices.
transform::Pass CombineParallelDense(int64_t min_num_branches = 3, bool to_batch = true);

/// batch_matmul branches -> one batch_matmul on weights concatenated along axis 1,
/// strided_slices.
transform::Pass CombineParallelBatchMatmul(int64_t min_num_branches = 3);

/// Registers the three passes.
void RegisterCombineParallel(transform::PassRegistry& registry);

}  // namespace relaypass::passes
