// float32 sum and mean over trailing axes (src/op/kernels/reduce.cc, SumTrailing: layer norm's
// mean and variance): against a plain loop summing in double in index order (NumPy's float64
// sum, rounded to float32 once), on odd row lengths, with keepdims, several trailing axes and
// negative axes; one and two threads give the same bits.
#include <cmath>
#include <cstring>
#include <limits>

#include "relaypass/support/parallel.h"
#include "test_util.h"

namespace relaypass::eval {
namespace {

using namespace testing;  // NOLINT

// Row sums (rows of `count` contiguous elements) in index order in double.
std::vector<double> RowSums(const NDArray& x, int64_t count) {
  std::vector<double> out(static_cast<size_t>(x.size() / count), 0.0);
  for (int64_t i = 0; i < x.size(); ++i) out[i / count] += x.data<float>()[i];
  return out;
}

TEST(ReduceTrailingTest, SumAndMeanMatchDoubleLoop) {
  struct Case {
    Shape shape;
    std::vector<int64_t> axis;
    int64_t count;
  };
  const Case cases[] = {{{3, 1}, {1}, 1},      {{5, 7}, {-1}, 7},          {{2, 3, 9}, {2}, 9},
                        {{4, 768}, {1}, 768},  {{2, 3, 1001}, {-1}, 1001}, {{2, 5, 6}, {1, 2}, 30},
                        {{300, 129}, {1}, 129}};
  uint64_t seed = 3;
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::PrintToString(c.shape));
    const NDArray x = Random(c.shape, seed++);
    const std::vector<double> sums = RowSums(x, c.count);
    for (bool keepdims : {false, true}) {
      const NDArray sum = EvalOp(relay::sum(C(x), c.axis, keepdims));
      const NDArray mean = EvalOp(relay::mean(C(x), c.axis, keepdims));
      ASSERT_EQ(sum.size(), static_cast<int64_t>(sums.size()));
      EXPECT_EQ(sum.ndim(), keepdims ? x.ndim() : x.ndim() - static_cast<int>(c.axis.size()));
      for (size_t r = 0; r < sums.size(); ++r) {
        // Double sums of at most 1001 floats in another order: the same after rounding to
        // float32, but for a sum that falls next to a float32 tie.
        EXPECT_NEAR(sum.data<float>()[r], static_cast<float>(sums[r]), 1e-6 * c.count);
        EXPECT_NEAR(mean.data<float>()[r], static_cast<float>(sums[r] / c.count), 1e-6);
      }
      support::SetNumThreads(2);
      const NDArray two = EvalOp(relay::mean(C(x), c.axis, keepdims));
      support::SetNumThreads(1);
      EXPECT_EQ(std::memcmp(two.raw_data(), mean.raw_data(), mean.nbytes()), 0);
    }
  }
}

TEST(ReduceTrailingTest, SpecialValuesAndEmptyRows) {
  const float inf = std::numeric_limits<float>::infinity();
  const NDArray x = Array({3, 2}, {1, inf, inf, -inf, 2, std::nan("")});
  const NDArray s = EvalOp(relay::sum(C(x), std::vector<int64_t>{1}));
  EXPECT_EQ(s.data<float>()[0], inf);
  EXPECT_TRUE(std::isnan(s.data<float>()[1]));
  EXPECT_TRUE(std::isnan(s.data<float>()[2]));
  // No elements per row: the sum is 0, the mean NaN (0 / 0, as TVM).
  const NDArray empty = NDArray::Empty({2, 0}, DataType::Float32());
  ExpectValues(EvalOp(relay::sum(C(empty), std::vector<int64_t>{1})), {2}, {0, 0});
  EXPECT_TRUE(std::isnan(EvalOp(relay::mean(C(empty), std::vector<int64_t>{1})).data<float>()[0]));
}

}  // namespace
}  // namespace relaypass::eval
