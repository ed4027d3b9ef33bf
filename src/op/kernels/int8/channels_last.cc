#include "channels_last.h"

#include <emmintrin.h>

namespace relaypass::op::kernels {

namespace {

// rows[r] holds 16 pixels of channel r; on return rows[p] holds 16 channels of pixel p.
inline void Transpose16x16(__m128i rows[16]) {
  __m128i b[16], c[16];
  for (int k = 0; k < 8; ++k) {  // b[k]: channels 2k, 2k + 1 of pixels 0-7; b[k + 8]: 8-15
    b[k] = _mm_unpacklo_epi8(rows[2 * k], rows[2 * k + 1]);
    b[k + 8] = _mm_unpackhi_epi8(rows[2 * k], rows[2 * k + 1]);
  }
  for (int k = 0; k < 4; ++k) {  // c[4q + k]: channels 4k..4k+3 of pixels 4q..4q+3
    c[k] = _mm_unpacklo_epi16(b[2 * k], b[2 * k + 1]);
    c[k + 4] = _mm_unpackhi_epi16(b[2 * k], b[2 * k + 1]);
    c[k + 8] = _mm_unpacklo_epi16(b[2 * k + 8], b[2 * k + 9]);
    c[k + 12] = _mm_unpackhi_epi16(b[2 * k + 8], b[2 * k + 9]);
  }
  for (int q = 0; q < 4; ++q) {
    // Channels 0-7 and 8-15 of pixels (4q, 4q + 1) and (4q + 2, 4q + 3).
    const __m128i low01 = _mm_unpacklo_epi32(c[4 * q], c[4 * q + 1]);
    const __m128i low23 = _mm_unpackhi_epi32(c[4 * q], c[4 * q + 1]);
    const __m128i high01 = _mm_unpacklo_epi32(c[4 * q + 2], c[4 * q + 3]);
    const __m128i high23 = _mm_unpackhi_epi32(c[4 * q + 2], c[4 * q + 3]);
    rows[4 * q] = _mm_unpacklo_epi64(low01, high01);
    rows[4 * q + 1] = _mm_unpackhi_epi64(low01, high01);
    rows[4 * q + 2] = _mm_unpacklo_epi64(low23, high23);
    rows[4 * q + 3] = _mm_unpackhi_epi64(low23, high23);
  }
}

void GatherBytes(const uint8_t* src, int64_t c0, int64_t c1, int64_t plane_stride, int64_t i0,
                 int64_t i1, int64_t pixel_stride, uint8_t* dst, int64_t dst_pitch, uint8_t flip) {
  for (int64_t i = i0; i < i1; ++i) {
    for (int64_t c = c0; c < c1; ++c) {
      dst[i * dst_pitch + c] = src[c * plane_stride + i * pixel_stride] ^ flip;
    }
  }
}

}  // namespace

void GatherChannelsLast(const uint8_t* src, int64_t channels, int64_t plane_stride, int64_t count,
                        int64_t pixel_stride, uint8_t* dst, int64_t dst_pitch, uint8_t flip) {
  if (pixel_stride != 1) {
    GatherBytes(src, 0, channels, plane_stride, 0, count, pixel_stride, dst, dst_pitch, flip);
    return;
  }
  const int64_t full_channels = channels / 16 * 16, full_pixels = count / 16 * 16;
  const __m128i flips = _mm_set1_epi8(static_cast<char>(flip));
  __m128i rows[16];
  for (int64_t i = 0; i < full_pixels; i += 16) {
    for (int64_t c = 0; c < full_channels; c += 16) {
      for (int r = 0; r < 16; ++r) {
        rows[r] =
            _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + (c + r) * plane_stride + i));
      }
      Transpose16x16(rows);
      for (int p = 0; p < 16; ++p) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + (i + p) * dst_pitch + c),
                         _mm_xor_si128(rows[p], flips));
      }
    }
  }
  GatherBytes(src, full_channels, channels, plane_stride, 0, full_pixels, 1, dst, dst_pitch, flip);
  GatherBytes(src, 0, channels, plane_stride, full_pixels, count, 1, dst, dst_pitch, flip);
}

void TapsFirst(const uint8_t* src, int64_t rows, int64_t channels, int64_t taps, uint8_t* dst) {
  const int64_t total = rows * channels * taps;
  for (int64_t o = 0; o < rows; ++o) {
    const uint8_t* in = src + o * channels * taps;
    uint8_t* out = dst + o * channels * taps;
    int64_t c = 0;
    // 16 bytes read from each channel's row: only while they stay inside src.
    for (; taps <= 16 && c + 16 <= channels && (o * channels + c + 15) * taps + 16 <= total;
         c += 16) {
      __m128i block[16];
      for (int j = 0; j < 16; ++j) {
        block[j] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + (c + j) * taps));
      }
      Transpose16x16(block);
      for (int64_t t = 0; t < taps; ++t) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + t * channels + c), block[t]);
      }
    }
    for (; c < channels; ++c) {
      for (int64_t t = 0; t < taps; ++t) out[t * channels + c] = in[c * taps + t];
    }
  }
}

void InterleaveFour(const uint8_t* src, int64_t plane_stride, int64_t k4, int64_t count,
                    uint8_t* dst) {
  for (int64_t q = 0; q < k4; ++q) {
    const uint8_t* rows = src + 4 * q * plane_stride;
    uint8_t* out = dst + 64 * q;
    if (count < 16) {
      for (int64_t i = 0; i < 16; ++i) {
        for (int64_t j = 0; j < 4; ++j) {
          out[4 * i + j] = i < count ? rows[j * plane_stride + i] : 0;
        }
      }
      continue;
    }
    auto load = [&](int64_t j) {
      return _mm_loadu_si128(reinterpret_cast<const __m128i*>(rows + j * plane_stride));
    };
    const __m128i c0 = load(0), c1 = load(1), c2 = load(2), c3 = load(3);
    // Pixels 0-7 and 8-15 as (c0, c1) and (c2, c3) byte pairs, then the pairs paired.
    const __m128i low01 = _mm_unpacklo_epi8(c0, c1), high01 = _mm_unpackhi_epi8(c0, c1);
    const __m128i low23 = _mm_unpacklo_epi8(c2, c3), high23 = _mm_unpackhi_epi8(c2, c3);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm_unpacklo_epi16(low01, low23));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 16), _mm_unpackhi_epi16(low01, low23));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 32), _mm_unpacklo_epi16(high01, high23));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 48), _mm_unpackhi_epi16(high01, high23));
  }
}

}  // namespace relaypass::op::kernels
