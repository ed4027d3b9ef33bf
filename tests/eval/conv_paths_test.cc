// The depthwise and 1x1 convolution paths against references computed here: depthwise against the
// definition summed in float in the kernel's documented order (0, then + w * x per tap inside the
// input, kh-major), which must match bit for bit whichever path (3x3 fast path with its zero
// padded scratch, general rows) the kernel takes; 1x1 against one GEMM call on the input as it
// is (no im2col copy), bit for bit; products with few input channels (our own small-k kernel)
// against the definition summed in its order, bit for bit.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "../../src/op/kernels/gemm.h"
#include "../../src/op/kernels/packed_sgemm.h"
#include "../../src/op/kernels/small_k_gemm.h"
#include "relaypass/op/conv2d_epilogue.h"
#include "relaypass/support/parallel.h"
#include "test_util.h"

namespace relaypass::eval {
namespace {

using namespace testing;  // NOLINT
using relay::nn::Conv2DArgs;

struct DwCase {
  Shape data;  // NCHW
  int64_t multiplier, kernel;
  Conv2DArgs args;  // groups = channels is set by the test
  const char* what;
};

// The depthwise convolution summed in float in the kernel's order.
NDArray DepthwiseReference(const NDArray& x, const NDArray& w, const DwCase& c) {
  const int64_t n = c.data[0], ch = c.data[1], h = c.data[2], wd = c.data[3];
  const int64_t k = c.kernel, sh = c.args.strides[0], sw = c.args.strides[1];
  const int64_t pt = c.args.padding[0], pl = c.args.padding[1];
  const int64_t pb = c.args.padding.size() == 4 ? c.args.padding[2] : pt;
  const int64_t pr = c.args.padding.size() == 4 ? c.args.padding[3] : pl;
  const int64_t oh = (h + pt + pb - k) / sh + 1, ow = (wd + pl + pr - k) / sw + 1;
  const int64_t oc = ch * c.multiplier;
  const Shape shape = {n, oc, oh, ow};
  NDArray out = NDArray::Empty(shape, DataType::Float32());
  for (int64_t b = 0; b < n; ++b)
    for (int64_t o = 0; o < oc; ++o)
      for (int64_t y = 0; y < oh; ++y)
        for (int64_t xx = 0; xx < ow; ++xx) {
          float acc = 0.0f;
          for (int64_t r = 0; r < k; ++r) {
            const int64_t iy = y * sh - pt + r;
            if (iy < 0 || iy >= h) continue;
            for (int64_t s = 0; s < k; ++s) {
              const int64_t ix = xx * sw - pl + s;
              if (ix < 0 || ix >= wd) continue;
              acc += w.data<float>()[(o * k + r) * k + s] *
                     x.data<float>()[Offset(c.data, {b, o / c.multiplier, iy, ix})];
            }
          }
          out.mutable_data<float>()[Offset(shape, {b, o, y, xx})] = acc;
        }
  return out;
}

void ExpectBitwiseEqual(const NDArray& got, const NDArray& expected) {
  ASSERT_EQ(got.shape(), expected.shape());
  for (int64_t i = 0; i < got.size(); ++i) {
    const float a = got.data<float>()[i], b = expected.data<float>()[i];
    if (std::isnan(a) && std::isnan(b)) continue;
    ASSERT_EQ(std::memcmp(&a, &b, sizeof a), 0) << "element " << i << ": " << a << " vs " << b;
  }
}

const DwCase kDwCases[] = {
    {{1, 4, 9, 11}, 1, 3, {.padding = {1, 1}}, "3x3 stride 1 pad 1"},
    {{1, 2, 3, 3}, 1, 3, {.padding = {1, 1}}, "3x3 stride 1 pad 1 on a 3x3 image (in place)"},
    {{1, 3, 4, 21}, 1, 3, {.padding = {1, 1}}, "3x3 stride 1 pad 1, wide rows (in place)"},
    {{1, 2, 5, 2}, 1, 3, {.padding = {1, 1}}, "3x3 stride 1 pad 1, 2 columns (scratch)"},
    {{1, 4, 12, 10}, 1, 3, {.strides = {2, 2}, .padding = {1, 1}}, "3x3 stride 2 pad 1, even"},
    {{1, 3, 11, 13}, 1, 3, {.strides = {2, 2}, .padding = {1, 1}}, "3x3 stride 2 pad 1, odd"},
    {{1, 2, 8, 9},
     1,
     3,
     {.strides = {2, 2}, .padding = {1, 1, 2, 2}},
     "3x3 stride 2, padding 2 at the bottom and right (in place)"},
    {{1, 2, 3, 3}, 1, 3, {.strides = {2, 2}, .padding = {1, 1}}, "3x3 stride 2 on a 3x3 image"},
    {{2, 3, 7, 8}, 1, 3, {.strides = {2, 2}}, "3x3 stride 2 no padding, batch 2"},
    {{1, 2, 6, 7}, 1, 3, {.padding = {0, 2, 1, 0}}, "3x3 asymmetric padding"},
    {{1, 2, 9, 9}, 1, 3, {.strides = {2, 1}, .padding = {1, 1}}, "3x3 stride (2, 1)"},
    {{1, 2, 8, 8}, 1, 3, {.strides = {1, 3}, .padding = {1, 1}}, "3x3 stride (1, 3): general"},
    {{1, 3, 2, 1}, 1, 3, {.padding = {1, 1}}, "3x3 on a 2x1 image"},
    {{1, 3, 1, 2}, 1, 3, {.strides = {2, 2}, .padding = {1, 1}}, "3x3 stride 2 on a 1x2 image"},
    {{1, 2, 5, 6}, 2, 3, {.padding = {1, 1}}, "3x3 multiplier 2"},
    {{1, 2, 9, 8}, 1, 5, {.strides = {2, 2}, .padding = {2, 2}}, "5x5: general"},
    {{1, 64, 14, 14}, 1, 3, {.padding = {1, 1}}, "many channels (threads)"},
};

TEST(ConvPathsTest, MatchesTheDefinitionBitwise) {
  uint64_t seed = 40;
  for (const DwCase& c : kDwCases) {
    SCOPED_TRACE(c.what);
    const NDArray x = Random(c.data, seed++);
    const NDArray w = Random({c.data[1], c.multiplier, c.kernel, c.kernel}, seed++);
    Conv2DArgs args = c.args;
    args.groups = static_cast<int>(c.data[1]);
    const NDArray expected = DepthwiseReference(x, w, c);
    for (int threads : {1, 2}) {
      support::SetNumThreads(threads);
      const NDArray got = EvalOp(relay::nn::conv2d(C(x), C(w), args));
      support::SetNumThreads(1);
      ExpectBitwiseEqual(got, expected);
    }
  }
}

// A channel whose weights are not finite: padding taps are skipped (never Inf * 0 = NaN), as on
// the general path: on the in-place paths (stride 1 and 2, padding 1), which add no padding tap
// at all, and on the scratch path (asymmetric padding), which sends such a channel to the general
// path; the other channels still take the fast paths.
TEST(ConvPathsTest, NonFiniteWeightsSkipPaddingTaps) {
  const DwCase cases[] = {{{1, 2, 5, 5}, 1, 3, {.padding = {1, 1}}, "stride 1"},
                          {{1, 2, 5, 5}, 1, 3, {.strides = {2, 2}, .padding = {1, 1}}, "stride 2"},
                          {{1, 2, 5, 5}, 1, 3, {.padding = {1, 1, 1, 0}}, "scratch"}};
  for (const DwCase& c : cases) {
    SCOPED_TRACE(c.what);
    const NDArray x = Random(c.data, 1);
    NDArray w = Random({2, 1, 3, 3}, 2);
    w.mutable_data<float>()[0] = std::numeric_limits<float>::infinity();  // channel 0, tap (0, 0)
    Conv2DArgs args = c.args;
    args.groups = 2;
    const NDArray got = EvalOp(relay::nn::conv2d(C(x), C(w), args));
    ExpectBitwiseEqual(got, DepthwiseReference(x, w, c));
    // Output (0, 0) of channel 0 does not read tap (0, 0) (it is padding): finite.
    EXPECT_TRUE(std::isfinite(got.data<float>()[0]));
    // Output (1, 1) reads input (0, 0) through it (stride 1), as does (1, 1) at stride 2 (input
    // (1, 1)).
    const int64_t ow = got.shape()[3];
    EXPECT_TRUE(std::isinf(got.data<float>()[ow + 1]));
  }
}

// A 1x1 convolution with more than kSmallGemmMaxK input channels, plain and with a fused
// epilogue, against one GEMM call on the input (no im2col copy): the packed GEMM where the
// processor has AVX-512, else one sgemm call (the GEMM not split).
TEST(ConvPathsTest, PointwiseIsOneGemmOnTheInput) {
  ASSERT_GT(64, op::kernels::kSmallGemmMaxK);
  const NDArray x = Random({1, 64, 28, 28}, 5), w = Random({48, 64, 1, 1}, 6);
  NDArray expected = NDArray::Empty({1, 48, 28, 28}, DataType::Float32());
  if (op::kernels::PackedSgemmAvailable()) {
    op::kernels::PackedSgemm(48, 28 * 28, 64, w.data<float>(), 64, x.data<float>(), 28 * 28,
                             expected.mutable_data<float>(), 28 * 28, nullptr, 0, 0);
  } else {
    op::kernels::Gemm(false, 48, 28 * 28, 64, w.data<float>(), 64, x.data<float>(), 28 * 28,
                      expected.mutable_data<float>(), 28 * 28);
  }
  ExpectBitwiseEqual(EvalOp(relay::nn::conv2d(C(x), C(w))), expected);
  ir::Call call = relay::nn::conv2d(C(x), C(w)).downcast<ir::CallNode>();
  op::EpilogueStep relu;
  relu.kind = op::EpilogueStep::Kind::kRelu;
  for (int64_t i = 0; i < expected.size(); ++i) {
    float& v = expected.mutable_data<float>()[i];
    v = std::max(v, 0.0f);
  }
  ExpectBitwiseEqual(op::Conv2DWithEpilogue({x, w}, call->attrs, {relu}), expected);
}

// Products with at most kSmallGemmMaxK input channels (small_k_gemm.h), through 1x1 and 3x3
// convolutions, against the definition summed in float in the kernel's order (0, then + w * x
// per input channel and tap): sizes with row and column tails, several panels, 1 and 2 threads.
// Where the processor has AVX-512 these take the packed GEMM (packed_sgemm.h), whose order is the
// same with each step one fused multiply-add (k is below its 256-deep blocks).
TEST(ConvPathsTest, SmallKGemmMatchesTheDefinitionBitwise) {
  struct SmallCase {
    Shape data, weight;
    Conv2DArgs args;
  };
  const SmallCase cases[] = {
      {{1, 16, 9, 7}, {7, 16, 1, 1}, {}},     // 63 columns: one panel, tails both ways
      {{1, 1, 20, 30}, {9, 1, 1, 1}, {}},     // k = 1
      {{1, 32, 25, 25}, {12, 32, 1, 1}, {}},  // 625 columns: three panels
      {{1, 3, 17, 17}, {8, 3, 3, 3}, {.strides = {2, 2}, .padding = {1, 1}}},  // im2col, k = 27
  };
  uint64_t seed = 70;
  for (const SmallCase& c : cases) {
    const NDArray x = Random(c.data, seed++), w = Random(c.weight, seed++);
    const int64_t ch = c.data[1], h = c.data[2], wd = c.data[3];
    const int64_t o = c.weight[0], kh = c.weight[2], kw = c.weight[3];
    const int64_t sh = c.args.strides[0], sw = c.args.strides[1], pad = c.args.padding[0];
    const int64_t oh = (h + 2 * pad - kh) / sh + 1, ow = (wd + 2 * pad - kw) / sw + 1;
    ASSERT_LE(ch * kh * kw, op::kernels::kSmallGemmMaxK);
    const bool fused = op::kernels::PackedSgemmAvailable();
    const Shape shape = {1, o, oh, ow};
    NDArray expected = NDArray::Empty(shape, DataType::Float32());
    for (int64_t oc = 0; oc < o; ++oc)
      for (int64_t y = 0; y < oh; ++y)
        for (int64_t xx = 0; xx < ow; ++xx) {
          float acc = 0.0f;  // im2col's rows: input channel, then tap; padding reads are zeros
          for (int64_t ic = 0; ic < ch; ++ic)
            for (int64_t r = 0; r < kh; ++r)
              for (int64_t s = 0; s < kw; ++s) {
                const int64_t iy = y * sh - pad + r, ix = xx * sw - pad + s;
                const float v = iy < 0 || iy >= h || ix < 0 || ix >= wd
                                    ? 0.0f
                                    : x.data<float>()[Offset(c.data, {0, ic, iy, ix})];
                const float wv = w.data<float>()[((oc * ch + ic) * kh + r) * kw + s];
                acc = fused ? std::fma(wv, v, acc) : acc + wv * v;
              }
          expected.mutable_data<float>()[Offset(shape, {0, oc, y, xx})] = acc;
        }
    for (int threads : {1, 2}) {
      support::SetNumThreads(threads);
      const NDArray got = EvalOp(relay::nn::conv2d(C(x), C(w), c.args));
      support::SetNumThreads(1);
      ExpectBitwiseEqual(got, expected);
    }
  }
}

}  // namespace
}  // namespace relaypass::eval
