#include "conv_panels.h"

#include <algorithm>
#include <cstring>

#include "kernel_util.h"
#include "relaypass/support/parallel.h"
#include "target_clones.h"

#if RELAYPASS_HAVE_AVX512_TARGET
#include <immintrin.h>
#endif

namespace relaypass::op::kernels {

namespace {

#if RELAYPASS_HAVE_AVX512_TARGET
// out[0, n) = in[0], in[stride], ... (stride 1 and 2 in vectors, others one by one).
RELAYPASS_AVX512_TARGET inline void CopyStrided(const float* in, int64_t stride, int64_t n,
                                                float* out) {
  if (stride == 1) {
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) _mm512_storeu_ps(out + i, _mm512_loadu_ps(in + i));
    if (i < n) {
      const __mmask16 m = static_cast<__mmask16>((1u << (n - i)) - 1);
      _mm512_mask_storeu_ps(out + i, m, _mm512_maskz_loadu_ps(m, in + i));
    }
  } else if (stride == 2) {
    const __m512i even =
        _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
    for (int64_t i = 0; i < n; i += 16) {
      // Elements in[2i, 2i + 2 * count - 1) are read: masked loads touch no others.
      const int64_t count = std::min<int64_t>(16, n - i), span = 2 * count - 1;
      const __mmask16 lo = static_cast<__mmask16>(span >= 16 ? 0xFFFF : (1u << span) - 1);
      const __mmask16 hi = static_cast<__mmask16>(span <= 16 ? 0 : (1u << (span - 16)) - 1);
      const __m512 a = _mm512_maskz_loadu_ps(lo, in + 2 * i);
      const __m512 b = _mm512_maskz_loadu_ps(hi, in + 2 * i + 16);
      const __mmask16 m = static_cast<__mmask16>(count == 16 ? 0xFFFF : (1u << count) - 1);
      _mm512_mask_storeu_ps(out + i, m, _mm512_permutex2var_ps(a, even, b));
    }
  } else {
    for (int64_t i = 0; i < n; ++i) out[i] = in[i * stride];
  }
}
#else
void CopyStrided(const float* in, int64_t stride, int64_t n, float* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = in[i * stride];
}
#endif

}  // namespace

ConvPanelSource::ConvPanelSource(const ConvGeometry& g, const float* src) : g_(g) {
  // The rows and columns the patches read, padding included.
  padded_h_ = (g.out_height - 1) * g.stride_h + (g.kernel_h - 1) * g.dilation_h + 1;
  padded_w_ = (g.out_width - 1) * g.stride_w + (g.kernel_w - 1) * g.dilation_w + 1;
  if (g.pad_top == 0 && g.pad_left == 0 && padded_h_ <= g.height && padded_w_ <= g.width) {
    planes_ = src;  // no padding read: the input as it is
    padded_h_ = g.height;
    padded_w_ = g.width;
    return;
  }
  padded_.assign(static_cast<size_t>(g.in_per_group * padded_h_ * padded_w_), 0.0f);
  // Input row ih lands on padded row ih + pad_top, column iw on iw + pad_left, where they fit.
  const int64_t rows = std::min(g.height, padded_h_ - g.pad_top);
  const int64_t cols = std::min(g.width, padded_w_ - g.pad_left);
  float* base = padded_.data();
  if (rows > 0 && cols > 0) {
    const int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(rows * cols, 1));
    support::ParallelFor(g.in_per_group, grain, [&](int64_t first, int64_t last) {
      for (int64_t c = first; c < last; ++c) {
        for (int64_t ih = 0; ih < rows; ++ih) {
          std::memcpy(base + (c * padded_h_ + ih + g.pad_top) * padded_w_ + g.pad_left,
                      src + (c * g.height + ih) * g.width, static_cast<size_t>(cols) * 4);
        }
      }
    });
  }
  planes_ = base;
}

RELAYPASS_AVX512_TARGET void ConvPanelSource::PatchRow(int64_t p, int64_t j0, int64_t nc,
                                                       float* row) const {
  const int64_t kw = p % g_.kernel_w, kh = p / g_.kernel_w % g_.kernel_h;
  const int64_t ci = p / (g_.kernel_w * g_.kernel_h);
  // tap[oh * stride_h * padded_w + ow * stride_w] is the input output (oh, ow) reads.
  const float* tap =
      planes_ + (ci * padded_h_ + kh * g_.dilation_h) * padded_w_ + kw * g_.dilation_w;
  int64_t oh = j0 / g_.out_width, ow = j0 % g_.out_width;
  for (int64_t done = 0; done < nc; ++oh, ow = 0) {
    const int64_t len = std::min(g_.out_width - ow, nc - done);
    CopyStrided(tap + oh * g_.stride_h * padded_w_ + ow * g_.stride_w, g_.stride_w, len,
                row + done);
    done += len;
  }
}

RELAYPASS_AVX512_TARGET void ConvPanelSource::Pack(int64_t k0, int64_t kc, int64_t j0, int64_t nc,
                                                   float* dst) const {
  constexpr int64_t kWidth = kPanelWidth, kRow = 512;
  // One patch row at a time into `row` (in L1), then its 32-column pieces into the panels.
  alignas(64) float row[kRow + kWidth];
  for (int64_t c0 = 0; c0 < nc; c0 += kRow) {
    const int64_t cols = std::min(kRow, nc - c0);
    std::fill(row + cols, row + cols + kWidth, 0.0f);
    for (int64_t p = 0; p < kc; ++p) {
      PatchRow(k0 + p, j0 + c0, cols, row);
      for (int64_t q = 0; q * kWidth < cols; ++q) {
        const int64_t panel = c0 / kWidth + q;
        std::memcpy(dst + (panel * kc + p) * kWidth, row + q * kWidth, sizeof(float) * kWidth);
      }
    }
  }
}

}  // namespace relaypass::op::kernels
