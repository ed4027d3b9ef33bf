// Row-major GEMM through OpenBLAS: C[M, N] = A[M, K] * B, where B is [K, N] or, with trans_b,
// [N, K] read transposed; with `accumulate`, C += A * B. Every call is counted in
// eval::GetBlasStats().
#pragma once

#include <cstdint>

namespace relaypass::op::kernels {

void Gemm(bool trans_b, int64_t m, int64_t n, int64_t k, const float* a, int64_t lda,
          const float* b, int64_t ldb, float* c, int64_t ldc, bool accumulate = false);
void Gemm(bool trans_b, int64_t m, int64_t n, int64_t k, const double* a, int64_t lda,
          const double* b, int64_t ldb, double* c, int64_t ldc, bool accumulate = false);

}  // namespace relaypass::op::kernels
