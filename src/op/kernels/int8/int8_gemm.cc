// The int8 GEMM's driver: packs the operands as the variants read them (int8_tiles.h), picks the
// variant's entry point and splits the rows over support::ParallelFor.
#include "int8_gemm.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "../kernel_util.h"
#include "relaypass/support/parallel.h"

extern "C" {
#define RELAYPASS_DECLARE_INT8_VARIANT(isa)                                                      \
  void relaypass_int8_gemm_u8s8_##isa(const uint8_t*, const int8_t*, int64_t, int64_t, int64_t,  \
                                      int32_t*, int64_t, int64_t);                               \
  void relaypass_int8_gemm_u8u8_##isa(const uint8_t*, const uint8_t*, int64_t, int64_t, int64_t, \
                                      int32_t*, int64_t, int64_t);
RELAYPASS_DECLARE_INT8_VARIANT(sse2)
RELAYPASS_DECLARE_INT8_VARIANT(ssse3)
RELAYPASS_DECLARE_INT8_VARIANT(avx2)
RELAYPASS_DECLARE_INT8_VARIANT(avx512bw)
RELAYPASS_DECLARE_INT8_VARIANT(avx512vnni)
#undef RELAYPASS_DECLARE_INT8_VARIANT
void relaypass_int8_panels_u8s8_avx512vnni(const uint8_t*, const int8_t*, int64_t, int64_t, int64_t,
                                           int32_t*, int64_t);
void relaypass_int8_panels_epilogue_u8s8_avx512vnni(const uint8_t*, const int8_t*, int64_t, int64_t,
                                                    int64_t, void*, int64_t,
                                                    const RelaypassInt8Epilogue*, int64_t);
}

namespace relaypass::op::kernels {

namespace {

// As int8_tiles.h's kRowPad and kTileCols; rows are padded to 64 bytes (the widest step).
constexpr int64_t kRowPad = 4, kTileCols = 4, kDepthStep = 64;

using U8S8Entry = void (*)(const uint8_t*, const int8_t*, int64_t, int64_t, int64_t, int32_t*,
                           int64_t, int64_t);
using U8U8Entry = void (*)(const uint8_t*, const uint8_t*, int64_t, int64_t, int64_t, int32_t*,
                           int64_t, int64_t);

// One variant's entry points.
struct Variant {
  U8S8Entry u8s8;
  U8U8Entry u8u8;
};

Variant VariantFor(Int8Isa isa) {
  switch (isa) {
    case Int8Isa::kSse2:
      return {relaypass_int8_gemm_u8s8_sse2, relaypass_int8_gemm_u8u8_sse2};
    case Int8Isa::kSsse3:
      return {relaypass_int8_gemm_u8s8_ssse3, relaypass_int8_gemm_u8u8_ssse3};
    case Int8Isa::kAvx2:
      return {relaypass_int8_gemm_u8s8_avx2, relaypass_int8_gemm_u8u8_avx2};
    case Int8Isa::kAvx512bw:
      return {relaypass_int8_gemm_u8s8_avx512bw, relaypass_int8_gemm_u8u8_avx512bw};
    case Int8Isa::kAvx512vnni:
      return {relaypass_int8_gemm_u8s8_avx512vnni, relaypass_int8_gemm_u8u8_avx512vnni};
  }
  Fail("int8 GEMM: unknown instruction set");
}

int64_t RoundUp(int64_t v, int64_t step) {
  return (v + step - 1) / step * step;
}

// `rows` rows of `k` bytes from src (row pitch k) into rows of `depth` bytes, zero-filled past k
// and past the last row up to padded_rows; each byte xor `flip` (0x80 turns int8 into int8 + 128
// as uint8).
std::unique_ptr<uint8_t[]> Pack(const void* src, int64_t rows, int64_t k, int64_t padded_rows,
                                int64_t depth, uint8_t flip) {
  std::unique_ptr<uint8_t[]> out(new uint8_t[static_cast<size_t>(padded_rows * depth)]());
  const auto* s = static_cast<const uint8_t*>(src);
  support::ParallelFor(rows, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(k, 1)),
                       [&](int64_t begin, int64_t end) {
                         for (int64_t r = begin; r < end; ++r) {
                           uint8_t* d = out.get() + r * depth;
                           const uint8_t* row = s + r * k;
                           if (flip == 0) {
                             // k == 0 (an empty product) may come with a null source.
                             if (k > 0) std::memcpy(d, row, static_cast<size_t>(k));
                           } else {
                             for (int64_t p = 0; p < k; ++p) d[p] = row[p] ^ flip;
                           }
                         }
                       });
  return out;
}

void CheckHostRuns(Int8Isa isa) {
  if (!HostSupportsInt8Isa(isa)) {
    Fail(std::string("int8 GEMM: the module was built for ") + Int8IsaTitle(isa) +
         " (its target's -mcpu/-mattr) and this processor does not have " + Int8IsaTitle(isa) +
         " (TVM's code would stop on an illegal instruction); build for a target this "
         "processor runs");
  }
}

}  // namespace

int64_t Int8PackedDepth(int64_t k) {
  return RoundUp(std::max<int64_t>(k, 1), kDepthStep);
}
int64_t Int8PackedRows(int64_t m) {
  return RoundUp(m, kRowPad);
}

void Int8Gemm(Int8Isa isa, int64_t m, int64_t n, int64_t k, const void* x, bool x_signed,
              const void* w, bool w_signed, int32_t* c, int64_t row_stride, int64_t col_stride) {
  if (m == 0 || n == 0) {
    CheckHostRuns(isa);
    return;
  }
  const auto a = Pack(x, m, k, Int8PackedRows(m), Int8PackedDepth(k), x_signed ? 0x80 : 0);
  Int8GemmPackedX(isa, m, n, k, a.get(), x_signed, w, w_signed, c, row_stride, col_stride);
}

void Int8GemmPackedX(Int8Isa isa, int64_t m, int64_t n, int64_t k, const uint8_t* a, bool x_signed,
                     const void* w, bool w_signed, int32_t* c, int64_t row_stride,
                     int64_t col_stride) {
  CheckHostRuns(isa);
  if (m == 0 || n == 0) return;
  const Variant variant = VariantFor(isa);
  const int64_t depth = Int8PackedDepth(k);
  const int64_t row_tiles = Int8PackedRows(m) / kRowPad;
  // w is already in the packed layout when its rows need no padding (k a multiple of 64) and
  // their count none (n of whole tiles): the common case of a network's weights.
  std::unique_ptr<uint8_t[]> packed;
  const uint8_t* b = static_cast<const uint8_t*>(w);
  if (depth != k || n % kTileCols != 0) {
    packed = Pack(w, n, k, RoundUp(n, kTileCols), depth, 0);
    b = packed.get();
  }
  // Columns in blocks whose rows of w stay in the L2 cache while every row tile of the task
  // passes over them (w may be megabytes: without blocks each tile would stream all of it).
  const int64_t block_cols =
      std::max<int64_t>(kTileCols, (int64_t{192} << 10) / depth / kTileCols * kTileCols);
  // Each task: whole row tiles against every column. A tile's work is about kRowPad * n * depth
  // byte products.
  const int64_t grain = std::max<int64_t>(1, (int64_t{1} << 20) / (kRowPad * n * depth));
  support::ParallelFor(row_tiles, grain, [&](int64_t begin, int64_t end) {
    const int64_t i0 = begin * kRowPad;
    const int64_t rows = std::min(end * kRowPad, m) - i0;
    const uint8_t* a_rows = a + i0 * depth;
    for (int64_t j0 = 0; j0 < n; j0 += block_cols) {
      const int64_t cols = std::min(block_cols, n - j0);
      int32_t* c_block = c + i0 * row_stride + j0 * col_stride;
      const uint8_t* b_block = b + j0 * depth;
      if (w_signed) {
        variant.u8s8(a_rows, reinterpret_cast<const int8_t*>(b_block), depth, rows, cols, c_block,
                     row_stride, col_stride);
      } else {
        variant.u8u8(a_rows, b_block, depth, rows, cols, c_block, row_stride, col_stride);
      }
    }
  });
  if (x_signed) {
    // x + 128 was multiplied: take 128 * sum_p w[j, p] back (unsigned: wrapping, as int32 does).
    for (int64_t j = 0; j < n; ++j) {
      uint32_t sum = 0;
      for (int64_t p = 0; p < k; ++p) {
        const uint8_t byte = static_cast<const uint8_t*>(w)[j * k + p];
        sum += w_signed ? static_cast<uint32_t>(static_cast<int8_t>(byte)) : byte;
      }
      const uint32_t correction = sum * 128u;
      for (int64_t i = 0; i < m; ++i) {
        int32_t& out = c[i * row_stride + j * col_stride];
        out = static_cast<int32_t>(static_cast<uint32_t>(out) - correction);
      }
    }
  }
}

void Int8PanelsVnni(const uint8_t* panels, const int8_t* w, int64_t k4, int64_t pixels,
                    int64_t rows, int32_t* y, int64_t y_row_stride) {
  CheckHostRuns(Int8Isa::kAvx512vnni);
  if (pixels <= 0 || rows <= 0) return;
  relaypass_int8_panels_u8s8_avx512vnni(panels, w, k4, pixels, rows, y, y_row_stride);
}

bool Int8PanelEpilogueRuns() {
  static const bool runs =
      HostSupportsInt8Isa(Int8Isa::kAvx512vnni) && __builtin_cpu_supports("avx512dq");
  return runs;
}

void Int8PanelsVnniEpilogue(const uint8_t* panels, const int8_t* w, int64_t k4, int64_t pixels,
                            int64_t rows, void* y, int64_t y_row_stride,
                            const RelaypassInt8Epilogue* epilogue, int64_t first_channel) {
  if (!Int8PanelEpilogueRuns()) {
    Fail("int8 GEMM: the panel epilogue needs AVX-512 VNNI and AVX-512DQ");
  }
  if (pixels <= 0 || rows <= 0) return;
  relaypass_int8_panels_epilogue_u8s8_avx512vnni(panels, w, k4, pixels, rows, y, y_row_stride,
                                                 epilogue, first_channel);
}

}  // namespace relaypass::op::kernels
