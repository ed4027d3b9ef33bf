// The kernel fuzzer's property (fuzz/kernel_call_property.h) in the ordinary suite: every input
// it found, kept in tests/bad_input/kernel_fuzz_crashes/, and a seeded sweep of random inputs for
// RELAYPASS_KERNEL_FUZZ_SECONDS seconds (default 10; `make test-asan` runs it for 90 under
// ASan+UBSan). Each input must end in a relaypass::Error or a result: a crash, a sanitizer report
// or another exception fails the run.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "../../fuzz/kernel_call_property.h"
#include "tool.h"

namespace relaypass::bad_input {
namespace {

TEST(KernelFuzzTest, EveryFoundInputHoldsTheProperty) {
  const std::filesystem::path dir = std::filesystem::path(RELAYPASS_TEST_DATA).parent_path() /
                                    "bad_input" / "kernel_fuzz_crashes";
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (!entry.is_regular_file() || entry.path().filename() == "README.md") continue;
    const std::string bytes = ReadFile(entry.path().string());
    SCOPED_TRACE(entry.path().filename().string());
    EXPECT_NO_THROW(
        fuzz::CheckKernelCall(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
    ++count;
  }
  EXPECT_GT(count, 0);
}

TEST(KernelFuzzTest, SeededSweepOverEveryOperator) {
  const char* env = std::getenv("RELAYPASS_KERNEL_FUZZ_SECONDS");
  const double seconds = env ? std::atof(env) : 10.0;
  const auto stop = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  std::mt19937_64 rng(36);
  std::vector<uint8_t> bytes(96);
  // Every operator at least once (the first byte picks it), then random ones until the time is up.
  const size_t ops = fuzz::KernelOpNames().size();
  int64_t runs = 0;
  // RELAYPASS_KERNEL_FUZZ_LAST=FILE: each input is written there before it runs, so the one
  // that crashed can be kept in kernel_fuzz_crashes/.
  const char* last = std::getenv("RELAYPASS_KERNEL_FUZZ_LAST");
  std::map<std::string, std::pair<int64_t, int64_t>> reached;  // op -> (typed, ran)
  for (size_t i = 0; i < ops || std::chrono::steady_clock::now() < stop; ++i, ++runs) {
    for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
    if (i < ops) {
      bytes[0] = static_cast<uint8_t>(ops <= 256 ? i : i >> 8);
      if (ops > 256) bytes[1] = static_cast<uint8_t>(i);
    }
    if (last) WriteFile(last, std::string(bytes.begin(), bytes.end()));  // a crash leaves it
    fuzz::KernelCallOutcome outcome;
    EXPECT_NO_THROW(outcome = fuzz::CheckKernelCall(bytes.data(), bytes.size())) << "run " << runs;
    auto& [typed, ran] = reached[outcome.op];
    typed += outcome.typed;
    ran += outcome.ran;
  }
  // How far the calls got, per operator (an op never typed is one the fuzzer cannot reach).
  int64_t typed_total = 0, ran_total = 0;
  for (const auto& [op, counts] : reached) {
    typed_total += counts.first;
    ran_total += counts.second;
    if (std::getenv("RELAYPASS_KERNEL_FUZZ_TRACE")) {
      std::printf("  %-28s typed %8lld ran %8lld\n", op.c_str(),
                  static_cast<long long>(counts.first), static_cast<long long>(counts.second));
    }
  }
  std::printf("kernel fuzz sweep: %lld calls, %lld type-checked, %lld evaluated\n",
              static_cast<long long>(runs), static_cast<long long>(typed_total),
              static_cast<long long>(ran_total));
}

}  // namespace
}  // namespace relaypass::bad_input
