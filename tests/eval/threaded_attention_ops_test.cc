// The attention ops split over the kernel threads (src/op/kernels): batch_matmul's per-head
// products, transpose, softmax. Against plain loops in double (NumPy's definitions, within
// float32 rounding), and the same bits at one and at two threads.
#include <cmath>
#include <cstring>

#include "relaypass/support/parallel.h"
#include "test_util.h"

namespace relaypass::eval {
namespace {

using namespace testing;  // NOLINT

void ExpectSameBits(const NDArray& a, const NDArray& b) {
  ASSERT_EQ(a.shape(), b.shape());
  EXPECT_EQ(std::memcmp(a.raw_data(), b.raw_data(), a.nbytes()), 0);
}

// `make()` at one thread and at two: the same bits; returns the one-thread result.
template <typename F>
NDArray AtOneAndTwoThreads(F make) {
  support::SetNumThreads(1);
  const NDArray one = make();
  support::SetNumThreads(2);
  const NDArray two = make();
  support::SetNumThreads(1);
  ExpectSameBits(one, two);
  return one;
}

TEST(ThreadedAttentionOpsTest, BatchMatmulPerHead) {
  // 12 heads of 128 x 64 by 64 x 128 (BERT-base's scores), an odd small case, a broadcast batch.
  struct Case {
    Shape x, y;
  };
  const Case cases[] = {
      {{12, 128, 64}, {12, 128, 64}}, {{3, 5, 7}, {3, 9, 7}}, {{1, 6, 4}, {5, 3, 4}}};
  uint64_t seed = 1;
  for (const Case& c : cases) {
    const NDArray x = Random(c.x, seed++), y = Random(c.y, seed++);
    const NDArray out = AtOneAndTwoThreads(
        [&] { return EvalOp(relay::nn::batch_matmul(C(x), C(y), "", false, true)); });
    const int64_t b = out.shape()[0], m = c.x[1], n = c.y[1], k = c.x[2];
    ASSERT_EQ(out.shape(), (Shape{b, m, n}));
    for (int64_t i = 0; i < b; ++i) {
      const float* xa = x.data<float>() + (c.x[0] == 1 ? 0 : i) * m * k;
      const float* yb = y.data<float>() + (c.y[0] == 1 ? 0 : i) * n * k;
      for (int64_t r = 0; r < m; ++r) {
        for (int64_t s = 0; s < n; ++s) {
          double want = 0;
          for (int64_t p = 0; p < k; ++p) want += double(xa[r * k + p]) * yb[s * k + p];
          ASSERT_NEAR(out.data<float>()[(i * m + r) * n + s], want, 1e-5 * k);
        }
      }
    }
  }
}

TEST(ThreadedAttentionOpsTest, TransposeHeadsAndSoftmax) {
  const NDArray x = Random({2, 130, 12, 64}, 7);
  const NDArray t = AtOneAndTwoThreads([&] {
    return EvalOp(relay::transpose(C(x), std::vector<int64_t>{0, 2, 1, 3}));
  });
  ExpectSameBits(t, NaivePermute(x, {0, 2, 1, 3}));
  const NDArray t2 = AtOneAndTwoThreads([&] {
    return EvalOp(relay::transpose(C(x), std::vector<int64_t>{0, 2, 3, 1}));
  });
  ExpectSameBits(t2, NaivePermute(x, {0, 2, 3, 1}));

  const NDArray s = Random({3, 12, 129}, 8);
  const NDArray soft = AtOneAndTwoThreads([&] { return EvalOp(relay::nn::softmax(C(s), -1)); });
  for (int64_t row = 0; row < 3 * 12; ++row) {
    const float* in = s.data<float>() + row * 129;
    double max = in[0], sum = 0;
    for (int c = 1; c < 129; ++c) max = std::max<double>(max, in[c]);
    for (int c = 0; c < 129; ++c) sum += std::exp(in[c] - max);
    for (int c = 0; c < 129; ++c) {
      ASSERT_NEAR(soft.data<float>()[row * 129 + c], std::exp(in[c] - max) / sum, 1e-6);
    }
  }
  // Along a middle axis (lines with a stride).
  const NDArray mid = AtOneAndTwoThreads([&] { return EvalOp(relay::nn::softmax(C(s), 1)); });
  EXPECT_EQ(mid.shape(), s.shape());
}

}  // namespace
}  // namespace relaypass::eval
