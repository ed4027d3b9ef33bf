#include "prepacked_panels.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "kernel_util.h"
#include "relaypass/support/parallel.h"

namespace relaypass::op::kernels {

namespace {
constexpr int64_t kWidth = PanelSource::kPanelWidth;
}  // namespace

void PrepackedPanels::Free::operator()(float* p) const {
  std::free(p);
}

PrepackedPanels::PrepackedPanels(int64_t n, int64_t k, const float* w, int64_t ldw) : n_(n), k_(k) {
  const int64_t panels = (n + kWidth - 1) / kWidth;
  const int64_t floats = std::max<int64_t>(panels * k * kWidth, 1);
  data_.reset(static_cast<float*>(std::aligned_alloc(64, static_cast<size_t>(floats) * 4)));
  if (!data_) Fail("out of memory for a prepacked dense weight");
  float* base = data_.get();
  support::ParallelFor(panels, 1, [&](int64_t first, int64_t last) {
    for (int64_t jb = first; jb < last; ++jb) {
      float* dst = base + jb * k * kWidth;
      const int64_t w_cols = std::min(kWidth, n - jb * kWidth);
      // Blocks of 64 depths keep the 32 source rows' lines in cache while they are transposed.
      for (int64_t p0 = 0; p0 < k; p0 += 64) {
        const int64_t p1 = std::min(k, p0 + 64);
        for (int64_t j = 0; j < kWidth; ++j) {
          if (j < w_cols) {
            const float* src = w + (jb * kWidth + j) * ldw;
            for (int64_t p = p0; p < p1; ++p) dst[p * kWidth + j] = src[p];
          } else {
            for (int64_t p = p0; p < p1; ++p) dst[p * kWidth + j] = 0.0f;
          }
        }
      }
    }
  });
}

void PrepackedPanels::Pack(int64_t k0, int64_t kc, int64_t j0, int64_t nc, float* dst) const {
  for (int64_t j = j0; j < j0 + nc; j += kWidth) {
    std::memcpy(dst, data_.get() + (j / kWidth * k_ + k0) * kWidth,
                static_cast<size_t>(kc * kWidth) * 4);
    dst += kc * kWidth;
  }
}

const float* PrepackedPanels::Prepacked(int64_t k0, int64_t j0, int64_t* panel_stride) const {
  *panel_stride = k_ * kWidth;
  return data_.get() + (j0 / kWidth * k_ + k0) * kWidth;
}

}  // namespace relaypass::op::kernels
