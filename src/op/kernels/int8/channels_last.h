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

/// A convolution weight's rows in taps-first order: dst[(o * taps + t) * channels + c] =
/// src[(o * channels + c) * taps + t] for o < rows (OIHW to OHWI, taps = KH * KW). Blocks of 16
/// channels by up to 16 taps go through the 16 x 16 transpose.
void TapsFirst(const uint8_t* src, int64_t rows, int64_t channels, int64_t taps, uint8_t* dst);

/// The int8 panels' block of 16 pixels (int8_gemm.h's Int8PanelsVnni): for q < k4,
/// dst[64 * q + 4 * i + j] = src[(4 * q + j) * plane_stride + i] for pixels i < count (at most
/// 16), 0 for i in [count, 16). Four channels' runs of 16 bytes interleaved in SSE2 registers.
void InterleaveFour(const uint8_t* src, int64_t plane_stride, int64_t k4, int64_t count,
                    uint8_t* dst);

}  // namespace relaypass::op::kernels
