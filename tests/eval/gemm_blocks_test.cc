// The evaluator's GEMM blocks (src/op/kernels/gemm.h): the blocks cover C once, are fixed by the
// shape, and the products (plain, and as convolutions with a fused epilogue) have the same bits
// at 1 and 2 threads. OpenBLAS's own result changes with its thread count; the evaluator keeps it
// at one thread and computes each block by one call, so only the shape decides the rounding.
#include <cstring>
#include <vector>

#include "../../src/op/kernels/gemm.h"
#include "relaypass/op/conv2d_epilogue.h"
#include "relaypass/support/parallel.h"
#include "test_util.h"

namespace relaypass::eval {
namespace {

using namespace testing;  // NOLINT
using op::kernels::GemmBlock;

struct Dims {
  int64_t m, n, k;
};
// Small (one block), MobileNet's and ResNet's shapes (two blocks of rows or of columns).
const Dims kShapes[] = {{17, 100, 33},   {24, 3136, 144}, {960, 49, 160},
                        {1280, 49, 320}, {64, 3136, 576}, {512, 49, 4608}};

TEST(GemmBlocksTest, CoverTheOutputOnce) {
  for (const Dims& d : kShapes) {
    const int64_t count = op::kernels::GemmBlockCount(d.m, d.n, d.k);
    EXPECT_GE(count, 1);
    EXPECT_LE(count, 2);
    std::vector<int> covered(static_cast<size_t>(d.m * d.n), 0);
    for (int64_t i = 0; i < count; ++i) {
      const GemmBlock b = op::kernels::GemmBlockAt(d.m, d.n, d.k, i);
      for (int64_t r = b.row_begin; r < b.row_end; ++r)
        for (int64_t c = b.col_begin; c < b.col_end; ++c)
          ++covered[static_cast<size_t>(r * d.n + c)];
    }
    for (int v : covered) ASSERT_EQ(v, 1) << d.m << "x" << d.n << "x" << d.k;
  }
  EXPECT_EQ(op::kernels::GemmBlockCount(17, 100, 33), 1);
  EXPECT_GT(op::kernels::GemmBlockCount(24, 3136, 144), 1);
}

std::vector<float> Filled(int64_t size, uint32_t seed) {
  std::vector<float> v(static_cast<size_t>(size));
  for (float& x : v) {
    seed = seed * 1664525u + 1013904223u;
    x = static_cast<float>(static_cast<double>(seed) / 2147483648.0 - 1.0);
  }
  return v;
}

void ExpectSameBits(const std::vector<float>& a, const std::vector<float>& b) {
  ASSERT_EQ(a.size(), b.size());
  ASSERT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)), 0);
}

// Gemm at 1 and 2 threads, B as is and transposed, against the blocks computed one by one.
TEST(GemmBlocksTest, SameBitsAtAnyThreadCount) {
  uint32_t seed = 1;
  for (const Dims& d : kShapes) {
    SCOPED_TRACE(std::to_string(d.m) + "x" + std::to_string(d.n) + "x" + std::to_string(d.k));
    const std::vector<float> a = Filled(d.m * d.k, seed++), b = Filled(d.k * d.n, seed++);
    for (bool trans_b : {false, true}) {
      const int64_t ldb = trans_b ? d.k : d.n;
      std::vector<float> by_block(static_cast<size_t>(d.m * d.n));
      for (int64_t i = 0; i < op::kernels::GemmBlockCount(d.m, d.n, d.k); ++i) {
        op::kernels::GemmOneBlock(trans_b, op::kernels::GemmBlockAt(d.m, d.n, d.k, i), d.k,
                                  a.data(), d.k, b.data(), ldb, by_block.data(), d.n, false);
      }
      for (int threads : {1, 2}) {
        support::SetNumThreads(threads);
        std::vector<float> c(static_cast<size_t>(d.m * d.n), 7.0f);
        op::kernels::Gemm(trans_b, d.m, d.n, d.k, a.data(), d.k, b.data(), ldb, c.data(), d.n);
        support::SetNumThreads(1);
        ExpectSameBits(c, by_block);
      }
    }
  }
}

// Convolutions on the GEMM path (more than kSmallGemmMaxK input channels, several blocks; the
// packed GEMM where the processor has AVX-512, else OpenBLAS)
// with a fused bias and clip: the same bits at 1 and 2 threads.
TEST(GemmBlocksTest, FusedConvolutionSameBitsAtAnyThreadCount) {
  const NDArray x = Random({1, 144, 56, 56}, 11), w = Random({24, 144, 1, 1}, 12);
  const NDArray x3 = Random({1, 64, 28, 28}, 13), w3 = Random({96, 64, 3, 3}, 14);
  op::EpilogueStep bias, clip;
  bias.kind = op::EpilogueStep::Kind::kAddChannel;
  clip.kind = op::EpilogueStep::Kind::kClip;
  clip.lo = 0.0f;
  clip.hi = 6.0f;
  relay::nn::Conv2DArgs pad1;
  pad1.padding = {1, 1};
  for (const auto& [data, weight, args] :
       {std::tuple{x, w, relay::nn::Conv2DArgs{}}, std::tuple{x3, w3, pad1}}) {
    bias.operand = Random({weight.shape()[0]}, 15);
    ir::Call call = relay::nn::conv2d(C(data), C(weight), args).downcast<ir::CallNode>();
    std::vector<NDArray> got;
    for (int threads : {1, 2}) {
      support::SetNumThreads(threads);
      got.push_back(op::Conv2DWithEpilogue({data, weight}, call->attrs, {bias, clip}));
      support::SetNumThreads(1);
    }
    ASSERT_EQ(got[0].size(), got[1].size());
    ASSERT_EQ(std::memcmp(got[0].data<float>(), got[1].data<float>(),
                          static_cast<size_t>(got[0].size()) * sizeof(float)),
              0);
  }
}

}  // namespace
}  // namespace relaypass::eval
