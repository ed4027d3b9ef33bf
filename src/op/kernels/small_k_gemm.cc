#include "small_k_gemm.h"

#include <algorithm>

#include "kernel_util.h"
#include "relaypass/support/parallel.h"
#include "target_clones.h"

namespace relaypass::op::kernels {

namespace {

// Eight floats as one value (GCC's vector extension: elementwise IEEE operations, lowered to
// two SSE registers in the baseline build and one AVX register in the AVX2 clone).
typedef float Float8 __attribute__((vector_size(32)));

constexpr int64_t kPanel = 256;  // columns per panel: k x 256 of B and m x 256 of C stay in cache

// One element by the definition, in the kernel's order.
inline float Dot(int64_t k, const float* a, const float* b, int64_t n) {
  float acc = 0.0f;
  for (int64_t p = 0; p < k; ++p) acc += a[p] * b[p * n];
  return acc;
}

// Columns [col, col + cols) of C: blocks of 4 rows x 16 columns in registers, the rest by Dot.
RELAYPASS_AVX2_CLONES
void Panel(int64_t m, int64_t n, int64_t k, const float* a, const float* b, float* c, int64_t col,
           int64_t cols) {
  const int64_t wide_end = col + cols / 16 * 16;
  const int64_t row_end = m / 4 * 4;
  for (int64_t i = 0; i < row_end; i += 4) {
    const float* a0 = a + i * k;
    for (int64_t j = col; j < wide_end; j += 16) {
      Float8 c00 = {}, c01 = {}, c10 = {}, c11 = {}, c20 = {}, c21 = {}, c30 = {}, c31 = {};
      for (int64_t p = 0; p < k; ++p) {
        Float8 b0, b1;
        __builtin_memcpy(&b0, b + p * n + j, sizeof b0);
        __builtin_memcpy(&b1, b + p * n + j + 8, sizeof b1);
        const float x0 = a0[p], x1 = a0[k + p], x2 = a0[2 * k + p], x3 = a0[3 * k + p];
        c00 += x0 * b0;
        c01 += x0 * b1;
        c10 += x1 * b0;
        c11 += x1 * b1;
        c20 += x2 * b0;
        c21 += x2 * b1;
        c30 += x3 * b0;
        c31 += x3 * b1;
      }
      float* r = c + i * n + j;
      __builtin_memcpy(r, &c00, sizeof c00);
      __builtin_memcpy(r + 8, &c01, sizeof c01);
      __builtin_memcpy(r + n, &c10, sizeof c10);
      __builtin_memcpy(r + n + 8, &c11, sizeof c11);
      __builtin_memcpy(r + 2 * n, &c20, sizeof c20);
      __builtin_memcpy(r + 2 * n + 8, &c21, sizeof c21);
      __builtin_memcpy(r + 3 * n, &c30, sizeof c30);
      __builtin_memcpy(r + 3 * n + 8, &c31, sizeof c31);
    }
    for (int64_t r = i; r < i + 4; ++r) {
      for (int64_t j = wide_end; j < col + cols; ++j) c[r * n + j] = Dot(k, a + r * k, b + j, n);
    }
  }
  for (int64_t r = row_end; r < m; ++r) {
    for (int64_t j = col; j < col + cols; ++j) c[r * n + j] = Dot(k, a + r * k, b + j, n);
  }
}

}  // namespace

void SmallKGemm(int64_t m, int64_t n, int64_t k, const float* a, const float* b, float* c,
                const Epilogue* epilogue, int64_t first_channel, int64_t offset) {
  // About kPanel columns a panel, an even number of panels (two threads get equal shares), each
  // a whole number of 16-column blocks but for the last (784 columns: 208, 192, 192, 192).
  int64_t panels = (n + kPanel - 1) / kPanel;
  if (panels > 1 && panels % 2 == 1) ++panels;
  const int64_t blocks = (n + 15) / 16;
  panels = std::min(panels, blocks);
  auto edge = [&](int64_t i) { return std::min(n, 16 * (i * blocks / panels)); };
  const int64_t per_grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(m * kPanel, 1));
  support::ParallelFor(panels, per_grain, [&](int64_t first, int64_t last) {
    for (int64_t panel = first; panel < last; ++panel) {
      const int64_t col = edge(panel);
      const int64_t cols = edge(panel + 1) - col;
      Panel(m, n, k, a, b, c, col, cols);
      if (!epilogue) continue;
      for (int64_t i = 0; i < m; ++i) {
        epilogue->Apply(c + i * n + col, first_channel + i, offset + i * n + col, cols);
      }
    }
  });
}

}  // namespace relaypass::op::kernels
