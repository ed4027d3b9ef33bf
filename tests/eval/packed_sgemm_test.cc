// The AVX-512 packed GEMM (src/op/kernels/packed_sgemm.h) against the sum it documents, computed
// here in scalar code: per element, 256-deep partial sums, each 0 then std::fma(a, b, sum) in k
// order, added to the element after the first. Bit for bit, at one thread and at two, on shapes
// that leave partial register blocks (rows not a multiple of 14, columns not of 32), several
// depth blocks, row pitches wider than the matrices, and a fused epilogue. Skipped on processors
// without AVX-512.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "../../src/op/kernels/epilogue.h"
#include "../../src/op/kernels/packed_sgemm.h"
#include "relaypass/support/parallel.h"
#include "test_util.h"

namespace relaypass::eval {
namespace {

using op::kernels::PackedSgemm;
using op::kernels::PackedSgemmAvailable;

constexpr int64_t kDepthBlock = 256;  // the kernel's KC

struct Case {
  int64_t m, n, k, lda_extra, ldb_extra, ldc_extra;
};

std::vector<float> Random(int64_t size, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(static_cast<size_t>(size));
  for (float& x : v) x = dist(gen);
  return v;
}

// The documented sum of C[i][j].
float Reference(const Case& c, const float* a, int64_t lda, const float* b, int64_t ldb, int64_t i,
                int64_t j) {
  float out = 0.0f;
  for (int64_t k0 = 0; k0 < c.k; k0 += kDepthBlock) {
    float partial = 0.0f;
    for (int64_t p = k0; p < std::min(c.k, k0 + kDepthBlock); ++p) {
      partial = std::fma(a[i * lda + p], b[p * ldb + j], partial);
    }
    out = k0 == 0 ? partial : out + partial;
  }
  return out;
}

void ExpectSame(float got, float want, int64_t i, int64_t j) {
  ASSERT_EQ(std::memcmp(&got, &want, sizeof got), 0)
      << "C[" << i << "][" << j << "]: " << got << " vs " << want;
}

class PackedSgemmTest : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    if (!PackedSgemmAvailable()) GTEST_SKIP() << "no AVX-512 on this processor";
  }
};

TEST_P(PackedSgemmTest, MatchesTheDocumentedSumAtOneAndTwoThreads) {
  const Case c = GetParam();
  const int64_t lda = c.k + c.lda_extra, ldb = c.n + c.ldb_extra, ldc = c.n + c.ldc_extra;
  const std::vector<float> a = Random(c.m * lda, 1), b = Random(c.k * ldb, 2);
  for (int threads : {1, 2}) {
    support::SetNumThreads(threads);
    // Outside the written columns, C keeps its sentinel.
    std::vector<float> out(static_cast<size_t>(c.m * ldc), 7.0f);
    PackedSgemm(c.m, c.n, c.k, a.data(), lda, b.data(), ldb, out.data(), ldc, nullptr, 0, 0);
    for (int64_t i = 0; i < c.m; ++i) {
      for (int64_t j = 0; j < ldc; ++j) {
        const float want = j < c.n ? Reference(c, a.data(), lda, b.data(), ldb, i, j) : 7.0f;
        ExpectSame(out[static_cast<size_t>(i * ldc + j)], want, i, j);
      }
    }
  }
  support::SetNumThreads(0);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, PackedSgemmTest,
    ::testing::Values(Case{1, 1, 1, 0, 0, 0}, Case{14, 32, 33, 0, 0, 0},
                      Case{15, 33, 40, 0, 0, 0},     // one row and one column past a block
                      Case{64, 49, 576, 3, 5, 7},    // resnet's 7x7 layers: 3 depth blocks
                      Case{130, 196, 300, 0, 0, 0},  // more rows than one MC block
                      Case{30, 1100, 257, 0, 0, 0},  // more columns than one NC block
                      Case{120, 784, 64, 0, 0, 0}));

// The epilogue runs once on every element, after the last depth block: bias per row, then relu.
TEST(PackedSgemmEpilogue, BiasAndReluOnTheFinishedSum) {
  if (!PackedSgemmAvailable()) GTEST_SKIP() << "no AVX-512 on this processor";
  const Case c{29, 70, 600, 0, 0, 0};
  const std::vector<float> a = Random(c.m * c.k, 3), b = Random(c.k * c.n, 4);
  const std::vector<float> bias = Random(c.m + 5, 5);
  ir::NDArray bias_array = ir::NDArray::Empty({c.m + 5}, ir::DataType::Float32());
  std::memcpy(bias_array.mutable_data<float>(), bias.data(), bias.size() * sizeof(float));
  std::vector<op::EpilogueStep> steps(2);
  steps[0].kind = op::EpilogueStep::Kind::kAddChannel;
  steps[0].operand = bias_array;
  steps[1].kind = op::EpilogueStep::Kind::kRelu;
  const op::kernels::Epilogue epilogue(steps, c.m + 5, (c.m + 5) * c.n);
  std::vector<float> out(static_cast<size_t>(c.m * c.n));
  // Rows are channels 5.. of the output, which starts 5 rows in.
  PackedSgemm(c.m, c.n, c.k, a.data(), c.k, b.data(), c.n, out.data(), c.n, &epilogue, 5, 5 * c.n);
  for (int64_t i = 0; i < c.m; ++i) {
    for (int64_t j = 0; j < c.n; ++j) {
      const float sum = Reference(c, a.data(), c.k, b.data(), c.n, i, j) + bias[5 + i];
      ExpectSame(out[i * c.n + j], std::max(sum, 0.0f), i, j);  // as nn.relu
    }
  }
}

}  // namespace
}  // namespace relaypass::eval
