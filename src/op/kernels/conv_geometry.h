// The geometry of one nn.conv2d call in NCHW / OIHW terms (conv2d.cc computes it from the
// arrays and attrs), shared by its kernels.
#pragma once

#include <algorithm>
#include <cstdint>

namespace relaypass::op::kernels {

struct ConvGeometry {
  int64_t batch, channels, height, width;  // data, NCHW
  int64_t out_channels, out_height, out_width;
  int64_t kernel_h, kernel_w;
  int64_t groups, in_per_group, out_per_group;
  int64_t stride_h, stride_w, dilation_h, dilation_w;
  int64_t pad_top, pad_left;
};

// The range [lo, hi] of output columns whose input column ow*stride + offset lies in [0, width).
inline void ValidRange(int64_t offset, int64_t stride, int64_t width, int64_t out_width,
                       int64_t* lo, int64_t* hi) {
  *lo = offset >= 0 ? 0 : (-offset + stride - 1) / stride;
  const int64_t last = width - 1 - offset;
  *hi = last < 0 ? -1 : std::min(out_width - 1, last / stride);
}

}  // namespace relaypass::op::kernels
