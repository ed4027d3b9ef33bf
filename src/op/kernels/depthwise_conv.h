// Depthwise convolution (one input channel per group) for floating point, conv2d.cc's kernel for
// MobileNet-style layers.
#pragma once

#include <cstdint>

#include "conv_geometry.h"
#include "epilogue.h"

namespace relaypass::op::kernels {

// Output channels of image n: out[n, o] for the [C * m, 1, KH, KW] weight (output channel o reads
// input channel o / m), every element written; `epilogue` (float only, may be null) is applied to
// each output row. Channels are split over support::ParallelFor. T is float or double.
template <typename T>
void DepthwiseConv(const ConvGeometry& g, const T* data, const T* weight, T* out, int64_t n,
                   const Epilogue* epilogue);

}  // namespace relaypass::op::kernels
