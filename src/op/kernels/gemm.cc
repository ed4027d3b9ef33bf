#include "gemm.h"

#include <cblas.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <ctime>
#include <limits>

#include "kernel_util.h"
#include "relaypass/eval/blas_stats.h"

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

}  // namespace

void Gemm(bool trans_b, int64_t m, int64_t n, int64_t k, const float* a, int64_t lda,
          const float* b, int64_t ldb, float* c, int64_t ldc, bool accumulate) {
  if (m == 0 || n == 0) return;
  if (k == 0) {
    if (accumulate) return;
    for (int64_t i = 0; i < m; ++i) std::fill(c + i * ldc, c + i * ldc + n, float(0));
    return;
  }
  Counted(m, n, k, [&] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans, ToBlasInt(m),
                ToBlasInt(n), ToBlasInt(k), 1.0f, a, ToBlasInt(lda), b, ToBlasInt(ldb),
                accumulate ? 1.0f : 0.0f, c, ToBlasInt(ldc));
  });
}

void Gemm(bool trans_b, int64_t m, int64_t n, int64_t k, const double* a, int64_t lda,
          const double* b, int64_t ldb, double* c, int64_t ldc, bool accumulate) {
  if (m == 0 || n == 0) return;
  if (k == 0) {
    if (accumulate) return;
    for (int64_t i = 0; i < m; ++i) std::fill(c + i * ldc, c + i * ldc + n, double(0));
    return;
  }
  Counted(m, n, k, [&] {
    cblas_dgemm(CblasRowMajor, CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans, ToBlasInt(m),
                ToBlasInt(n), ToBlasInt(k), 1.0, a, ToBlasInt(lda), b, ToBlasInt(ldb),
                accumulate ? 1.0 : 0.0, c, ToBlasInt(ldc));
  });
}

}  // namespace relaypass::op::kernels

namespace relaypass::eval {

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

}  // namespace relaypass::eval
