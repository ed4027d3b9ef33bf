// support::ParallelFor, which the evaluator's kernels split their loops with: every index once,
// exceptions reach the caller, concurrent callers (kernels evaluated from several threads) all
// finish, and a network evaluates to the same bits with 1 and 2 kernel threads (each element is
// computed by the same arithmetic whichever thread computes it). Named ThreadSafetyTest.* so that
// `make test-tsan` runs them under ThreadSanitizer.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <vector>

#include "relaypass/eval/interpreter.h"
#include "relaypass/eval/random.h"
#include "relaypass/ir/bind.h"
#include "relaypass/passes/default_pipeline.h"
#include "relaypass/support/parallel.h"
#include "relaypass/transform/pass_context.h"
#include "relaypass/workloads/workloads.h"

namespace relaypass::reliability {
namespace {

// Restores the serial default however a test ends.
struct Threads {
  explicit Threads(int n) { support::SetNumThreads(n); }
  ~Threads() { support::SetNumThreads(1); }
};

TEST(ThreadSafetyTest, ParallelForCoversEveryIndexOnce) {
  for (int threads : {1, 2, 4}) {
    Threads scope(threads);
    for (int64_t n : {0, 1, 7, 1000, 100003}) {
      for (int64_t grain : {1, 64, 50000}) {
        std::vector<std::atomic<int>> hits(static_cast<size_t>(n));
        support::ParallelFor(n, grain, [&](int64_t begin, int64_t end) {
          ASSERT_LE(0, begin);
          ASSERT_LE(end, n);
          for (int64_t i = begin; i < end; ++i) hits[static_cast<size_t>(i)]++;
        });
        for (int64_t i = 0; i < n; ++i) ASSERT_EQ(hits[static_cast<size_t>(i)].load(), 1) << i;
      }
    }
  }
}

TEST(ThreadSafetyTest, ParallelForRethrowsInTheCaller) {
  Threads scope(2);
  EXPECT_THROW(support::ParallelFor(100000, 10,
                                    [](int64_t begin, int64_t) {
                                      if (begin > 50000) throw std::runtime_error("chunk");
                                    }),
               std::runtime_error);
  // The pool still works afterwards.
  std::atomic<int64_t> sum{0};
  support::ParallelFor(1000, 10, [&](int64_t b, int64_t e) { sum += e - b; });
  EXPECT_EQ(sum.load(), 1000);
}

TEST(ThreadSafetyTest, ParallelForFromConcurrentCallers) {
  Threads scope(2);
  std::vector<std::thread> callers;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 4; ++t) {
    callers.emplace_back([&] {
      for (int round = 0; round < 50; ++round) {
        std::atomic<int64_t> sum{0};
        support::ParallelFor(20000, 100, [&](int64_t b, int64_t e) { sum += e - b; });
        if (sum.load() != 20000) ++wrong;
      }
    });
  }
  for (std::thread& c : callers) c.join();
  EXPECT_EQ(wrong.load(), 0);
}

TEST(ThreadSafetyTest, EvaluationIsBitwiseTheSameWithTwoKernelThreads) {
  workloads::Workload w = workloads::GetWorkload("mobilenet");
  ir::IRModule mod;
  mod.Add("main", ir::BindParamsByName(w.mod.Lookup("main"), w.params));
  const std::vector<eval::Value> inputs = eval::RandomInputs(mod.Lookup("main"), 3);
  auto run = [&](int threads) {
    Threads scope(threads);
    return eval::Interpreter(mod).RunMain(inputs).tensor();
  };
  const ir::NDArray serial = run(1), parallel = run(2);
  ASSERT_EQ(serial.nbytes(), parallel.nbytes());
  EXPECT_EQ(std::memcmp(serial.raw_data(), parallel.raw_data(), serial.nbytes()), 0);
}

// The same after the default pipeline at -O3: every convolution then runs fused with its
// epilogue (src/eval/fused_conv.h) and the depthwise ones on the 3x3 fast path.
TEST(ThreadSafetyTest, FusedEvaluationIsBitwiseTheSameWithTwoKernelThreads) {
  workloads::Workload w = workloads::GetWorkload("mobilenet");
  ir::IRModule mod;
  mod.Add("main", ir::BindParamsByName(w.mod.Lookup("main"), w.params));
  {
    transform::PassContextScope scope(transform::PassContext({.opt_level = 3}));
    mod = passes::DefaultPipeline()(mod);
  }
  const std::vector<eval::Value> inputs = eval::RandomInputs(mod.Lookup("main"), 3);
  auto run = [&](int threads) {
    Threads scope(threads);
    eval::Interpreter interp(mod);
    ir::NDArray out = interp.RunMain(inputs).tensor();
    EXPECT_GT(interp.stats().fused_conv_calls, 0u);
    return out;
  };
  const ir::NDArray serial = run(1), parallel = run(2);
  ASSERT_EQ(serial.nbytes(), parallel.nbytes());
  EXPECT_EQ(std::memcmp(serial.raw_data(), parallel.raw_data(), serial.nbytes()), 0);
}

}  // namespace
}  // namespace relaypass::reliability
