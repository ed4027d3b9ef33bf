// Bytes of planar (channel-major) data laid out channels last, as the int8 GEMM's packed rows want
// them (one pixel's channels contiguous): the gather of the int8 convolution's patches.
#pragma once

#include <cstdint>

namespace relaypass::op::kernels {

/// dst[i * dst_pitch + c] = src[c * plane_stride + i * pixel_stride] ^ flip for pixels i in
/// [0, count) and channels c in [0, channels). Pixel stride 1 goes through 16 x 16 byte
/// transposes in SSE2 registers; other strides byte by byte.
void GatherChannelsLast(const uint8_t* src, int64_t channels, int64_t plane_stride, int64_t count,
                        int64_t pixel_stride, uint8_t* dst, int64_t dst_pitch, uint8_t flip);

}  // namespace relaypass::op::kernels
