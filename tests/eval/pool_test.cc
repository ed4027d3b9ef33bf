// Pooling against naive loops: padding, strides, dilation, ceil_mode, count_include_pad, and the
// NHWC and NCHW16c layouts.
#include <algorithm>
#include <limits>

#include "test_util.h"

namespace relaypass::eval {
namespace {

using namespace testing;  // NOLINT
using relay::nn::Pool2DArgs;

struct PoolCase {
  Shape data;                                             // NCHW
  std::vector<int64_t> pool, strides, dilation, padding;  // padding: top, left, bottom, right
  bool ceil_mode;
  bool count_include_pad;
};

int64_t OutDim(int64_t in, int64_t pool, int64_t stride, int64_t dilation, int64_t pad,
               bool ceil_mode) {
  int64_t num = in + pad - ((pool - 1) * dilation + 1);
  if (ceil_mode) num += stride - 1;
  return num / stride + 1;
}

// By definition: max over in-bounds taps; average over in-bounds taps, or with
// count_include_pad over the taps inside the explicitly padded input.
NDArray NaivePool(const NDArray& x, const PoolCase& c, bool is_max) {
  const int64_t h = c.data[2], w = c.data[3];
  const int64_t oh =
      OutDim(h, c.pool[0], c.strides[0], c.dilation[0], c.padding[0] + c.padding[2], c.ceil_mode);
  const int64_t ow =
      OutDim(w, c.pool[1], c.strides[1], c.dilation[1], c.padding[1] + c.padding[3], c.ceil_mode);
  const Shape out_shape = {c.data[0], c.data[1], oh, ow};
  NDArray out = NDArray::Empty(out_shape, DataType::Float32());
  for (int64_t n = 0; n < c.data[0]; ++n) {
    for (int64_t ch = 0; ch < c.data[1]; ++ch) {
      for (int64_t y = 0; y < oh; ++y) {
        for (int64_t xx = 0; xx < ow; ++xx) {
          double best = std::numeric_limits<float>::lowest(), sum = 0;
          int64_t inside = 0, padded = 0;
          for (int64_t r = 0; r < c.pool[0]; ++r) {
            for (int64_t s = 0; s < c.pool[1]; ++s) {
              const int64_t iy = y * c.strides[0] - c.padding[0] + r * c.dilation[0];
              const int64_t ix = xx * c.strides[1] - c.padding[1] + s * c.dilation[1];
              if (iy <= h - 1 + c.padding[2] && ix <= w - 1 + c.padding[3]) ++padded;
              if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
              const double v = x.data<float>()[Offset(c.data, {n, ch, iy, ix})];
              best = std::max(best, v);
              sum += v;
              ++inside;
            }
          }
          double value = best;
          if (!is_max) value = sum / (c.count_include_pad ? padded : std::max<int64_t>(inside, 1));
          out.mutable_data<float>()[Offset(out_shape, {n, ch, y, xx})] = static_cast<float>(value);
        }
      }
    }
  }
  return out;
}

Pool2DArgs ArgsOf(const PoolCase& c) {
  Pool2DArgs args;
  args.pool_size = c.pool;
  args.strides = c.strides;
  args.dilation = c.dilation;
  args.padding = c.padding;
  args.ceil_mode = c.ceil_mode;
  args.count_include_pad = c.count_include_pad;
  return args;
}

NDArray RunPool(const NDArray& x, const Pool2DArgs& args, bool is_max) {
  return EvalOp(is_max ? relay::nn::max_pool2d(C(x), args) : relay::nn::avg_pool2d(C(x), args));
}

TEST(PoolTest, HandChecked) {
  NDArray x = Array({1, 1, 4, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
  ExpectValues(RunPool(x, {.pool_size = {2, 2}, .strides = {2, 2}}, true), {1, 1, 2, 2},
               {6, 8, 14, 16});
  ExpectValues(RunPool(x, {.pool_size = {2, 2}, .strides = {2, 2}}, false), {1, 1, 2, 2},
               {3.5, 5.5, 11.5, 13.5});
  NDArray y = Array({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  // 3x3 windows, padding 1: the corner window holds 1, 2, 4, 5.
  NDArray exclude = RunPool(y, {.pool_size = {3, 3}, .padding = {1, 1}}, false);
  EXPECT_FLOAT_EQ(exclude.data<float>()[0], 3.0f);
  NDArray include =
      RunPool(y, {.pool_size = {3, 3}, .padding = {1, 1}, .count_include_pad = true}, false);
  EXPECT_FLOAT_EQ(include.data<float>()[0], 12.0f / 9.0f);
  EXPECT_FLOAT_EQ(include.data<float>()[4], 5.0f);
  // ceil_mode: a 5x5 input in 2x2 steps gives 3x3; the last window sees one row/column.
  NDArray z = Random({1, 1, 5, 5}, 3);
  NDArray ceil = RunPool(z, {.pool_size = {2, 2}, .strides = {2, 2}, .ceil_mode = true}, true);
  ASSERT_EQ(ceil.shape(), (Shape{1, 1, 3, 3}));
  EXPECT_FLOAT_EQ(ceil.data<float>()[8], z.data<float>()[24]);
  NDArray ceil_avg = RunPool(
      z, {.pool_size = {2, 2}, .strides = {2, 2}, .ceil_mode = true, .count_include_pad = true},
      false);
  EXPECT_FLOAT_EQ(ceil_avg.data<float>()[8], z.data<float>()[24]);  // divisor 1, not 4
}

const PoolCase kCases[] = {
    {{1, 3, 8, 8}, {3, 3}, {2, 2}, {1, 1}, {1, 1, 1, 1}, false, false},  // resnet's max pool
    {{2, 2, 7, 9}, {2, 3}, {2, 1}, {1, 1}, {0, 1, 1, 0}, false, false},
    {{1, 2, 9, 9}, {3, 3}, {2, 2}, {1, 1}, {1, 1, 1, 1}, true, false},  // ceil_mode
    {{1, 2, 9, 9}, {3, 3}, {2, 2}, {1, 1}, {1, 1, 1, 1}, true, true},   // + count_include_pad
    {{1, 2, 8, 8}, {2, 2}, {3, 3}, {1, 1}, {0, 0, 0, 0}, true, true},
    {{1, 1, 10, 11}, {3, 2}, {1, 2}, {2, 3}, {2, 1, 2, 1}, false, true},  // dilation
    {{1, 1, 10, 11}, {3, 2}, {2, 2}, {2, 2}, {1, 1, 2, 2}, true, false},
};

TEST(PoolTest, MatchesNaiveLoops) {
  uint64_t seed = 30;
  for (const PoolCase& c : kCases) {
    NDArray x = Random(c.data, seed++);
    for (bool is_max : {true, false}) {
      ExpectClose(RunPool(x, ArgsOf(c), is_max), NaivePool(x, c, is_max));
    }
  }
}

TEST(PoolTest, NHWCAndBlockedMatchNCHW) {
  const PoolCase c{{1, 32, 9, 8}, {3, 3}, {2, 2}, {1, 1}, {1, 1, 1, 1}, true, false};
  NDArray x = Random(c.data, 40);
  for (bool is_max : {true, false}) {
    NDArray expected = NaivePool(x, c, is_max);
    Pool2DArgs nhwc = ArgsOf(c);
    nhwc.layout = "NHWC";
    ExpectClose(RunPool(NaivePermute(x, {0, 2, 3, 1}), nhwc, is_max),
                NaivePermute(expected, {0, 2, 3, 1}));
    // NCHW16c viewed as N, C/16, H, W, 16 (reshape of NCHW then move the 16 innermost).
    Pool2DArgs blocked = ArgsOf(c);
    blocked.layout = "NCHW16c";
    auto block = [](const NDArray& a) {
      NDArray five = EvalOp(
          relay::reshape(C(a), {a.shape()[0], a.shape()[1] / 16, 16, a.shape()[2], a.shape()[3]}));
      return NaivePermute(five, {0, 1, 3, 4, 2});
    };
    ExpectClose(RunPool(block(x), blocked, is_max), block(expected));
  }
}

TEST(PoolTest, GlobalAveragePool) {
  NDArray x = Random({2, 3, 4, 5}, 50);
  NDArray out = EvalOp(relay::nn::global_avg_pool2d(C(x)));
  ASSERT_EQ(out.shape(), (Shape{2, 3, 1, 1}));
  for (int64_t nc = 0; nc < 6; ++nc) {
    double sum = 0;
    for (int64_t i = 0; i < 20; ++i) sum += x.data<float>()[nc * 20 + i];
    EXPECT_NEAR(out.data<float>()[nc], sum / 20, 1e-6);
  }
  NDArray nhwc = EvalOp(relay::nn::global_avg_pool2d(C(NaivePermute(x, {0, 2, 3, 1})), "NHWC"));
  ASSERT_EQ(nhwc.shape(), (Shape{2, 1, 1, 3}));
  ExpectClose(nhwc, NaivePermute(out, {0, 2, 3, 1}));
}

TEST(PoolTest, GlobalMaxPool) {
  NDArray x = Random({2, 3, 4, 5}, 51);
  NDArray out = EvalOp(relay::nn::global_max_pool2d(C(x)));
  ASSERT_EQ(out.shape(), (Shape{2, 3, 1, 1}));
  for (int64_t nc = 0; nc < 6; ++nc) {
    float best = x.data<float>()[nc * 20];
    for (int64_t i = 1; i < 20; ++i) best = std::max(best, x.data<float>()[nc * 20 + i]);
    EXPECT_EQ(out.data<float>()[nc], best);
  }
}

TEST(PoolTest, IntegerMaxPool) {
  NDArray x = Array<int32_t>({1, 1, 2, 3}, {-5, 7, 2, 9, -1, 4}, DataType::Int32());
  NDArray out = RunPool(x, {.pool_size = {2, 2}}, true);
  EXPECT_EQ(out.dtype(), DataType::Int32());
  ExpectValues(out, {1, 1, 1, 2}, {9, 7});
}

TEST(PoolTest, SplitHeightIsRejected) {
  Pool2DArgs args{.pool_size = {2, 2}, .layout = "NCHW4h"};
  EXPECT_THROW(RunPool(Random({1, 1, 1, 4, 4}, 1), args, true), Error);
}

}  // namespace
}  // namespace relaypass::eval
