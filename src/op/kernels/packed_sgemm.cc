#include "packed_sgemm.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "kernel_util.h"
#include "relaypass/support/parallel.h"

#include "target_clones.h"

#if RELAYPASS_HAVE_AVX512_TARGET
#include <immintrin.h>
#endif

namespace relaypass::op::kernels {

namespace {

// The register block: kMR rows of A by kNR columns of B (two 16-float vectors).
constexpr int64_t kMR = 14;
constexpr int64_t kNR = PanelSource::kPanelWidth;
// Cache blocks: a KC x NR sliver of packed B (32 KB) stays in L1 while the MC x KC block of
// packed A (112 KB) comes from L2; the KC x NC block of packed B (512 KB) stays in L2 / L3.
constexpr int64_t kKC = 256;
constexpr int64_t kMC = 8 * kMR;
constexpr int64_t kNC = 512;

float* AlignedFloats(int64_t count) {
  auto* p = static_cast<float*>(std::aligned_alloc(
      64, static_cast<size_t>((std::max<int64_t>(count, 1) * 4 + 63) / 64 * 64)));
  if (!p) Fail("out of memory for a GEMM packing buffer");
  return p;
}

}  // namespace

void PackedA::Free::operator()(float* p) const {
  std::free(p);
}

PackedA::PackedA(int64_t m, int64_t k, const float* a, int64_t lda)
    : m_(m), k_(k), row_blocks_((m + kMR - 1) / kMR) {
  data_.reset(AlignedFloats(row_blocks_ * kMR * k));
  float* base = data_.get();
  // Row block rb of depth block k0 sits at k0 * (row_blocks * kMR) + rb * kc * kMR.
  support::ParallelFor(row_blocks_, 8, [&](int64_t first, int64_t last) {
    for (int64_t k0 = 0; k0 < k; k0 += kKC) {
      const int64_t kc = std::min(kKC, k - k0);
      for (int64_t rb = first; rb < last; ++rb) {
        float* dst = base + k0 * row_blocks_ * kMR + rb * kc * kMR;
        const int64_t r = std::min(kMR, m - rb * kMR);
        for (int64_t i = 0; i < r; ++i) {
          const float* src = a + (rb * kMR + i) * lda + k0;
          for (int64_t p = 0; p < kc; ++p) dst[p * kMR + i] = src[p];
        }
        for (int64_t i = r; i < kMR; ++i) {
          for (int64_t p = 0; p < kc; ++p) dst[p * kMR + i] = 0.0f;
        }
      }
    }
  });
}

const float* PackedA::Sliver(int64_t k0, int64_t row_block) const {
  const int64_t kc = std::min(kKC, k_ - k0);
  return data_.get() + k0 * row_blocks_ * kMR + row_block * kc * kMR;
}

#if RELAYPASS_HAVE_AVX512_TARGET

namespace {

// A 64-byte aligned float buffer that only grows.
class PackBuffer {
 public:
  float* Get(int64_t floats) {
    if (floats > size_) {
      data_.reset(AlignedFloats(floats));
      size_ = floats;
    }
    return data_.get();
  }

 private:
  struct Free {
    void operator()(float* p) const { std::free(p); }
  };
  std::unique_ptr<float, Free> data_;
  int64_t size_ = 0;
};

// Rows [0, kc) by columns [0, cols) of b as panels.
RELAYPASS_AVX512_TARGET void PackRows(const float* b, int64_t ldb, int64_t kc, int64_t cols,
                                      float* dst) {
  for (int64_t jb = 0; jb < cols; jb += kNR) {
    const int64_t w = std::min(kNR, cols - jb);
    const float* src = b + jb;
    if (w == kNR) {
      for (int64_t p = 0; p < kc; ++p) {
        _mm512_store_ps(dst + p * kNR, _mm512_loadu_ps(src + p * ldb));
        _mm512_store_ps(dst + p * kNR + 16, _mm512_loadu_ps(src + p * ldb + 16));
      }
    } else {
      const __mmask16 m0 = static_cast<__mmask16>(w >= 16 ? 0xFFFF : (1u << w) - 1);
      const __mmask16 m1 = static_cast<__mmask16>(w <= 16 ? 0 : (1u << (w - 16)) - 1);
      for (int64_t p = 0; p < kc; ++p) {
        _mm512_store_ps(dst + p * kNR, _mm512_maskz_loadu_ps(m0, src + p * ldb));
        _mm512_store_ps(dst + p * kNR + 16, _mm512_maskz_loadu_ps(m1, src + p * ldb + 16));
      }
    }
    dst += kc * kNR;
  }
}

// C[0, kRows) x [0, 32) (masked by m0 / m1) = (or +=) packed A sliver * packed B sliver. A
// sliver holds kMR rows; a block of fewer rows (the last of a matrix) uses its first kRows.
template <int kRows>
RELAYPASS_AVX512_TARGET void MicroKernel(int64_t kc, const float* ap, const float* bp, float* c,
                                         int64_t ldc, __mmask16 m0, __mmask16 m1, bool accumulate) {
  __m512 acc[kRows][2];
#pragma GCC unroll 14
  for (int i = 0; i < kRows; ++i) acc[i][0] = acc[i][1] = _mm512_setzero_ps();
  for (int64_t p = 0; p < kc; ++p) {
    const __m512 b0 = _mm512_load_ps(bp);
    const __m512 b1 = _mm512_load_ps(bp + 16);
#pragma GCC unroll 14
    for (int i = 0; i < kRows; ++i) {
      const __m512 x = _mm512_set1_ps(ap[i]);
      acc[i][0] = _mm512_fmadd_ps(x, b0, acc[i][0]);
      acc[i][1] = _mm512_fmadd_ps(x, b1, acc[i][1]);
    }
    ap += kMR;
    bp += kNR;
  }
#pragma GCC unroll 14
  for (int i = 0; i < kRows; ++i) {
    float* row = c + i * ldc;
    __m512 v0 = acc[i][0], v1 = acc[i][1];
    if (accumulate) {
      v0 = _mm512_add_ps(_mm512_maskz_loadu_ps(m0, row), v0);
      v1 = _mm512_add_ps(_mm512_maskz_loadu_ps(m1, row + 16), v1);
    }
    _mm512_mask_storeu_ps(row, m0, v0);
    _mm512_mask_storeu_ps(row + 16, m1, v1);
  }
}

using MicroKernelFn = void (*)(int64_t, const float*, const float*, float*, int64_t, __mmask16,
                               __mmask16, bool);

// The kernel for blocks of `rows` rows, 1 to kMR.
template <size_t... I>
constexpr std::array<MicroKernelFn, kMR> KernelTable(std::index_sequence<I...>) {
  return {&MicroKernel<static_cast<int>(I) + 1>...};
}
constexpr std::array<MicroKernelFn, kMR> kKernels =
    KernelTable(std::make_index_sequence<static_cast<size_t>(kMR)>());

struct Problem {
  const PackedA& a;
  const PanelSource& b;
  int64_t n;
  float* c;
  int64_t ldc;
  const Epilogue* epilogue;
  int64_t first_channel, offset;
};

// Rows [r0, r1) (r0 a multiple of kMR) by columns [c0, c1) of C.
RELAYPASS_AVX512_TARGET void Block(const Problem& q, int64_t r0, int64_t r1, int64_t c0,
                                   int64_t c1) {
  thread_local PackBuffer b_buffer;
  float* bp = b_buffer.Get(kKC * kNC);
  const int64_t k = q.a.depth();
  for (int64_t j0 = c0; j0 < c1; j0 += kNC) {
    const int64_t nc = std::min(kNC, c1 - j0);
    for (int64_t k0 = 0; k0 < k; k0 += kKC) {
      const int64_t kc = std::min(kKC, k - k0);
      int64_t panel_stride = kc * kNR;
      const float* panels = q.b.Prepacked(k0, j0, &panel_stride);
      if (!panels) {
        q.b.Pack(k0, kc, j0, nc, bp);
        panels = bp;
        panel_stride = kc * kNR;
      }
      for (int64_t i0 = r0; i0 < r1; i0 += kMC) {
        const int64_t mc = std::min(kMC, r1 - i0);
        for (int64_t jp = 0; jp < nc; jp += kNR) {
          const int64_t w = std::min(kNR, nc - jp);
          const __mmask16 m0 = static_cast<__mmask16>(w >= 16 ? 0xFFFF : (1u << w) - 1);
          const __mmask16 m1 = static_cast<__mmask16>(w <= 16 ? 0 : (1u << (w - 16)) - 1);
          for (int64_t ip = 0; ip < mc; ip += kMR) {
            kKernels[static_cast<size_t>(std::min(kMR, mc - ip) - 1)](
                kc, q.a.Sliver(k0, (i0 + ip) / kMR), panels + jp / kNR * panel_stride,
                q.c + (i0 + ip) * q.ldc + j0 + jp, q.ldc, m0, m1, k0 > 0);
          }
        }
        if (q.epilogue && k0 + kc == k) {
          for (int64_t i = i0; i < i0 + mc; ++i) {
            q.epilogue->Apply(q.c + i * q.ldc + j0, q.first_channel + i, q.offset + i * q.ldc + j0,
                              nc);
          }
        }
      }
    }
  }
}

// How C is cut over `threads` threads: by columns (whole panels) or by rows (whole kMR blocks).
// A column cut makes every thread stream all of packed A (m x k); a row cut makes every thread
// gather and pack all of B (k x n). So the cut goes across the longer side, unless that leaves the
// busiest thread a quarter more register blocks than the other cut would. Measured on resnet-50's
// convolutions at two threads (docs/performance.md): the layers at 7x7 and 14x14 outputs (n of
// 49 and 196, m of 256 to 2048) took 10-20 % less time cut by rows; those at 28x28 and 56x56
// (n of 784 and 3136, m of 64 to 512) the same or up to 25 % less cut by columns.
struct Split {
  bool by_columns;
  int64_t parts, unit, units;
};

Split ChooseSplit(int64_t m, int64_t n, int64_t threads) {
  const int64_t panels = (n + kNR - 1) / kNR, row_blocks = (m + kMR - 1) / kMR;
  const Split columns{true, std::min(threads, panels), kNR, panels};
  const Split rows{false, std::min(threads, row_blocks), kMR, row_blocks};
  const int64_t busiest_by_columns = (panels + threads - 1) / threads * row_blocks;
  const int64_t busiest_by_rows = (row_blocks + threads - 1) / threads * panels;
  if (m >= n) return 4 * busiest_by_rows <= 5 * busiest_by_columns ? rows : columns;
  return 4 * busiest_by_columns <= 5 * busiest_by_rows ? columns : rows;
}

}  // namespace

bool PackedSgemmAvailable() {
  static const bool available = [] {
    const char* env = std::getenv("RELAYPASS_PACKED_SGEMM");
    if (env && std::strcmp(env, "0") == 0) return false;
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") != 0;
  }();
  return available;
}

void PackedSgemm(const PackedA& a, const PanelSource& b, int64_t n, float* c, int64_t ldc,
                 const Epilogue* epilogue, int64_t first_channel, int64_t offset) {
  const int64_t m = a.rows(), k = a.depth();
  if (m <= 0 || n <= 0) return;
  if (k <= 0) {
    for (int64_t i = 0; i < m; ++i) {
      std::fill(c + i * ldc, c + i * ldc + n, 0.0f);
      if (epilogue) epilogue->Apply(c + i * ldc, first_channel + i, offset + i * ldc, n);
    }
    return;
  }
  const Problem q{a, b, n, c, ldc, epilogue, first_channel, offset};
  // Below about a million multiply-adds, one thread: the second's packing would cost more.
  const bool small = m * n * k < (int64_t{1} << 20);
  const Split split = ChooseSplit(m, n, small ? 1 : support::NumThreads());
  support::ParallelFor(split.parts, 1, [&](int64_t first, int64_t last) {
    for (int64_t part = first; part < last; ++part) {
      const int64_t u0 = part * split.units / split.parts * split.unit;
      const int64_t u1 = (part + 1) * split.units / split.parts * split.unit;
      if (split.by_columns) {
        Block(q, 0, m, std::min(u0, n), std::min(u1, n));
      } else {
        Block(q, std::min(u0, m), std::min(u1, m), 0, n);
      }
    }
  });
}

void PackedSgemm(int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* b,
                 int64_t ldb, float* c, int64_t ldc, const Epilogue* epilogue,
                 int64_t first_channel, int64_t offset) {
  const PackedA packed(m, k, a, lda);
  PackedSgemm(packed, MatrixPanelSource(b, ldb), n, c, ldc, epilogue, first_channel, offset);
}

void MatrixPanelSource::Pack(int64_t k0, int64_t kc, int64_t j0, int64_t nc, float* dst) const {
  PackRows(b_ + k0 * ldb_ + j0, ldb_, kc, nc, dst);
}

#else  // !RELAYPASS_HAVE_AVX512_TARGET

bool PackedSgemmAvailable() {
  return false;
}

void MatrixPanelSource::Pack(int64_t, int64_t, int64_t, int64_t, float*) const {
  Fail("PackedSgemm: not available on this processor");
}

void PackedSgemm(const PackedA&, const PanelSource&, int64_t, float*, int64_t, const Epilogue*,
                 int64_t, int64_t) {
  Fail("PackedSgemm: not available on this processor");
}

void PackedSgemm(int64_t, int64_t, int64_t, const float*, int64_t, const float*, int64_t, float*,
                 int64_t, const Epilogue*, int64_t, int64_t) {
  Fail("PackedSgemm: not available on this processor");
}

#endif

}  // namespace relaypass::op::kernels
