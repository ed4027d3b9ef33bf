// The loop every int8 GEMM variant shares (isa/gemm_*.cc include it, each compiled for its own
// instruction set): C[i, j] = sum_p a[i, p] * b[j, p] over packed operands, in tiles of
// Ops::kTileRows (2 or 4) rows of A by kTileCols rows of B, one vector accumulator per output
// element, summed
// across its lanes once the depth is done.
//
// Packed operands (int8_gemm.cc packs them): a is uint8, rows padded to a multiple of kRowPad,
// b is int8 or uint8, rows padded to a multiple of kTileCols, every row `depth` bytes (a
// multiple of 64, zeros past k). Only C's valid m x n elements are written, at
// c[i * row_stride + j * col_stride].
//
// Everything here is in an unnamed namespace and inlined into the variant's extern "C" entry
// points (flatten): no function compiled for one instruction set is shared with another file,
// and the entry point's assembly is the whole kernel (what get_source("asm") shows).
#pragma once

#include <cstdint>

namespace {

constexpr int64_t kRowPad = 4;  // a multiple of every Ops::kTileRows
constexpr int64_t kTileCols = 4;

// Ops: AVec/BVec (an operand vector as the product wants it), Acc, LoadA, LoadB, Zero, Dot
// (acc + the lane sums of products), Sum (the lanes of an accumulator added), kBytes (bytes of
// one row consumed per step), kTileRows (rows of A per tile: 2, or 4 where 32 vector registers
// hold 16 accumulators).
template <class Ops, class BType>
inline void Tiles(const uint8_t* a, const BType* b, int64_t depth, int64_t m, int64_t n, int32_t* c,
                  int64_t row_stride, int64_t col_stride) {
  constexpr int64_t kTileRows = Ops::kTileRows;
  static_assert(kRowPad % kTileRows == 0);
  for (int64_t i0 = 0; i0 < m; i0 += kTileRows) {
    for (int64_t j0 = 0; j0 < n; j0 += kTileCols) {
      typename Ops::Acc acc[kTileRows][kTileCols];
      for (int r = 0; r < kTileRows; ++r) {
        for (int s = 0; s < kTileCols; ++s) acc[r][s] = Ops::Zero();
      }
      const uint8_t* arow = a + i0 * depth;
      const BType* brow = b + j0 * depth;
      for (int64_t p = 0; p < depth; p += Ops::kBytes) {
        typename Ops::BVec bv[kTileCols];
        for (int s = 0; s < kTileCols; ++s) bv[s] = Ops::LoadB(brow + s * depth + p);
        for (int r = 0; r < kTileRows; ++r) {
          const typename Ops::AVec av = Ops::LoadA(arow + r * depth + p);
          for (int s = 0; s < kTileCols; ++s) acc[r][s] = Ops::Dot(acc[r][s], av, bv[s]);
        }
      }
      if constexpr (requires(const typename Ops::Acc* v, int32_t* out) { Ops::SumTile(v, out); }) {
        // All the tile's lane sums at once (a tree of shuffles), not one accumulator at a time.
        int32_t sums[kTileRows * kTileCols];
        Ops::SumTile(&acc[0][0], sums);
        for (int r = 0; r < kTileRows && i0 + r < m; ++r) {
          for (int s = 0; s < kTileCols && j0 + s < n; ++s) {
            c[(i0 + r) * row_stride + (j0 + s) * col_stride] = sums[r * kTileCols + s];
          }
        }
      } else {
        for (int r = 0; r < kTileRows && i0 + r < m; ++r) {
          for (int s = 0; s < kTileCols && j0 + s < n; ++s) {
            c[(i0 + r) * row_stride + (j0 + s) * col_stride] = Ops::Sum(acc[r][s]);
          }
        }
      }
    }
  }
}

}  // namespace

// The signature of every variant's entry points (int8_gemm.cc declares them).
#define RELAYPASS_INT8_GEMM_ENTRY(name, BType, Ops)                                              \
  extern "C" __attribute__((flatten)) void name(const uint8_t* a, const BType* b, int64_t depth, \
                                                int64_t m, int64_t n, int32_t* c,                \
                                                int64_t row_stride, int64_t col_stride) {        \
    Tiles<Ops>(a, b, depth, m, n, c, row_stride, col_stride);                                    \
  }
