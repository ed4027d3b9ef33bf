// The int8 GEMM for AVX-512 VNNI (TVM's cascadelake-class targets): uint8 x int8 by vpdpbusd,
// which adds four uint8 * int8 products into each int32 lane without saturation (exact);
// uint8 x uint8 by the widening product (avx512_common.h).
#include "avx512_common.h"
#include "int8_tiles.h"
#include "panel_epilogue.h"

#include <type_traits>

namespace {

struct VnniU8S8 {
  using Acc = __m512i;
  using AVec = __m512i;
  using BVec = __m512i;
  static constexpr int64_t kBytes = 64;
  static constexpr int64_t kTileRows = 4;
  static Acc Zero() { return _mm512_setzero_si512(); }
  static AVec LoadA(const uint8_t* p) { return _mm512_loadu_si512(p); }
  static BVec LoadB(const int8_t* p) { return _mm512_loadu_si512(p); }
  static Acc Dot(Acc acc, AVec a, BVec b) { return _mm512_dpbusd_epi32(acc, a, b); }
  static int32_t Sum(Acc v) { return SumLanes(v); }
  static void SumTile(const Acc* v, int32_t* out) { SumLanes16(v, out); }  // 4 x 4 tiles
};

// Tiles<VnniU8S8> written out: the 16 accumulators as named variables, which g++ keeps in
// registers across the depth loop (with an array it copied them between registers on every
// step: as many moves as products). The same tile order and sums as int8_tiles.h.
inline void TilesVnni(const uint8_t* a, const int8_t* b, int64_t depth, int64_t m, int64_t n,
                      int32_t* c, int64_t row_stride, int64_t col_stride) {
  for (int64_t i0 = 0; i0 < m; i0 += 4) {
    const uint8_t* a0 = a + i0 * depth;
    const uint8_t* a1 = a0 + depth;
    const uint8_t* a2 = a1 + depth;
    const uint8_t* a3 = a2 + depth;
    for (int64_t j0 = 0; j0 < n; j0 += kTileCols) {
      const int8_t* b0 = b + j0 * depth;
      const int8_t* b1 = b0 + depth;
      const int8_t* b2 = b1 + depth;
      const int8_t* b3 = b2 + depth;
      __m512i c00 = _mm512_setzero_si512(), c01 = c00, c02 = c00, c03 = c00;
      __m512i c10 = c00, c11 = c00, c12 = c00, c13 = c00;
      __m512i c20 = c00, c21 = c00, c22 = c00, c23 = c00;
      __m512i c30 = c00, c31 = c00, c32 = c00, c33 = c00;
      for (int64_t p = 0; p < depth; p += 64) {
        const __m512i w0 = _mm512_loadu_si512(b0 + p), w1 = _mm512_loadu_si512(b1 + p);
        const __m512i w2 = _mm512_loadu_si512(b2 + p), w3 = _mm512_loadu_si512(b3 + p);
        auto row = [&](const uint8_t* a, __m512i& d0, __m512i& d1, __m512i& d2, __m512i& d3) {
          const __m512i x = _mm512_loadu_si512(a + p);
          d0 = _mm512_dpbusd_epi32(d0, x, w0);
          d1 = _mm512_dpbusd_epi32(d1, x, w1);
          d2 = _mm512_dpbusd_epi32(d2, x, w2);
          d3 = _mm512_dpbusd_epi32(d3, x, w3);
        };
        row(a0, c00, c01, c02, c03);
        row(a1, c10, c11, c12, c13);
        row(a2, c20, c21, c22, c23);
        row(a3, c30, c31, c32, c33);
      }
      const __m512i acc[16] = {c00, c01, c02, c03, c10, c11, c12, c13,
                               c20, c21, c22, c23, c30, c31, c32, c33};
      int32_t sums[16];
      SumLanes16(acc, sums);
      for (int r = 0; r < 4 && i0 + r < m; ++r) {
        for (int s = 0; s < 4 && j0 + s < n; ++s) {
          c[(i0 + r) * row_stride + (j0 + s) * col_stride] = sums[r * 4 + s];
        }
      }
    }
  }
}

}  // namespace

extern "C" __attribute__((flatten)) void relaypass_int8_gemm_u8s8_avx512vnni(
    const uint8_t* a, const int8_t* b, int64_t depth, int64_t m, int64_t n, int32_t* c,
    int64_t row_stride, int64_t col_stride) {
  TilesVnni(a, b, depth, m, n, c, row_stride, col_stride);
}
RELAYPASS_INT8_GEMM_ENTRY(relaypass_int8_gemm_u8u8_avx512vnni, uint8_t, WideU8U8)

namespace {

// The panel kernel (see relaypass_int8_panels_u8s8_avx512vnni): kRows weight rows by kBlocks
// blocks of 16 pixels, one accumulator per row and block; each step of four products broadcasts
// a row's four weight bytes against a block's 16 x 4 data bytes.
// The tile's products: acc[r][b] = row r of the weights (4 * k4 bytes) against pixel block b.
template <int kRows, int kBlocks>
inline void ProductsAny(const uint8_t* panels, int64_t block_bytes, const int8_t* w, int64_t k4,
                        __m512i (&acc)[kRows][kBlocks]) {
  for (int r = 0; r < kRows; ++r) {
    for (int b = 0; b < kBlocks; ++b) acc[r][b] = _mm512_setzero_si512();
  }
  const int64_t pitch = 4 * k4;
  for (int64_t q = 0; q < k4; ++q) {
    __m512i data[kBlocks];
    for (int b = 0; b < kBlocks; ++b) {
      data[b] = _mm512_loadu_si512(panels + b * block_bytes + 64 * q);
    }
    for (int r = 0; r < kRows; ++r) {
      int32_t four;
      __builtin_memcpy(&four, w + r * pitch + 4 * q, 4);
      const __m512i weights = _mm512_set1_epi32(four);
      for (int b = 0; b < kBlocks; ++b) {
        acc[r][b] = _mm512_dpbusd_epi32(acc[r][b], data[b], weights);
      }
    }
  }
}

// The 8 x 2 tile (the common one) with its 16 accumulators as named variables: with an array
// g++ copied every accumulator between registers on every step, as many moves as products.
inline void Products8x2(const uint8_t* panels, int64_t block_bytes, const int8_t* w, int64_t k4,
                        __m512i (&acc)[8][2]) {
  const __m512i zero = _mm512_setzero_si512();
  __m512i a00 = zero, a01 = zero, a10 = zero, a11 = zero, a20 = zero, a21 = zero, a30 = zero,
          a31 = zero, a40 = zero, a41 = zero, a50 = zero, a51 = zero, a60 = zero, a61 = zero,
          a70 = zero, a71 = zero;
  const int64_t pitch = 4 * k4;
  const uint8_t* p1 = panels + block_bytes;
  for (int64_t q = 0; q < k4; ++q) {
    const __m512i d0 = _mm512_loadu_si512(panels + 64 * q);
    const __m512i d1 = _mm512_loadu_si512(p1 + 64 * q);
    auto row = [&](int r, __m512i& c0, __m512i& c1) {
      int32_t four;
      __builtin_memcpy(&four, w + r * pitch + 4 * q, 4);
      const __m512i weights = _mm512_set1_epi32(four);
      c0 = _mm512_dpbusd_epi32(c0, d0, weights);
      c1 = _mm512_dpbusd_epi32(c1, d1, weights);
    };
    row(0, a00, a01);
    row(1, a10, a11);
    row(2, a20, a21);
    row(3, a30, a31);
    row(4, a40, a41);
    row(5, a50, a51);
    row(6, a60, a61);
    row(7, a70, a71);
  }
  acc[0][0] = a00, acc[0][1] = a01, acc[1][0] = a10, acc[1][1] = a11;
  acc[2][0] = a20, acc[2][1] = a21, acc[3][0] = a30, acc[3][1] = a31;
  acc[4][0] = a40, acc[4][1] = a41, acc[5][0] = a50, acc[5][1] = a51;
  acc[6][0] = a60, acc[6][1] = a61, acc[7][0] = a70, acc[7][1] = a71;
}

struct NoEpilogue;

template <int kRows, int kBlocks, class Epilogue>
inline void PanelTile(const uint8_t* panels, int64_t block_bytes, const int8_t* w, int64_t k4,
                      void* y, int64_t y_row_stride, int64_t pixels, const Epilogue& epilogue,
                      int64_t row0, int out_bytes) {
  __m512i acc[kRows][kBlocks];
  if constexpr (kRows == 8 && kBlocks == 2) {
    Products8x2(panels, block_bytes, w, k4, acc);
  } else {
    ProductsAny<kRows, kBlocks>(panels, block_bytes, w, k4, acc);
  }
  for (int r = 0; r < kRows; ++r) {
    if constexpr (!std::is_same_v<Epilogue, NoEpilogue>) {
      for (int b = 0; b < kBlocks; ++b) acc[r][b] = epilogue(acc[r][b], row0 + r);
    }
    for (int b = 0; b < kBlocks; ++b) {
      const int64_t left = pixels - 16 * b;
      if (left <= 0) continue;
      const __mmask16 mask = left >= 16 ? __mmask16(0xffff) : __mmask16((1u << left) - 1);
      if (out_bytes == 1) {
        // The cast to uint8 / int8 keeps the low byte (vpmovdb truncates).
        _mm512_mask_cvtepi32_storeu_epi8(static_cast<uint8_t*>(y) + r * y_row_stride + 16 * b, mask,
                                         acc[r][b]);
      } else {
        _mm512_mask_storeu_epi32(static_cast<int32_t*>(y) + r * y_row_stride + 16 * b, mask,
                                 acc[r][b]);
      }
    }
  }
}

// Rows [0, rows) of the tile; `epilogue(v, row)` (or null) maps a row's results before they are
// stored, `out_bytes` bytes each.
template <int kBlocks, class Epilogue>
inline void PanelRows(const uint8_t* panels, int64_t block_bytes, const int8_t* w, int64_t k4,
                      int64_t rows, void* y, int64_t y_row_stride, int64_t pixels,
                      const Epilogue& epilogue, int out_bytes) {
  constexpr int kRows = 8;
  const int64_t pitch = 4 * k4;
  auto* out = static_cast<uint8_t*>(y);
  const int64_t row_bytes = y_row_stride * out_bytes;
  int64_t r0 = 0;
  for (; r0 + kRows <= rows; r0 += kRows) {
    PanelTile<kRows, kBlocks>(panels, block_bytes, w + r0 * pitch, k4, out + r0 * row_bytes,
                              y_row_stride, pixels, epilogue, r0, out_bytes);
  }
  for (; r0 < rows; ++r0) {
    PanelTile<1, kBlocks>(panels, block_bytes, w + r0 * pitch, k4, out + r0 * row_bytes,
                          y_row_stride, pixels, epilogue, r0, out_bytes);
  }
}

// The identity epilogue (the int32 results as they are).
struct NoEpilogue {
  __m512i operator()(__m512i v, int64_t) const { return v; }
};

template <class Epilogue>
inline void Panels(const uint8_t* panels, const int8_t* w, int64_t k4, int64_t pixels, int64_t rows,
                   void* y, int64_t y_row_stride, const Epilogue& epilogue, int out_bytes) {
  const int64_t block_bytes = 64 * k4;
  auto* out = static_cast<uint8_t*>(y);
  int64_t p0 = 0;
  for (; p0 + 16 < pixels; p0 += 32) {
    PanelRows<2>(panels + (p0 / 16) * block_bytes, block_bytes, w, k4, rows, out + p0 * out_bytes,
                 y_row_stride, pixels - p0, epilogue, out_bytes);
  }
  if (p0 < pixels) {
    PanelRows<1>(panels + (p0 / 16) * block_bytes, block_bytes, w, k4, rows, out + p0 * out_bytes,
                 y_row_stride, pixels - p0, epilogue, out_bytes);
  }
}

// v << count or v >> count (arithmetic) on int64 lanes, as Shift<int64_t> computes them: 0 for a
// count outside [0, 64).
__attribute__((target("avx512dq"))) inline __m512i ShiftLanes(__m512i v, int64_t count,
                                                              bool right) {
  if (count < 0 || count >= 64) return _mm512_setzero_si512();
  const __m128i c = _mm_cvtsi64_si128(count);
  return right ? _mm512_sra_epi64(v, c) : _mm512_sll_epi64(v, c);
}

// The steps of a RelaypassInt8Epilogue on one row (output channel) of int32 results.
struct ChannelEpilogue {
  const RelaypassInt8Epilogue* e;
  int64_t first_channel;

  __attribute__((target("avx512dq"))) __m512i operator()(__m512i v, int64_t row) const {
    const int64_t c = first_channel + row;
    for (int32_t i = 0; i < e->num_steps; ++i) {
      const RelaypassInt8EpilogueStep& s = e->steps[i];
      auto value = [&](int k) { return s.operand[k][c * s.stride[k]]; };
      switch (s.kind) {
        case RelaypassInt8EpilogueStep::kAdd:
          v = _mm512_add_epi32(v, _mm512_set1_epi32(static_cast<int32_t>(value(0))));
          break;
        case RelaypassInt8EpilogueStep::kSubtract:
          v = _mm512_sub_epi32(v, _mm512_set1_epi32(static_cast<int32_t>(value(0))));
          break;
        case RelaypassInt8EpilogueStep::kMaximum:
          v = _mm512_max_epi32(v, _mm512_set1_epi32(static_cast<int32_t>(value(0))));
          break;
        case RelaypassInt8EpilogueStep::kMinimum:
          v = _mm512_min_epi32(v, _mm512_set1_epi32(static_cast<int32_t>(value(0))));
          break;
        case RelaypassInt8EpilogueStep::kClip:
          v = _mm512_max_epi32(_mm512_min_epi32(v, _mm512_set1_epi32(s.hi)),
                               _mm512_set1_epi32(s.lo));
          break;
        case RelaypassInt8EpilogueStep::kFixedPoint: {
          const __m512i multiplier = _mm512_set1_epi64(value(0));
          const __m512i addend = _mm512_set1_epi64(value(1));
          const int64_t right = value(2), left = s.operand[3] ? value(3) : 0;
          __m512i half[2] = {_mm512_cvtepi32_epi64(_mm512_castsi512_si256(v)),
                             _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(v, 1))};
          for (__m512i& h : half) {
            h = ShiftLanes(h, left, false);
            h = _mm512_add_epi64(_mm512_mullo_epi64(h, multiplier), addend);
            h = ShiftLanes(h, right, true);
          }
          // int64 to int32 keeps the low half (vpmovqd truncates), as the cast does.
          v = _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(half[0])),
                                 _mm512_cvtepi64_epi32(half[1]), 1);
          break;
        }
        default:
          break;
      }
    }
    return v;
  }
};

}  // namespace

// y[r * y_row_stride + p] = sum_j w[r * 4 * k4 + j] * data(p, j) for rows r < rows and pixels
// p < pixels, where the data are packed in blocks of 16 pixels: block p / 16 at
// panels + (p / 16) * 64 * k4, bytes [q][p % 16][4] for the products 4q .. 4q + 3 (uint8; the
// weights int8). Exact int32 sums (vpdpbusd does not saturate).
extern "C" __attribute__((flatten)) void relaypass_int8_panels_u8s8_avx512vnni(
    const uint8_t* panels, const int8_t* w, int64_t k4, int64_t pixels, int64_t rows, int32_t* y,
    int64_t y_row_stride) {
  Panels(panels, w, k4, pixels, rows, y, y_row_stride, NoEpilogue(), 4);
}

// The same with `epilogue` applied to each row before it is stored (out_bytes per result); row r
// is output channel first_channel + r. Needs AVX-512DQ besides VNNI (int64 products).
extern "C" __attribute__((flatten, target("avx512dq"))) void
relaypass_int8_panels_epilogue_u8s8_avx512vnni(const uint8_t* panels, const int8_t* w, int64_t k4,
                                               int64_t pixels, int64_t rows, void* y,
                                               int64_t y_row_stride,
                                               const RelaypassInt8Epilogue* epilogue,
                                               int64_t first_channel) {
  Panels(panels, w, k4, pixels, rows, y, y_row_stride, ChannelEpilogue{epilogue, first_channel},
         epilogue->out_bytes);
}
