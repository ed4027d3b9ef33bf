// nn.conv2d against a naive NCHW/OIHW loop: padding, strides, dilation, groups, depthwise, and the
// NHWC, NCHW16c and OIHW16i16o layouts.
#include "relaypass/support/float16.h"
#include "test_util.h"

namespace relaypass::eval {
namespace {

using namespace testing;  // NOLINT
using relay::nn::Conv2DArgs;

struct ConvCase {
  Shape data;                                       // NCHW
  Shape weight;                                     // OIHW (depthwise: [C, multiplier, KH, KW])
  std::vector<int64_t> strides, padding, dilation;  // padding: top, left, bottom, right
  int groups;
};

// The convolution by definition, accumulated in double.
NDArray NaiveConv(const NDArray& x, const NDArray& w, const ConvCase& c) {
  const int64_t n = c.data[0], ch = c.data[1], h = c.data[2], wd = c.data[3];
  const int64_t kh = c.weight[2], kw = c.weight[3];
  const bool depthwise = c.groups > 1 && c.groups == ch && c.groups == c.weight[0];
  const int64_t out_c = depthwise ? ch * c.weight[1] : c.weight[0];
  const int64_t in_per_group = depthwise ? 1 : c.weight[1];
  const int64_t out_per_group = out_c / c.groups;
  const int64_t oh =
      (h + c.padding[0] + c.padding[2] - ((kh - 1) * c.dilation[0] + 1)) / c.strides[0] + 1;
  const int64_t ow =
      (wd + c.padding[1] + c.padding[3] - ((kw - 1) * c.dilation[1] + 1)) / c.strides[1] + 1;
  const Shape out_shape = {n, out_c, oh, ow};
  NDArray out = NDArray::Empty(out_shape, DataType::Float32());
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t o = 0; o < out_c; ++o) {
      const int64_t g = o / out_per_group;
      for (int64_t y = 0; y < oh; ++y) {
        for (int64_t xx = 0; xx < ow; ++xx) {
          double acc = 0;
          for (int64_t i = 0; i < in_per_group; ++i) {
            const int64_t cin = g * in_per_group + i;
            for (int64_t r = 0; r < kh; ++r) {
              for (int64_t s = 0; s < kw; ++s) {
                const int64_t iy = y * c.strides[0] - c.padding[0] + r * c.dilation[0];
                const int64_t ix = xx * c.strides[1] - c.padding[1] + s * c.dilation[1];
                if (iy < 0 || iy >= h || ix < 0 || ix >= wd) continue;
                // Depthwise weight [C, m, KH, KW] has the memory order of [C*m, 1, KH, KW].
                acc += static_cast<double>(x.data<float>()[Offset(c.data, {b, cin, iy, ix})]) *
                       w.data<float>()[((o * in_per_group + i) * kh + r) * kw + s];
              }
            }
          }
          out.mutable_data<float>()[Offset(out_shape, {b, o, y, xx})] = static_cast<float>(acc);
        }
      }
    }
  }
  return out;
}

Conv2DArgs ArgsOf(const ConvCase& c) {
  Conv2DArgs args;
  args.strides = c.strides;
  args.padding = c.padding;
  args.dilation = c.dilation;
  args.groups = c.groups;
  return args;
}

// NCHW -> NCHW{b}c and OIHW -> OIHW{b}i{b}o, by definition.
NDArray BlockData(const NDArray& x, int64_t b) {
  const Shape& s = x.shape();
  const Shape out_shape = {s[0], s[1] / b, s[2], s[3], b};
  NDArray out = NDArray::Empty(out_shape, DataType::Float32());
  for (int64_t n = 0; n < s[0]; ++n)
    for (int64_t c = 0; c < s[1]; ++c)
      for (int64_t h = 0; h < s[2]; ++h)
        for (int64_t w = 0; w < s[3]; ++w)
          out.mutable_data<float>()[Offset(out_shape, {n, c / b, h, w, c % b})] =
              x.data<float>()[Offset(s, {n, c, h, w})];
  return out;
}

NDArray BlockKernel(const NDArray& x, int64_t b) {
  const Shape& s = x.shape();
  const Shape out_shape = {s[0] / b, s[1] / b, s[2], s[3], b, b};
  NDArray out = NDArray::Empty(out_shape, DataType::Float32());
  for (int64_t o = 0; o < s[0]; ++o)
    for (int64_t i = 0; i < s[1]; ++i)
      for (int64_t h = 0; h < s[2]; ++h)
        for (int64_t w = 0; w < s[3]; ++w)
          out.mutable_data<float>()[Offset(out_shape, {o / b, i / b, h, w, i % b, o % b})] =
              x.data<float>()[Offset(s, {o, i, h, w})];
  return out;
}

TEST(Conv2DTest, HandChecked) {
  NDArray x = Array({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  NDArray w = Array({1, 1, 2, 2}, {1, 1, 1, 1});
  ExpectValues(EvalOp(relay::nn::conv2d(C(x), C(w))), {1, 1, 2, 2}, {12, 16, 24, 28});
  // Padding 1 on every side: the corners see a single 2x2 window overlap.
  NDArray padded = EvalOp(relay::nn::conv2d(C(x), C(w), {.padding = {1, 1}}));
  ExpectValues(padded, {1, 1, 4, 4}, {1, 3, 5, 3, 5, 12, 16, 9, 11, 24, 28, 15, 7, 15, 17, 9});
}

const ConvCase kCases[] = {
    {{1, 3, 7, 7}, {4, 3, 3, 3}, {1, 1}, {0, 0, 0, 0}, {1, 1}, 1},      // plain
    {{2, 3, 8, 9}, {5, 3, 3, 3}, {1, 1}, {1, 1, 1, 1}, {1, 1}, 1},      // padding, batch 2
    {{1, 4, 9, 8}, {6, 4, 3, 2}, {2, 2}, {1, 0, 2, 1}, {1, 1}, 1},      // asymmetric, strides
    {{1, 3, 11, 10}, {2, 3, 3, 3}, {1, 2}, {2, 2, 2, 2}, {2, 3}, 1},    // dilation
    {{1, 6, 7, 7}, {4, 3, 3, 3}, {1, 1}, {1, 1, 1, 1}, {1, 1}, 2},      // groups
    {{1, 8, 6, 6}, {8, 1, 3, 3}, {2, 2}, {1, 1, 1, 1}, {1, 1}, 8},      // depthwise
    {{1, 4, 6, 5}, {4, 2, 3, 3}, {1, 1}, {1, 1, 1, 1}, {2, 1}, 4},      // depthwise, multiplier 2
    {{1, 16, 5, 5}, {8, 16, 1, 1}, {1, 1}, {0, 0, 0, 0}, {1, 1}, 1},    // pointwise
    {{1, 3, 224, 224}, {8, 3, 7, 7}, {2, 2}, {3, 3, 3, 3}, {1, 1}, 1},  // resnet's stem, fewer O
    // Where the processor has AVX-512, the packed GEMM (packed_sgemm.h, conv_panels.h): several
    // 256-deep blocks and 512-column blocks, rows past a 14-row block, stride 3 (copied one by
    // one), stride 2 with asymmetric padding wider than the kernel's reach.
    {{1, 40, 31, 29}, {17, 40, 3, 3}, {1, 1}, {1, 1, 1, 1}, {1, 1}, 1},
    {{1, 30, 20, 23}, {15, 30, 3, 3}, {3, 3}, {0, 2, 1, 0}, {1, 1}, 1},
    {{1, 33, 18, 19}, {29, 33, 3, 3}, {2, 2}, {0, 3, 2, 1}, {1, 2}, 1},
};

TEST(Conv2DTest, MatchesNaiveLoops) {
  uint64_t seed = 100;
  for (const ConvCase& c : kCases) {
    NDArray x = Random(c.data, seed++), w = Random(c.weight, seed++);
    NDArray got = EvalOp(relay::nn::conv2d(C(x), C(w), ArgsOf(c)));
    ExpectClose(got, NaiveConv(x, w, c), 1e-5, 1e-5);
  }
}

TEST(Conv2DTest, PaddingWithTwoValues) {
  ConvCase c{{1, 2, 5, 6}, {3, 2, 3, 3}, {1, 1}, {2, 1, 2, 1}, {1, 1}, 1};
  NDArray x = Random(c.data, 1), w = Random(c.weight, 2);
  Conv2DArgs args = ArgsOf(c);
  // Build the call with the 2-value form (as a parsed program may have it).
  ir::Call call = relay::nn::conv2d(C(x), C(w), args).downcast<ir::CallNode>();
  ir::Attrs two = call->attrs->With("padding", ir::AttrValue::Ints({2, 1}));
  ExpectClose(EvalOp(ir::MakeCall(call->op, call->args, two)), NaiveConv(x, w, c));
}

TEST(Conv2DTest, NHWCMatchesNCHW) {
  uint64_t seed = 200;
  for (const ConvCase& c : kCases) {
    if (c.data[2] > 32) continue;
    NDArray x = Random(c.data, seed++), w = Random(c.weight, seed++);
    NDArray expected = NaiveConv(x, w, c);
    const bool depthwise = c.groups > 1 && c.groups == c.data[1];
    Conv2DArgs args = ArgsOf(c);
    args.data_layout = "NHWC";
    // HWIO (HWOI for depthwise, whose OIHW view is [C, m, KH, KW]).
    args.kernel_layout = depthwise ? "HWOI" : "HWIO";
    const NDArray kernel =
        depthwise ? NaivePermute(w, {2, 3, 0, 1}) : NaivePermute(w, {2, 3, 1, 0});
    NDArray got = EvalOp(relay::nn::conv2d(C(NaivePermute(x, {0, 2, 3, 1})), C(kernel), args));
    ExpectClose(got, NaivePermute(expected, {0, 2, 3, 1}));
  }
}

TEST(Conv2DTest, BlockedLayoutsMatchNCHW) {
  const ConvCase c{{1, 32, 6, 7}, {32, 32, 3, 3}, {1, 2}, {1, 1, 1, 1}, {1, 1}, 1};
  NDArray x = Random(c.data, 5), w = Random(c.weight, 6);
  NDArray expected = NaiveConv(x, w, c);
  Conv2DArgs args = ArgsOf(c);
  args.data_layout = "NCHW16c";
  args.kernel_layout = "OIHW16i16o";
  NDArray got = EvalOp(relay::nn::conv2d(C(BlockData(x, 16)), C(BlockKernel(w, 16)), args));
  ExpectClose(got, BlockData(expected, 16));
  // out_layout converts the result only.
  Conv2DArgs to_blocked = ArgsOf(c);
  to_blocked.out_layout = "NCHW16c";
  ExpectClose(EvalOp(relay::nn::conv2d(C(x), C(w), to_blocked)), BlockData(expected, 16));
  args.out_layout = "NCHW";
  ExpectClose(EvalOp(relay::nn::conv2d(C(BlockData(x, 16)), C(BlockKernel(w, 16)), args)),
              expected);
}

TEST(Conv2DTest, Int32MatchesNaive) {
  const ConvCase c{{1, 2, 5, 5}, {3, 2, 3, 3}, {2, 1}, {1, 1, 1, 1}, {1, 1}, 1};
  NDArray xf = Random(c.data, 9, DataType::Int32()), wf = Random(c.weight, 10, DataType::Int32());
  // The reference in float (exact for these small integers).
  NDArray x = NDArray::Empty(c.data, DataType::Float32()),
          w = NDArray::Empty(c.weight, DataType::Float32());
  for (int64_t i = 0; i < x.size(); ++i) x.mutable_data<float>()[i] = xf.data<int32_t>()[i];
  for (int64_t i = 0; i < w.size(); ++i) w.mutable_data<float>()[i] = wf.data<int32_t>()[i];
  NDArray got = EvalOp(relay::nn::conv2d(C(xf), C(wf), ArgsOf(c)));
  EXPECT_EQ(got.dtype(), DataType::Int32());
  std::vector<double> expected = Values(NaiveConv(x, w, c));
  EXPECT_EQ(Values(got), expected);
}

TEST(Conv2DTest, Int8WithInt32OutDtype) {
  NDArray x = Array<int8_t>({1, 1, 2, 2}, {100, 100, 100, 100}, DataType::Int(8));
  NDArray w = Array<int8_t>({1, 1, 2, 2}, {100, 100, 100, 100}, DataType::Int(8));
  Conv2DArgs args;
  args.out_dtype = "int32";
  NDArray got = EvalOp(relay::nn::conv2d(C(x), C(w), args));
  EXPECT_EQ(got.dtype(), DataType::Int32());
  ExpectValues(got, {1, 1, 1, 1}, {40000});
}

TEST(Conv2DTest, Float16) {
  const ConvCase c{{1, 2, 4, 4}, {2, 2, 3, 3}, {1, 1}, {1, 1, 1, 1}, {1, 1}, 1};
  NDArray x = Random(c.data, 11, DataType::Float(16)),
          w = Random(c.weight, 12, DataType::Float(16));
  NDArray xf = NDArray::Empty(c.data, DataType::Float32()),
          wf = NDArray::Empty(c.weight, DataType::Float32());
  for (int64_t i = 0; i < x.size(); ++i)
    xf.mutable_data<float>()[i] = support::HalfToFloat(x.data<uint16_t>()[i]);
  for (int64_t i = 0; i < w.size(); ++i)
    wf.mutable_data<float>()[i] = support::HalfToFloat(w.data<uint16_t>()[i]);
  NDArray got = EvalOp(relay::nn::conv2d(C(x), C(w), ArgsOf(c)));
  EXPECT_EQ(got.dtype(), DataType::Float(16));
  std::vector<double> expected = Values(NaiveConv(xf, wf, c)), actual = Values(got);
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_NEAR(actual[i], expected[i], 5e-3);
}

TEST(Conv2DTest, MismatchedChannelsFail) {
  EXPECT_THROW(EvalOp(relay::nn::conv2d(C(Random({1, 3, 5, 5}, 1)), C(Random({2, 4, 3, 3}, 2)))),
               Error);
}

}  // namespace
}  // namespace relaypass::eval
