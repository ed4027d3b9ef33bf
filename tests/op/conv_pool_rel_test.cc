#include <gtest/gtest.h>

#include "fake_call.h"
#include "relaypass/relay.h"
#include "test_util.h"

namespace relaypass::op {
namespace {

using relay::Ints;
using relay::nn::Conv2DArgs;
using relay::nn::Pool2DArgs;
using testing::ExpectTypeError;
using testing::FakeCall;
using testing::Infer;
using testing::T;

ir::Call Conv(const Conv2DArgs& args) {
  return relay::nn::conv2d(relay::var("x"), relay::var("w"), args).downcast<ir::CallNode>();
}

TEST(Conv2DRelTest, AssignsUntypedWeightFromChannelsAndKernel) {
  FakeCall call(
      Conv({.strides = {2, 2}, .padding = {3}, .channels = 64, .kernel_size = Ints{7, 7}}),
      {T({1, 3, 224, 224}), nullptr});
  ASSERT_TRUE(call.Run());
  EXPECT_EQ(call.type(1), "Tensor[(64, 3, 7, 7), float32]");
  EXPECT_EQ(call.result(), "Tensor[(1, 64, 112, 112), float32]");
}

TEST(Conv2DRelTest, UsesTypedWeight) {
  EXPECT_EQ(
      Infer(Conv({.strides = {2, 2}, .padding = {1}}), {T({1, 64, 56, 56}), T({128, 64, 3, 3})}),
      "Tensor[(1, 128, 28, 28), float32]");
  EXPECT_EQ(Infer(Conv({}), {T({1, 64, 56, 56}), T({128, 64, 1, 1})}),
            "Tensor[(1, 128, 56, 56), float32]");
  EXPECT_EQ(Infer(Conv({}), {T({1, 3, 8, 8}), nullptr}), "<not ready>");
  EXPECT_EQ(Infer(Conv({}), {nullptr, T({8, 3, 3, 3})}), "<not ready>");
}

TEST(Conv2DRelTest, DilationAndAsymmetricPadding) {
  EXPECT_EQ(Infer(Conv({.dilation = {2, 2}}), {T({1, 3, 32, 32}), T({8, 3, 3, 3})}),
            "Tensor[(1, 8, 28, 28), float32]");
  // (top, left, bottom, right) = (1, 2, 3, 4): pad_h = 4, pad_w = 6.
  EXPECT_EQ(Infer(Conv({.padding = {1, 2, 3, 4}}), {T({1, 3, 10, 10}), T({8, 3, 3, 3})}),
            "Tensor[(1, 8, 12, 14), float32]");
  // 2 values (a, b) pad a on top and bottom, b left and right.
  EXPECT_EQ(Infer(Conv({.padding = {0, 1}}), {T({1, 3, 10, 10}), T({8, 3, 3, 3})}),
            "Tensor[(1, 8, 8, 10), float32]");
}

TEST(Conv2DRelTest, Groups) {
  EXPECT_EQ(Infer(Conv({.groups = 4}), {T({1, 32, 16, 16}), T({64, 8, 3, 3})}),
            "Tensor[(1, 64, 14, 14), float32]");
  // Grouped convolution needs the weight's type to tell it from depthwise.
  EXPECT_EQ(Infer(Conv({.groups = 4, .channels = 64, .kernel_size = Ints{3, 3}}),
                  {T({1, 32, 16, 16}), nullptr}),
            "<not ready>");
  EXPECT_EQ(Infer(Conv({.groups = 4, .channels = 64, .kernel_size = Ints{3, 3}}),
                  {T({1, 32, 16, 16}), T({64, 8, 3, 3})}),
            "Tensor[(1, 64, 14, 14), float32]");
}

TEST(Conv2DRelTest, Depthwise) {
  Conv2DArgs args{
      .strides = {2, 2}, .padding = {1}, .groups = 32, .channels = 32, .kernel_size = Ints{3, 3}};
  EXPECT_EQ(Infer(Conv(args), {T({1, 32, 112, 112}), T({32, 1, 3, 3})}),
            "Tensor[(1, 32, 56, 56), float32]");
  args.strides = {1, 1};
  args.data_layout = "NHWC";
  args.kernel_layout = "HWOI";
  EXPECT_EQ(Infer(Conv(args), {T({1, 112, 112, 32}), T({3, 3, 32, 1})}),
            "Tensor[(1, 112, 112, 32), float32]");
  // Channel multiplier 2: weight [C_in, channels / C_in, kh, kw].
  FakeCall mult(Conv({.groups = 8, .channels = 16, .kernel_size = Ints{3, 3}}),
                {T({1, 8, 10, 10}), T({8, -1, 3, 3})});
  ASSERT_TRUE(mult.Run());
  EXPECT_EQ(mult.result(), "Tensor[(1, 16, 8, 8), float32]");
}

TEST(Conv2DRelTest, NhwcHwio) {
  FakeCall call(Conv({.strides = {2, 2},
                      .padding = {3},
                      .channels = 64,
                      .kernel_size = Ints{7, 7},
                      .data_layout = "NHWC",
                      .kernel_layout = "HWIO"}),
                {T({1, 224, 224, 3}), nullptr});
  ASSERT_TRUE(call.Run());
  EXPECT_EQ(call.type(1), "Tensor[(7, 7, 3, 64), float32]");
  EXPECT_EQ(call.result(), "Tensor[(1, 112, 112, 64), float32]");
  EXPECT_EQ(Infer(Conv({.data_layout = "NHWC", .kernel_layout = "HWIO", .out_layout = "NCHW"}),
                  {T({1, 10, 10, 3}), T({3, 3, 3, 8})}),
            "Tensor[(1, 8, 8, 8), float32]");
}

TEST(Conv2DRelTest, BlockedLayouts) {
  Conv2DArgs args{.padding = {1}, .data_layout = "NCHW16c", .kernel_layout = "OIHW16i16o"};
  EXPECT_EQ(Infer(Conv(args), {T({1, 4, 56, 56, 16}), T({8, 4, 3, 3, 16, 16})}),
            "Tensor[(1, 8, 56, 56, 16), float32]");
  args.channels = 128;
  args.kernel_size = Ints{3, 3};
  FakeCall call(Conv(args), {T({1, 4, 56, 56, 16}), nullptr});
  ASSERT_TRUE(call.Run());
  EXPECT_EQ(call.type(1), "Tensor[(8, 4, 3, 3, 16, 16), float32]");
  args.out_layout = "NCHW";
  EXPECT_EQ(Infer(Conv(args), {T({1, 4, 56, 56, 16}), nullptr}),
            "Tensor[(1, 128, 56, 56), float32]");
}

TEST(Conv2DRelTest, AnyDimsAndOutDtype) {
  EXPECT_EQ(Infer(Conv({}), {T({-1, 3, 8, -1}), T({4, 3, 3, 3})}), "Tensor[(?, 4, 6, ?), float32]");
  EXPECT_EQ(Infer(Conv({.out_dtype = "int32"}), {T({1, 3, 8, 8}, "int8"), T({4, 3, 3, 3}, "int8")}),
            "Tensor[(1, 4, 6, 6), int32]");
  FakeCall call(Conv({.channels = 4, .kernel_size = Ints{3, 3}}),
                {T({1, 3, 8, 8}, "float16"), nullptr});
  ASSERT_TRUE(call.Run());
  EXPECT_EQ(call.type(1), "Tensor[(4, 3, 3, 3), float16]");
}

TEST(Conv2DRelTest, Errors) {
  ExpectTypeError(
      [] {
        Infer(Conv({}), {T({1, 64, 56, 56}), T({32, 32, 3, 3})});
      },
      "input channels 64 do not match weight's 32");
  ExpectTypeError(
      [] {
        Infer(Conv({.kernel_size = Ints{5, 5}}), {T({1, 3, 8, 8}), T({4, 3, 3, 3})});
      },
      "kernel_size [5, 5] does not match");
  ExpectTypeError(
      [] {
        Infer(Conv({.channels = 16}), {T({1, 3, 8, 8}), T({4, 3, 3, 3})});
      },
      "channels=16 does not match");
  ExpectTypeError(
      [] {
        Infer(Conv({.channels = 64, .kernel_size = Ints{3, 3}}),
              {T({1, 64, 8, 8}), T({64, 32, 3, 3})});
      },
      "weight shape (64, 32, 3, 3) does not match (64, 64, 3, 3)");
  ExpectTypeError(
      [] {
        Infer(Conv({.data_layout = "NCW"}), {T({1, 3, 8}), T({4, 3, 3, 3})});
      },
      "not convertible to NCHW");
  ExpectTypeError([] { Infer(Conv({}), {T({1, 3, 8}), T({4, 3, 3, 3})}); }, "data shape (1, 3, 8)");
  ExpectTypeError(
      [] {
        Infer(Conv({.data_layout = "NCHW4"}), {T({1, 3, 8, 8}), T({4, 3, 3, 3})});
      },
      "invalid layout");
}

TEST(Conv2DRelTest, NoneArrayAttrIsATypeError) {
  ir::Expr conv = ir::MakeCall(
      GetOp("nn.conv2d"), {relay::var("x"), relay::var("w")},
      ir::MakeAttrs(*GetOp("nn.conv2d")->def->attrs_schema, {{"strides", ir::AttrValue::Null()}}));
  ExpectTypeError(
      [&] {
        Infer(conv, {T({1, 3, 8, 8}), T({4, 3, 3, 3})});
      },
      "attribute strides must not be None");
}

ir::Call Pool(const char* op, const Pool2DArgs& args) {
  ir::Expr x = relay::var("x");
  return (std::string(op) == "max" ? relay::nn::max_pool2d(x, args)
                                   : relay::nn::avg_pool2d(x, args))
      .downcast<ir::CallNode>();
}

TEST(Pool2DRelTest, Shapes) {
  EXPECT_EQ(Infer(Pool("max", {.pool_size = {3, 3}, .strides = {2, 2}, .padding = {1, 1}}),
                  {T({1, 64, 112, 112})}),
            "Tensor[(1, 64, 56, 56), float32]");
  EXPECT_EQ(Infer(Pool("max", {.pool_size = {3, 3}, .strides = {2, 2}, .layout = "NHWC"}),
                  {T({1, 112, 112, 64})}),
            "Tensor[(1, 55, 55, 64), float32]");
  EXPECT_EQ(Infer(Pool("avg", {.pool_size = {3, 3}, .dilation = {2, 2}}), {T({1, 1, 10, 10})}),
            "Tensor[(1, 1, 6, 6), float32]");
  EXPECT_EQ(Infer(Pool("avg", {.pool_size = {2, 2}, .strides = {2, 2}, .layout = "NCHW16c"}),
                  {T({1, 4, 56, 56, 16})}),
            "Tensor[(1, 4, 28, 28, 16), float32]");
  EXPECT_EQ(Infer(Pool("max", {.pool_size = {2, 2}}), {T({1, 3, -1, 9})}),
            "Tensor[(1, 3, ?, 8), float32]");
}

TEST(Pool2DRelTest, CeilMode) {
  EXPECT_EQ(Infer(Pool("max", {.pool_size = {3, 3}, .strides = {2, 2}}), {T({1, 1, 6, 6})}),
            "Tensor[(1, 1, 2, 2), float32]");
  EXPECT_EQ(Infer(Pool("max", {.pool_size = {3, 3}, .strides = {2, 2}, .ceil_mode = true}),
                  {T({1, 1, 6, 6})}),
            "Tensor[(1, 1, 3, 3), float32]");
}

TEST(Pool2DRelTest, Errors) {
  ExpectTypeError(
      [] {
        Infer(Pool("max", {.pool_size = {2, 2}, .layout = "NCHW4h"}), {T({1, 3, 2, 8, 4})});
      },
      "cannot be split");
  ExpectTypeError(
      [] {
        Infer(Pool("max", {.pool_size = {2, 2}, .layout = "NCW"}), {T({1, 3, 8})});
      },
      "must have H and W");
  ExpectTypeError(
      [] {
        Infer(Pool("max", {.pool_size = {2, 2}}), {T({1, 3, 8})});
      },
      "does not match layout NCHW");
}

TEST(GlobalPool2DRelTest, HeightAndWidthBecomeOne) {
  EXPECT_EQ(Infer(relay::nn::global_avg_pool2d(relay::var("x")), {T({1, 512, 7, 7})}),
            "Tensor[(1, 512, 1, 1), float32]");
  EXPECT_EQ(Infer(relay::nn::global_avg_pool2d(relay::var("x"), "NHWC"), {T({1, 7, 7, 512})}),
            "Tensor[(1, 1, 1, 512), float32]");
}

}  // namespace
}  // namespace relaypass::op
