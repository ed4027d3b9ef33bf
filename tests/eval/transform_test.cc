// Data movement kernels: reshape (special values), squeeze, expand_dims, repeat, transpose,
// concatenate, pad (constant, edge, reflect), cast, layout_transform.
#include <cmath>

#include "relaypass/support/float16.h"
#include "test_util.h"

namespace relaypass::eval {
namespace {

using namespace testing;  // NOLINT

TEST(ReshapeTest, SpecialValues) {
  NDArray x = Random({2, 3, 4}, 1);
  const std::pair<std::vector<int64_t>, Shape> cases[] = {
      {{6, 4}, {6, 4}},
      {{-1, 4}, {6, 4}},
      {{0, -1}, {2, 12}},
      {{-2}, {2, 3, 4}},
      {{-3, 4}, {6, 4}},
      {{2, -4, 3, 1, 4}, {2, 3, 1, 4}},
      {{-4, 1, -1, -2}, {1, 2, 3, 4}},
      {{24}, {24}},
  };
  for (const auto& [spec, shape] : cases) {
    NDArray out = EvalOp(relay::reshape(C(x), spec));
    EXPECT_EQ(out.shape(), shape);
    EXPECT_EQ(Values(out), Values(x));
  }
  EXPECT_THROW(EvalOp(relay::reshape(C(x), {5, 5})), Error);
}

TEST(ReshapeTest, SqueezeAndExpandDims) {
  NDArray x = Random({1, 3, 1, 2}, 2);
  EXPECT_EQ(EvalOp(relay::squeeze(C(x))).shape(), (Shape{3, 2}));
  EXPECT_EQ(EvalOp(relay::squeeze(C(x), std::vector<int64_t>{-2})).shape(), (Shape{1, 3, 2}));
  EXPECT_THROW(EvalOp(relay::squeeze(C(x), std::vector<int64_t>{1})), Error);
  EXPECT_EQ(EvalOp(relay::expand_dims(C(x), 1, 2)).shape(), (Shape{1, 1, 1, 3, 1, 2}));
  EXPECT_EQ(EvalOp(relay::expand_dims(C(x), -1)).shape(), (Shape{1, 3, 1, 2, 1}));
  EXPECT_EQ(Values(EvalOp(relay::expand_dims(C(x), 0))), Values(x));
}

// numpy.repeat: each slice along the axis appears `repeats` times in a row.
TEST(RepeatTest, RepeatsEachSliceInPlace) {
  NDArray x = NDArray::Empty({2, 3}, DataType::Float32());
  for (int i = 0; i < 6; ++i) x.mutable_data<float>()[i] = static_cast<float>(i);
  ExpectValues(EvalOp(relay::repeat(C(x), 2, 0)), {4, 3}, {0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5});
  ExpectValues(EvalOp(relay::repeat(C(x), 2, 1)), {2, 6}, {0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5});
  ExpectValues(EvalOp(relay::repeat(C(x), 1, -1)), {2, 3}, {0, 1, 2, 3, 4, 5});
}

TEST(SplitTest, SectionsAndIndices) {
  NDArray x = NDArray::Empty({2, 4}, DataType::Float32());
  for (int i = 0; i < 8; ++i) x.mutable_data<float>()[i] = static_cast<float>(i);
  Value halves = EvalValue(relay::split(C(x), 2, 1));
  ASSERT_EQ(halves.fields().size(), 2u);
  ExpectValues(halves.fields()[0].tensor(), {2, 2}, {0, 1, 4, 5});
  ExpectValues(halves.fields()[1].tensor(), {2, 2}, {2, 3, 6, 7});
  Value pieces = EvalValue(relay::split(C(x), relay::Ints{1, 3}, 1));
  ASSERT_EQ(pieces.fields().size(), 3u);
  ExpectValues(pieces.fields()[0].tensor(), {2, 1}, {0, 4});
  ExpectValues(pieces.fields()[1].tensor(), {2, 2}, {1, 2, 5, 6});
  ExpectValues(pieces.fields()[2].tensor(), {2, 1}, {3, 7});
}

TEST(TransposeTest, MatchesNaive) {
  NDArray x = Random({2, 3, 4, 5}, 3);
  const std::vector<int> perms[] = {{0, 2, 3, 1}, {3, 2, 1, 0}, {1, 0, 2, 3}, {0, 1, 2, 3}};
  for (const auto& p : perms) {
    NDArray out = EvalOp(relay::transpose(C(x), std::vector<int64_t>(p.begin(), p.end())));
    EXPECT_TRUE(out.BitwiseEqual(NaivePermute(x, p)));
  }
  EXPECT_TRUE(EvalOp(relay::transpose(C(x))).BitwiseEqual(NaivePermute(x, {3, 2, 1, 0})));
  EXPECT_TRUE(EvalOp(relay::transpose(C(x), std::vector<int64_t>{0, -1, 1, 2}))
                  .BitwiseEqual(NaivePermute(x, {0, 3, 1, 2})));
}

TEST(ConcatenateTest, EachAxis) {
  NDArray a = Array({2, 2}, {1, 2, 3, 4}), b = Array({2, 1}, {5, 6});
  ExpectValues(EvalOp(relay::concatenate({C(a), C(b)}, 1)), {2, 3}, {1, 2, 5, 3, 4, 6});
  ExpectValues(EvalOp(relay::concatenate({C(a), C(Array({1, 2}, {7, 8}))}, 0)), {3, 2},
               {1, 2, 3, 4, 7, 8});
  ExpectValues(EvalOp(relay::concatenate({C(a), C(b), C(b)}, -1)), {2, 4},
               {1, 2, 5, 5, 3, 4, 6, 6});
  EXPECT_THROW(EvalOp(relay::concatenate({C(a), C(b)}, 0)), Error);
}

TEST(PadTest, ConstantEdgeReflect) {
  NDArray x = Array({2, 3}, {1, 2, 3, 4, 5, 6});
  const std::vector<relay::Ints> width = {{1, 0}, {2, 1}};
  ExpectValues(EvalOp(relay::nn::pad(C(x), width, relay::const_(9.5f))), {3, 6},
               {9.5, 9.5, 9.5, 9.5, 9.5, 9.5,  //
                9.5, 9.5, 1, 2, 3, 9.5,        //
                9.5, 9.5, 4, 5, 6, 9.5});
  // The default pad_value is the int32 scalar 0, converted to the data dtype.
  ExpectValues(EvalOp(relay::nn::pad(C(x), {{0, 0}, {1, 1}})), {2, 5},
               {0, 1, 2, 3, 0, 0, 4, 5, 6, 0});
  ExpectValues(EvalOp(relay::nn::pad(C(x), width, nullptr, "edge")), {3, 6},
               {1, 1, 1, 2, 3, 3, 1, 1, 1, 2, 3, 3, 4, 4, 4, 5, 6, 6});
  ExpectValues(EvalOp(relay::nn::pad(C(x), width, nullptr, "reflect")), {3, 6},
               {6, 5, 4, 5, 6, 5, 3, 2, 1, 2, 3, 2, 6, 5, 4, 5, 6, 5});
}

TEST(CastTest, FloatIntBoolHalf) {
  NDArray x = Array({4}, {-1.75, 0, 2.5, 300});
  NDArray i = EvalOp(relay::cast(C(x), "int32"));
  EXPECT_EQ(i.dtype(), DataType::Int32());
  ExpectValues(i, {4}, {-1, 0, 2, 300});
  ExpectValues(EvalOp(relay::cast(C(x), "bool")), {4}, {1, 0, 1, 1});
  ExpectValues(EvalOp(relay::cast(C(i), "float64")), {4}, {-1, 0, 2, 300});
  NDArray h = EvalOp(relay::cast(C(Array({3}, {0.1, 65504, 1e-8})), "float16"));
  EXPECT_EQ(h.dtype(), DataType::Float(16));
  EXPECT_EQ(h.data<uint16_t>()[0], 0x2e66);  // 0.1 rounds to 0.0999755859375
  EXPECT_EQ(h.data<uint16_t>()[1], 0x7bff);  // the largest half
  EXPECT_EQ(h.data<uint16_t>()[2], 0x0000);  // underflows to zero
  NDArray back = EvalOp(relay::cast(C(h), "float32"));
  EXPECT_FLOAT_EQ(back.data<float>()[0], 0.0999755859375f);
  NDArray bf = EvalOp(relay::cast(C(Array({1}, {1.0 + 1.0 / 256})), "bfloat16"));
  EXPECT_EQ(bf.data<uint16_t>()[0], 0x3f80);  // ties to even
}

TEST(LayoutTransformTest, BlockingRoundTripsAndPads) {
  NDArray x = Random({1, 32, 3, 2}, 4);
  NDArray blocked = EvalOp(relay::layout_transform(C(x), "NCHW", "NCHW16c"));
  ASSERT_EQ(blocked.shape(), (Shape{1, 2, 3, 2, 16}));
  for (int64_t c = 0; c < 32; ++c) {
    for (int64_t hw = 0; hw < 6; ++hw) {
      EXPECT_EQ(blocked.data<float>()[Offset(blocked.shape(), {0, c / 16, hw / 2, hw % 2, c % 16})],
                x.data<float>()[c * 6 + hw]);
    }
  }
  EXPECT_TRUE(EvalOp(relay::layout_transform(C(blocked), "NCHW16c", "NCHW")).BitwiseEqual(x));
  NDArray nhwc8 = EvalOp(relay::layout_transform(C(blocked), "NCHW16c", "NHWC8c"));
  EXPECT_TRUE(EvalOp(relay::layout_transform(C(nhwc8), "NHWC8c", "NCHW")).BitwiseEqual(x));
  EXPECT_TRUE(EvalOp(relay::layout_transform(C(x), "NCHW", "NHWC"))
                  .BitwiseEqual(NaivePermute(x, {0, 2, 3, 1})));
  // Shapes follow the type relation (BijectiveLayout): NCHW4c of 3 channels has 0 blocks.
  NDArray y = Random({1, 3, 1, 1}, 5);
  EXPECT_EQ(EvalOp(relay::layout_transform(C(y), "NCHW", "NCHW4c")).shape(),
            (Shape{1, 0, 1, 1, 4}));
}

TEST(ReduceTest, SumMeanAxesKeepdimsExclude) {
  NDArray x = Array({2, 3}, {1, 2, 3, 4, 5, 6});
  ExpectValues(EvalOp(relay::sum(C(x))), {}, {21});
  ExpectValues(EvalOp(relay::sum(C(x), std::vector<int64_t>{0})), {3}, {5, 7, 9});
  ExpectValues(EvalOp(relay::sum(C(x), std::vector<int64_t>{1}, true)), {2, 1}, {6, 15});
  ExpectValues(EvalOp(relay::mean(C(x), std::vector<int64_t>{-1})), {2}, {2, 5});
  ExpectValues(EvalOp(relay::mean(C(x), std::vector<int64_t>{1}, false, true)), {3},
               {2.5, 3.5, 4.5});
  ExpectValues(EvalOp(relay::sum(C(x), std::vector<int64_t>{}, true)), {1, 1}, {21});
  NDArray i = Array<int32_t>({2, 2}, {1, 2, 3, 5}, DataType::Int32());
  NDArray m = EvalOp(relay::mean(C(i), std::vector<int64_t>{1}));
  EXPECT_EQ(m.dtype(), DataType::Int32());
  ExpectValues(m, {2}, {1, 4});
}

TEST(ReduceTest, MaxMinProd) {
  NDArray x = Array({2, 3}, {1, -2, 3, 4, 5, -6});
  ExpectValues(EvalOp(relay::max(C(x))), {}, {5});
  ExpectValues(EvalOp(relay::max(C(x), std::vector<int64_t>{0})), {3}, {4, 5, 3});
  ExpectValues(EvalOp(relay::min(C(x))), {}, {-6});
  ExpectValues(EvalOp(relay::prod(C(x))), {}, {720});
  NDArray i = Array<int32_t>({2, 2}, {1, 2, -3, 5}, DataType::Int32());
  ExpectValues(EvalOp(relay::max(C(i), std::vector<int64_t>{1}, true)), {2, 1}, {2, 5});
}

TEST(ReduceTest, MatchesNaiveOnThreeAxes) {
  NDArray x = Random({3, 4, 5}, 6);
  NDArray out = EvalOp(relay::sum(C(x), std::vector<int64_t>{0, 2}));
  ASSERT_EQ(out.shape(), (Shape{4}));
  for (int64_t j = 0; j < 4; ++j) {
    double acc = 0;
    for (int64_t i = 0; i < 3; ++i)
      for (int64_t k = 0; k < 5; ++k) acc += x.data<float>()[(i * 4 + j) * 5 + k];
    EXPECT_NEAR(out.data<float>()[j], acc, 1e-5);
  }
}

}  // namespace
}  // namespace relaypass::eval
