#include "gemm.h"

#include <cblas.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <ctime>
#include <limits>

#include "kernel_util.h"
#include "relaypass/op/blas_stats.h"
#include "relaypass/support/parallel.h"

namespace relaypass::op::kernels {

namespace {

std::atomic<bool> timing_enabled{false};
std::atomic<uint64_t> call_count{0};
std::atomic<uint64_t> nanoseconds{0};
std::atomic<uint64_t> cpu_nanoseconds{0};

uint64_t ThreadCpuNanoseconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000u + static_cast<uint64_t>(ts.tv_nsec);
}
std::atomic<uint64_t> flop_count{0};

blasint ToBlasInt(int64_t v) {
  if (v < 0 || v > std::numeric_limits<blasint>::max()) {
    Fail("GEMM dimension " + std::to_string(v) + " exceeds the BLAS integer range");
  }
  return static_cast<blasint>(v);
}

// Runs `call` and records it in the counters.
template <typename F>
void Counted(int64_t m, int64_t n, int64_t k, F&& call) {
  call_count.fetch_add(1, std::memory_order_relaxed);
  flop_count.fetch_add(static_cast<uint64_t>(2 * m * n * k), std::memory_order_relaxed);
  if (!timing_enabled.load(std::memory_order_relaxed)) {
    call();
    return;
  }
  const uint64_t cpu_start = ThreadCpuNanoseconds();
  const auto start = std::chrono::steady_clock::now();
  call();
  const auto elapsed = std::chrono::steady_clock::now() - start;
  cpu_nanoseconds.fetch_add(ThreadCpuNanoseconds() - cpu_start, std::memory_order_relaxed);
  nanoseconds.fetch_add(
      static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed).count()),
      std::memory_order_relaxed);
}

// Below twice this many multiply-adds a product is one block: a block is not worth its call and
// its own packing of the operand the blocks share (about 25 us of OpenBLAS on one core).
// MobileNet's classifier (1280 x 1000, 1.3 million) is split: whole, it would keep the second
// thread idle for about 1 % of a two-thread inference (an estimate from its size).
constexpr int64_t kBlockWork = int64_t{1} << 19;
// Two blocks, enough for the two threads the evaluator is measured at: at one thread they cost
// nothing measurable against one call (resnet-50: 118-123 ms CPU either way), while four cost
// 2.5 % and eight 8 % there, from packing the operand the blocks share again in every block.
constexpr int64_t kMaxBlocks = 2;
// Block edges at multiples of 4 rows or columns: 196 columns (MobileNet's 14 x 14 layers) split
// 100 / 96 (at 16, 112 / 84 kept one thread waiting).
constexpr int64_t kBlockAlign = 4;

// OpenBLAS at one thread (see gemm.h). Cheap when it already is: a read of its thread count.
void KeepBlasSingleThreaded() {
  if (openblas_get_num_threads() != 1) openblas_set_num_threads(1);
}

// One cblas call on the block.
void BlockCall(bool trans_b, const GemmBlock& blk, int64_t k, const float* a, int64_t lda,
               const float* b, int64_t ldb, float* c, int64_t ldc, bool accumulate) {
  const int64_t m = blk.row_end - blk.row_begin, n = blk.col_end - blk.col_begin;
  const float* b0 = b + (trans_b ? blk.col_begin * ldb : blk.col_begin);
  cblas_sgemm(CblasRowMajor, CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans, ToBlasInt(m),
              ToBlasInt(n), ToBlasInt(k), 1.0f, a + blk.row_begin * lda, ToBlasInt(lda), b0,
              ToBlasInt(ldb), accumulate ? 1.0f : 0.0f, c + blk.row_begin * ldc + blk.col_begin,
              ToBlasInt(ldc));
}
void BlockCall(bool trans_b, const GemmBlock& blk, int64_t k, const double* a, int64_t lda,
               const double* b, int64_t ldb, double* c, int64_t ldc, bool accumulate) {
  const int64_t m = blk.row_end - blk.row_begin, n = blk.col_end - blk.col_begin;
  const double* b0 = b + (trans_b ? blk.col_begin * ldb : blk.col_begin);
  cblas_dgemm(CblasRowMajor, CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans, ToBlasInt(m),
              ToBlasInt(n), ToBlasInt(k), 1.0, a + blk.row_begin * lda, ToBlasInt(lda), b0,
              ToBlasInt(ldb), accumulate ? 1.0 : 0.0, c + blk.row_begin * ldc + blk.col_begin,
              ToBlasInt(ldc));
}

template <typename T>
void OneBlock(bool trans_b, const GemmBlock& blk, int64_t k, const T* a, int64_t lda, const T* b,
              int64_t ldb, T* c, int64_t ldc, bool accumulate) {
  const int64_t m = blk.row_end - blk.row_begin, n = blk.col_end - blk.col_begin;
  if (m <= 0 || n <= 0) return;
  if (k == 0) {
    if (accumulate) return;
    for (int64_t i = blk.row_begin; i < blk.row_end; ++i) {
      std::fill(c + i * ldc + blk.col_begin, c + i * ldc + blk.col_end, T(0));
    }
    return;
  }
  KeepBlasSingleThreaded();
  Counted(m, n, k, [&] { BlockCall(trans_b, blk, k, a, lda, b, ldb, c, ldc, accumulate); });
}

template <typename T>
void WholeGemm(bool trans_b, int64_t m, int64_t n, int64_t k, const T* a, int64_t lda, const T* b,
               int64_t ldb, T* c, int64_t ldc, bool accumulate) {
  ForEachGemmBlock(m, n, k, [&](const GemmBlock& blk) {
    OneBlock(trans_b, blk, k, a, lda, b, ldb, c, ldc, accumulate);
  });
}

}  // namespace

int64_t GemmBlockCount(int64_t m, int64_t n, int64_t k) {
  // In 128 bits: three dimensions in the BLAS integer range can overflow 64.
  const __int128 work = static_cast<__int128>(m) * n * std::max<int64_t>(k, 1);
  const int64_t extent = std::max(m, n);
  int64_t count = 1;
  while (count < kMaxBlocks && 2 * count * kBlockWork <= work &&
         2 * count * kBlockAlign <= extent) {
    count *= 2;
  }
  return count;
}

GemmBlock GemmBlockAt(int64_t m, int64_t n, int64_t k, int64_t i) {
  const int64_t count = GemmBlockCount(m, n, k);
  const bool by_rows = m > n;
  const int64_t extent = by_rows ? m : n;
  const int64_t per = (extent + count - 1) / count;
  const int64_t step = (per + kBlockAlign - 1) / kBlockAlign * kBlockAlign;
  const int64_t begin = std::min(extent, i * step), end = std::min(extent, begin + step);
  return by_rows ? GemmBlock{begin, end, 0, n} : GemmBlock{0, m, begin, end};
}

void ForEachGemmBlock(int64_t m, int64_t n, int64_t k,
                      const std::function<void(const GemmBlock&)>& body) {
  if (m <= 0 || n <= 0) return;
  const int64_t count = GemmBlockCount(m, n, k);
  if (count == 1) {
    body(GemmBlock{0, m, 0, n});
    return;
  }
  support::ParallelFor(count, 1, [&](int64_t first, int64_t last) {
    for (int64_t i = first; i < last; ++i) {
      const GemmBlock blk = GemmBlockAt(m, n, k, i);
      if (blk.row_begin < blk.row_end && blk.col_begin < blk.col_end) body(blk);
    }
  });
}

void GemmOneBlock(bool trans_b, const GemmBlock& block, int64_t k, const float* a, int64_t lda,
                  const float* b, int64_t ldb, float* c, int64_t ldc, bool accumulate) {
  OneBlock(trans_b, block, k, a, lda, b, ldb, c, ldc, accumulate);
}
void GemmOneBlock(bool trans_b, const GemmBlock& block, int64_t k, const double* a, int64_t lda,
                  const double* b, int64_t ldb, double* c, int64_t ldc, bool accumulate) {
  OneBlock(trans_b, block, k, a, lda, b, ldb, c, ldc, accumulate);
}

void Gemm(bool trans_b, int64_t m, int64_t n, int64_t k, const float* a, int64_t lda,
          const float* b, int64_t ldb, float* c, int64_t ldc, bool accumulate) {
  WholeGemm(trans_b, m, n, k, a, lda, b, ldb, c, ldc, accumulate);
}
void Gemm(bool trans_b, int64_t m, int64_t n, int64_t k, const double* a, int64_t lda,
          const double* b, int64_t ldb, double* c, int64_t ldc, bool accumulate) {
  WholeGemm(trans_b, m, n, k, a, lda, b, ldb, c, ldc, accumulate);
}

}  // namespace relaypass::op::kernels

namespace relaypass::op {

void SetBlasTiming(bool enabled) {
  op::kernels::timing_enabled.store(enabled, std::memory_order_relaxed);
}

BlasStats GetBlasStats() {
  BlasStats stats;
  stats.calls = op::kernels::call_count.load(std::memory_order_relaxed);
  stats.seconds =
      static_cast<double>(op::kernels::nanoseconds.load(std::memory_order_relaxed)) * 1e-9;
  stats.cpu_seconds =
      static_cast<double>(op::kernels::cpu_nanoseconds.load(std::memory_order_relaxed)) * 1e-9;
  stats.flops = static_cast<double>(op::kernels::flop_count.load(std::memory_order_relaxed));
  return stats;
}

void ResetBlasStats() {
  op::kernels::call_count.store(0, std::memory_order_relaxed);
  op::kernels::nanoseconds.store(0, std::memory_order_relaxed);
  op::kernels::cpu_nanoseconds.store(0, std::memory_order_relaxed);
  op::kernels::flop_count.store(0, std::memory_order_relaxed);
}

double ThreadCpuSeconds() {
  return static_cast<double>(op::kernels::ThreadCpuNanoseconds()) * 1e-9;
}

}  // namespace relaypass::op
