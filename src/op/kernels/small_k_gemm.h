// C = A * B in float for a small inner dimension k: 1x1 convolutions of few input channels and
// im2col of few (MobileNet's expansion layers and stems, whose outputs are the largest of the
// network). OpenBLAS does little arithmetic per output element there, and its result must then
// be passed over twice more (zeroed first, the epilogue after); this kernel writes C once, a panel
// of columns at a time, and applies the epilogue to each panel while it is in cache.
#pragma once

#include <cstdint>

#include "epilogue.h"

namespace relaypass::op::kernels {

// The largest k SmallKGemm is used for.
inline constexpr int64_t kSmallGemmMaxK = 32;

// C[m, n] = A[m, k] * B[k, n] (row-major; B and C with row pitch n), then `epilogue` (may be null)
// on C, whose row i is output channel first_channel + i and starts at element offset + i * n of
// the output. Each element is 0, then + a * b for each k in order (separate multiplies and adds),
// whatever the vector width or thread: the same bits with any thread count. Panels of columns are
// split over support::ParallelFor.
void SmallKGemm(int64_t m, int64_t n, int64_t k, const float* a, const float* b, float* c,
                const Epilogue* epilogue, int64_t first_channel, int64_t offset);

}  // namespace relaypass::op::kernels
