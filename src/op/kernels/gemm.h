// Row-major GEMM through OpenBLAS: C[M, N] = A[M, K] * B, where B is [K, N] or, with trans_b,
// [N, K] read transposed; with `accumulate`, C += A * B. Every BLAS call is counted in
// op::GetBlasStats() (relaypass/op/blas_stats.h).
//
// The evaluator threads products itself: C is cut into blocks of rows or of columns
// (GemmBlocks), each computed by one single-threaded OpenBLAS call, and the blocks are spread over
// support::ParallelFor. OpenBLAS is kept at one thread (set before each call): its threads would
// compete with ours, two threaded calls at once serialize on a lock inside it, and its result
// changes with its thread count (so did this evaluator's, before). The blocks depend on the
// shape alone, so the result is the same at any thread count.
#pragma once

#include <cstdint>
#include <functional>

namespace relaypass::op::kernels {

// Rows [row_begin, row_end) and columns [col_begin, col_end) of C.
struct GemmBlock {
  int64_t row_begin, row_end, col_begin, col_end;
};

// The number of blocks an m x n x k product is cut into, and block `i` of them: one block below
// about a million multiply-adds, else two halves of its rows (m > n) or of its columns, the
// first a multiple of 4. (So a product uses at most two threads: see kMaxBlocks in gemm.cc.)
int64_t GemmBlockCount(int64_t m, int64_t n, int64_t k);
GemmBlock GemmBlockAt(int64_t m, int64_t n, int64_t k, int64_t i);

// body(block) for each block of the product, over support::ParallelFor (in the calling thread
// when already inside a parallel region).
void ForEachGemmBlock(int64_t m, int64_t n, int64_t k,
                      const std::function<void(const GemmBlock&)>& body);

// One block of the product by one OpenBLAS call on one thread: C[rows, cols] = (or +=) A[rows, :]
// * B[:, cols]. a, b and c point at the whole matrices.
void GemmOneBlock(bool trans_b, const GemmBlock& block, int64_t k, const float* a, int64_t lda,
                  const float* b, int64_t ldb, float* c, int64_t ldc, bool accumulate);
void GemmOneBlock(bool trans_b, const GemmBlock& block, int64_t k, const double* a, int64_t lda,
                  const double* b, int64_t ldb, double* c, int64_t ldc, bool accumulate);

// The whole product, block by block (ForEachGemmBlock and GemmOneBlock).
void Gemm(bool trans_b, int64_t m, int64_t n, int64_t k, const float* a, int64_t lda,
          const float* b, int64_t ldb, float* c, int64_t ldc, bool accumulate = false);
void Gemm(bool trans_b, int64_t m, int64_t n, int64_t k, const double* a, int64_t lda,
          const double* b, int64_t ldb, double* c, int64_t ldc, bool accumulate = false);

}  // namespace relaypass::op::kernels
