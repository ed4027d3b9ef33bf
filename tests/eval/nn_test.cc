// nn.dense, nn.batch_norm, nn.softmax, nn.dropout, nn.batch_flatten against hand-checked values
// and naive loops.
#include <cmath>

#include "test_util.h"

namespace relaypass::eval {
namespace {

using namespace testing;  // NOLINT

TEST(DenseTest, HandChecked) {
  NDArray x = Array({2, 3}, {1, 2, 3, 4, 5, 6});
  NDArray w = Array({2, 3}, {1, 0, -1, 0.5, 0.5, 0.5});
  ExpectValues(EvalOp(relay::nn::dense(C(x), C(w))), {2, 2}, {-2, 3, -2, 7.5});
}

TEST(DenseTest, MatchesNaiveWithLeadingAxes) {
  NDArray x = Random({2, 3, 17}, 1), w = Random({9, 17}, 2);
  NDArray out = EvalOp(relay::nn::dense(C(x), C(w), 9));
  ASSERT_EQ(out.shape(), (Shape{2, 3, 9}));
  for (int64_t i = 0; i < 6; ++i) {
    for (int64_t j = 0; j < 9; ++j) {
      double acc = 0;
      for (int64_t k = 0; k < 17; ++k) {
        acc += static_cast<double>(x.data<float>()[i * 17 + k]) * w.data<float>()[j * 17 + k];
      }
      EXPECT_NEAR(out.data<float>()[i * 9 + j], acc, 1e-5);
    }
  }
}

TEST(DenseTest, IntegerDense) {
  NDArray x = Array<int8_t>({1, 2}, {100, -100}, DataType::Int(8));
  NDArray w = Array<int8_t>({1, 2}, {100, 50}, DataType::Int(8));
  NDArray out = EvalOp(relay::nn::dense(C(x), C(w), std::nullopt, "int32"));
  EXPECT_EQ(out.dtype(), DataType::Int32());
  ExpectValues(out, {1, 1}, {5000});
}

TEST(BatchNormTest, HandCheckedAndTupleResult) {
  NDArray x = Array({1, 2, 1, 2}, {1, 2, 3, 4});
  NDArray gamma = Array({2}, {2, 1}), beta = Array({2}, {0.5, 0});
  NDArray mean = Array({2}, {1, 3}), var = Array({2}, {4, 1});
  Value v =
      EvalValue(relay::nn::batch_norm(C(x), C(gamma), C(beta), C(mean), C(var), {.epsilon = 0}));
  ASSERT_TRUE(v.is_tuple());
  ASSERT_EQ(v.fields().size(), 3u);
  // (x - mean) / sqrt(var) * gamma + beta
  ExpectValues(v.fields()[0].tensor(), {1, 2, 1, 2}, {0.5, 1.5, 0, 1});
  ExpectValues(v.fields()[1].tensor(), {2}, {1, 3});
  ExpectValues(v.fields()[2].tensor(), {2}, {4, 1});
}

TEST(BatchNormTest, AxisEpsilonCenterScale) {
  NDArray x = Random({2, 3, 4}, 3);
  NDArray gamma = Random({4}, 4), beta = Random({4}, 5), mean = Random({4}, 6);
  NDArray var = EvalOp(relay::exp(C(Random({4}, 7))));  // positive
  for (bool center : {true, false}) {
    for (bool scale : {true, false}) {
      NDArray out = EvalValue(relay::nn::batch_norm(
                                  C(x), C(gamma), C(beta), C(mean), C(var),
                                  {.axis = -1, .epsilon = 1e-3, .center = center, .scale = scale}))
                        .fields()[0]
                        .tensor();
      for (int64_t i = 0; i < x.size(); ++i) {
        const int64_t c = i % 4;
        double y =
            (x.data<float>()[i] - mean.data<float>()[c]) / std::sqrt(var.data<float>()[c] + 1e-3);
        if (scale) y *= gamma.data<float>()[c];
        if (center) y += beta.data<float>()[c];
        EXPECT_NEAR(out.data<float>()[i], y, 1e-5);
      }
    }
  }
}

TEST(SoftmaxTest, RowsSumToOneAndMatchNaive) {
  NDArray x = Random({3, 5, 4}, 8);
  for (int axis : {-1, 1, 0}) {
    NDArray out = EvalOp(relay::nn::softmax(C(x), axis));
    const int a = axis < 0 ? 2 : axis;
    const Shape& s = x.shape();
    for (int64_t i = 0; i < x.size(); ++i) {
      std::vector<int64_t> idx = {i / 20, (i / 4) % 5, i % 4};
      double denom = 0;
      for (int64_t k = 0; k < s[a]; ++k) {
        std::vector<int64_t> j = idx;
        j[a] = k;
        denom += std::exp(static_cast<double>(x.data<float>()[Offset(s, j)]));
      }
      EXPECT_NEAR(out.data<float>()[i], std::exp(static_cast<double>(x.data<float>()[i])) / denom,
                  1e-6);
    }
  }
  // Large values do not overflow (the maximum is subtracted first).
  ExpectValues(EvalOp(relay::nn::softmax(C(Array({2}, {1000, 1000})))), {2}, {0.5, 0.5});
}

TEST(SoftmaxTest, LogSoftmaxIsTheLogOfSoftmax) {
  NDArray x = Random({3, 5}, 9);
  for (int axis : {-1, 0}) {
    NDArray soft = EvalOp(relay::nn::softmax(C(x), axis));
    NDArray log_soft = EvalOp(relay::nn::log_softmax(C(x), axis));
    for (int64_t i = 0; i < x.size(); ++i) {
      EXPECT_NEAR(log_soft.data<float>()[i], std::log(soft.data<float>()[i]), 1e-5);
    }
  }
  // No overflow, and no log(0) for the small entries: 1000 - 1000 - log(1 + e^-1000).
  ExpectValues(EvalOp(relay::nn::log_softmax(C(Array({2}, {1000, 0})))), {2}, {0, -1000}, 1e-3);
}

TEST(DropoutTest, InferenceIsIdentity) {
  NDArray x = Random({2, 3}, 9);
  Value v = EvalValue(relay::nn::dropout(C(x), 0.3));
  ASSERT_TRUE(v.is_tuple());
  EXPECT_TRUE(v.fields()[0].tensor().BitwiseEqual(x));
  ExpectValues(v.fields()[1].tensor(), {2, 3}, {1, 1, 1, 1, 1, 1});
}

TEST(BatchFlattenTest, KeepsOrder) {
  NDArray x = Random({2, 3, 2, 2}, 10);
  NDArray out = EvalOp(relay::nn::batch_flatten(C(x)));
  ASSERT_EQ(out.shape(), (Shape{2, 12}));
  EXPECT_EQ(Values(out), Values(x));
}

}  // namespace
}  // namespace relaypass::eval
