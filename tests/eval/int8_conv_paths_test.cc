// The int8 convolution's patch gathers (src/op/kernels/int8/): 1x1 kernels without padding read
// the image straight into the GEMM's rows (16 x 16 byte transposes at stride 1, byte by byte at
// other strides); other kernels through the padded channels-last copy. Expected values: the same
// convolution on int32 operands, which runs the reference loop (no int8 GEMM).
#include <random>
#include <string>

#include "../../src/op/kernels/int8/channels_last.h"
#include "relaypass/support/parallel.h"
#include "test_util.h"

namespace relaypass::eval {
namespace {

using namespace testing;  // NOLINT

NDArray Bytes(const Shape& shape, DataType dtype, uint32_t seed) {
  NDArray out = NDArray::Empty(shape, dtype);
  std::mt19937 rng(seed);
  auto* p = static_cast<uint8_t*>(out.mutable_raw_data());
  for (int64_t i = 0; i < out.size(); ++i) p[i] = static_cast<uint8_t>(rng());
  return out;
}

struct Case {
  Shape data, weight;
  relay::nn::Conv2DArgs args;
  const char* what;
};

TEST(Int8ConvPaths, MatchTheInt32Convolution) {
  const Case cases[] = {
      {{1, 64, 14, 14}, {32, 64, 1, 1}, {}, "1x1, channels and pixels multiples of 16"},
      {{2, 19, 7, 9}, {5, 19, 1, 1}, {}, "1x1, 19 channels, 63 pixels, batch 2"},
      {{1, 40, 13, 11}, {8, 40, 1, 1}, {.strides = {2, 2}}, "1x1 stride 2"},
      {{1, 24, 6, 35}, {12, 6, 1, 1}, {.groups = 4}, "1x1 grouped"},
      {{1, 17, 10, 33}, {9, 17, 3, 3}, {.padding = {1, 1}}, "3x3 padded"},
      {{1, 16, 12, 12},
       {16, 1, 3, 3},
       {.strides = {2, 2}, .padding = {1, 1}, .groups = 16},
       "depthwise stride 2"},
      {{1, 8, 9, 9}, {4, 8, 1, 1}, {.padding = {1, 1}}, "1x1 padded (not the direct path)"},
      // The VNNI panel path (uint8 data, channels a multiple of 4), where the processor has it:
      // pixel blocks with tails, output channels not a multiple of 8, batches, dilation.
      {{2, 32, 7, 7}, {13, 32, 3, 3}, {.padding = {1, 1}}, "3x3, 49 pixels, 13 rows, batch 2"},
      {{1, 8, 15, 17},
       {70, 8, 3, 3},
       {.strides = {2, 2}, .padding = {1, 1}, .dilation = {2, 2}},
       "3x3 stride 2 dilation 2, 70 rows"},
      {{1, 128, 13, 13}, {72, 128, 1, 1}, {}, "1x1, 169 pixels (a block of 9), 72 rows"},
  };
  uint32_t seed = 1;
  for (const Case& c : cases) {
    for (const char* data_dtype : {"uint8", "int8"}) {
      SCOPED_TRACE(std::string(c.what) + ", " + data_dtype);
      const NDArray x = Bytes(c.data, *DataType::Parse(data_dtype), seed++);
      const NDArray w = Bytes(c.weight, DataType::Int(8), seed++);
      relay::nn::Conv2DArgs args = c.args;
      args.out_dtype = "int32";
      const NDArray x32 = EvalOp(relay::cast(C(x), "int32"));
      const NDArray w32 = EvalOp(relay::cast(C(w), "int32"));
      const NDArray expected = EvalOp(relay::nn::conv2d(C(x32), C(w32), args));
      for (int threads : {1, 2}) {
        support::SetNumThreads(threads);
        const NDArray got = EvalOp(relay::nn::conv2d(C(x), C(w), args));
        ASSERT_EQ(got.shape(), expected.shape());
        EXPECT_EQ(Values(got), Values(expected));
      }
      support::SetNumThreads(1);
    }
  }
}

// 16-bit operands into int32 (TVM's x86 legalization without fast int8: cast to int16 minus the
// zero point) run in float64, which is exact for them; the int32 result, wrapped where it
// overflows (the extremes below overflow), must equal the int32 convolution's.
TEST(Int8ConvPaths, SixteenBitOperandsMatchTheInt32Convolution) {
  struct Operands {
    const char* data;
    const char* weight;
  };
  uint32_t seed = 100;
  for (Operands o :
       {Operands{"int16", "int16"}, Operands{"uint16", "int8"}, Operands{"int16", "uint8"}}) {
    SCOPED_TRACE(std::string(o.data) + " x " + o.weight);
    NDArray x = Bytes({1, 64, 6, 7}, *DataType::Parse(o.data), seed++);
    NDArray w = Bytes({10, 64, 3, 3}, *DataType::Parse(o.weight), seed++);
    if (std::string(o.data) == "int16") {
      auto* p = x.mutable_data<int16_t>();
      for (int64_t i = 0; i < 64; ++i) p[i * 42] = -32768;  // one extreme per channel
    }
    relay::nn::Conv2DArgs args;
    args.padding = {1, 1};
    args.out_dtype = "int32";
    const NDArray x32 = EvalOp(relay::cast(C(x), "int32"));
    const NDArray w32 = EvalOp(relay::cast(C(w), "int32"));
    const NDArray expected = EvalOp(relay::nn::conv2d(C(x32), C(w32), args));
    const NDArray got = EvalOp(relay::nn::conv2d(C(x), C(w), args));
    ASSERT_EQ(got.dtype(), DataType::Int(32));
    EXPECT_EQ(Values(got), Values(expected));
  }
}

// TapsFirst (OIHW to OHWI) against its definition, around the 16-channel blocks and the end of
// the buffer (where the 16-byte reads would pass it).
TEST(Int8ConvPaths, TapsFirstIsTheOhwiOrder) {
  for (int64_t channels : {3, 16, 35}) {
    for (int64_t taps : {1, 9, 16}) {
      const int64_t rows = 5;
      std::vector<uint8_t> src(static_cast<size_t>(rows * channels * taps));
      for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint8_t>(i * 13 + 5);
      std::vector<uint8_t> dst(src.size(), 0xee);
      op::kernels::TapsFirst(src.data(), rows, channels, taps, dst.data());
      for (int64_t o = 0; o < rows; ++o) {
        for (int64_t t = 0; t < taps; ++t) {
          for (int64_t c = 0; c < channels; ++c) {
            ASSERT_EQ(dst[(o * taps + t) * channels + c], src[(o * channels + c) * taps + t])
                << channels << " " << taps;
          }
        }
      }
    }
  }
}

// GatherChannelsLast against its definition, on sizes around the 16 x 16 blocks.
TEST(Int8ConvPaths, GatherChannelsLastIsATranspose) {
  for (int64_t channels : {1, 15, 16, 33}) {
    for (int64_t count : {1, 16, 31, 48}) {
      for (int64_t stride : {1, 2}) {
        const int64_t plane = count * stride + 3;
        std::vector<uint8_t> src(static_cast<size_t>(channels * plane));
        for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint8_t>(i * 37 + 11);
        const int64_t pitch = channels + 5;
        std::vector<uint8_t> dst(static_cast<size_t>(count * pitch), 0xee);
        op::kernels::GatherChannelsLast(src.data(), channels, plane, count, stride, dst.data(),
                                        pitch, 0x80);
        for (int64_t i = 0; i < count; ++i) {
          for (int64_t c = 0; c < pitch; ++c) {
            const uint8_t want =
                c < channels ? static_cast<uint8_t>(src[c * plane + i * stride] ^ 0x80) : 0xee;
            ASSERT_EQ(dst[i * pitch + c], want) << channels << " " << count << " " << stride;
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace relaypass::eval
