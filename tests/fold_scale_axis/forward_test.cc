// ForwardFoldScaleAxis on small graphs, one rule at a time (relay_semantics.md 3.5, Forward).
// Expected texts print the module after the pass, type comments removed. The printer numbers a
// node when its first consumer completes (1.7), which fixes the order of the lines below.
#include <gtest/gtest.h>

#include "relaypass/ir/structural.h"
#include "relaypass/passes/fold_scale_axis.h"
#include "test_util.h"

namespace relaypass::passes {
namespace {

using namespace relay;    // NOLINT: reads like the tutorials
using namespace testing;  // NOLINT

nn::Conv2DArgs Conv3x3(int64_t channels) {
  return {.padding = {1, 1}, .channels = channels, .kernel_size = Ints{3, 3}};
}

TEST(ForwardFoldScaleAxisTest, ReluThenConv) {
  Var x = var("x", {1, 4, 8, 8});
  Var w = var("w", {8, 4, 3, 3});
  Expr y = nn::relu(multiply(x, Ramp({4, 1, 1}, 0.5f, 0.25f)));
  IRModule mod = Typed(function({x, w}, nn::conv2d(y, w, Conv3x3(8))));
  IRModule folded = ForwardFoldScaleAxis()(mod);
  // conv2d asks its data for {1} (NCHW's C); relu forwards that, requiring a positive scale; the
  // multiply's (4, 1, 1) constant matches and is positive, so it leaves as squeeze(axis=[1, 2])
  // = (4,). relu now reads %x, and the scale lands on the kernel's I axis: OIHW has two axes
  // after I, hence expand_dims(axis=1, num_newaxis=2) giving (4, 1, 1).
  EXPECT_EQ(PrintWithoutTypes(folded),
            "def @main(%x: Tensor[(1, 4, 8, 8), float32], %w: Tensor[(8, 4, 3, 3), float32]) -> "
            "Tensor[(1, 8, 8, 8), float32] {\n"
            "  %0 = squeeze(meta[relay.Constant][0], axis=[1, 2]);\n"
            "  %1 = expand_dims(%0, axis=1, num_newaxis=2);\n"
            "  %2 = nn.relu(%x);\n"
            "  %3 = multiply(%w, %1);\n"
            "  nn.conv2d(%2, %3, padding=[1, 1, 1, 1], channels=8, kernel_size=[3, 3])\n"
            "}\n\n");
  ExpectSameResults(mod, folded);
}

TEST(ForwardFoldScaleAxisTest, AddDividesTheOtherOperand) {
  Var x = var("x", {1, 4, 8, 8});
  Var w = var("w", {8, 4, 3, 3});
  Var b = var("b", {4, 1, 1});
  Expr scaled = multiply(x, Ramp({4, 1, 1}, 0.5f, 0.25f));
  // BN followed by relu, as SimplifyInference leaves it: x*s + b.
  IRModule mod = Typed(function({x, w, b}, nn::conv2d(nn::relu(add(scaled, b)), w, Conv3x3(8))));
  IRModule folded = ForwardFoldScaleAxis()(mod);
  // x*s + b == (x + b/s)*s: the bias is divided by the scale laid out for the (1, 4, 8, 8) sum.
  EXPECT_EQ(PrintWithoutTypes(folded),
            "def @main(%x: Tensor[(1, 4, 8, 8), float32], %w: Tensor[(8, 4, 3, 3), float32], "
            "%b: Tensor[(4, 1, 1), float32]) -> Tensor[(1, 8, 8, 8), float32] {\n"
            "  %0 = squeeze(meta[relay.Constant][0], axis=[1, 2]);\n"
            "  %1 = expand_dims(%0, axis=1, num_newaxis=2);\n"
            "  %2 = divide(%b, %1);\n"
            "  %3 = add(%x, %2);\n"
            "  %4 = expand_dims(%0, axis=1, num_newaxis=2);\n"
            "  %5 = nn.relu(%3);\n"
            "  %6 = multiply(%w, %4);\n"
            "  nn.conv2d(%5, %6, padding=[1, 1, 1, 1], channels=8, kernel_size=[3, 3])\n"
            "}\n\n");
  ExpectSameResults(mod, folded);

  // The scaled operand on the right of a subtract.
  IRModule right = Typed(function({x, w, b}, nn::conv2d(subtract(b, scaled), w, Conv3x3(8))));
  IRModule folded_right = ForwardFoldScaleAxis()(right);
  EXPECT_EQ(CountOp(folded_right, "divide"), 1u);
  ExpectSameResults(right, folded_right);
}

TEST(ForwardFoldScaleAxisTest, NegativeScaleIsBlockedByReluOnly) {
  Var x = var("x", {1, 4, 8, 8});
  Var w = var("w", {8, 4, 3, 3});
  Expr scaled = multiply(x, Ramp({4, 1, 1}, -1.0f, 0.5f));  // -1, -0.5, 0, 0.5
  IRModule through_relu = Typed(function({x, w}, nn::conv2d(nn::relu(scaled), w, Conv3x3(8))));
  EXPECT_TRUE(ir::StructuralEqual(ForwardFoldScaleAxis()(through_relu), through_relu));

  IRModule direct = Typed(function({x, w}, nn::conv2d(scaled, w, Conv3x3(8))));
  IRModule folded = ForwardFoldScaleAxis()(direct);
  EXPECT_EQ(CountOp(folded, "multiply"), 1u) << "only the weight is multiplied";
  ExpectSameResults(direct, folded);
}

TEST(ForwardFoldScaleAxisTest, ConsumersMessagesIntersect) {
  Var x = var("x", {1, 4, 8, 8});
  Var w1 = var("w1", {8, 4, 3, 3});
  Var w2 = var("w2", {8, 4, 3, 3});
  auto two_convs = [&](const Expr& scale, bool relu_on_first) {
    Expr y = multiply(x, scale);
    Expr first = nn::conv2d(relu_on_first ? nn::relu(y) : y, w1, Conv3x3(8));
    return Typed(function({x, w1, w2}, add(first, nn::conv2d(y, w2, Conv3x3(8)))));
  };
  // Both consumers ask for {1}: the one multiply is folded into both weights.
  IRModule both = two_convs(Ramp({4, 1, 1}, -1.0f, 0.5f), false);
  IRModule folded = ForwardFoldScaleAxis()(both);
  EXPECT_EQ(CountOp(folded, "multiply"), 2u);
  EXPECT_EQ(CountOp(folded, "squeeze"), 1u) << "one scale, shared";
  ExpectSameResults(both, folded);

  // One consumer path crosses a relu: the intersection requires a positive scale of both.
  IRModule negative = two_convs(Ramp({4, 1, 1}, -1.0f, 0.5f), true);
  EXPECT_TRUE(ir::StructuralEqual(ForwardFoldScaleAxis()(negative), negative));
  IRModule positive = two_convs(Ramp({4, 1, 1}, 1.0f, 0.5f), true);
  IRModule folded_positive = ForwardFoldScaleAxis()(positive);
  EXPECT_EQ(CountOp(folded_positive, "multiply"), 2u);
  ExpectSameResults(positive, folded_positive);

  // A consumer without a rule (exp) sends "none": nothing is folded.
  Expr y = multiply(x, Ramp({4, 1, 1}, 1.0f, 0.5f));
  IRModule with_exp = Typed(function({x, w1}, tuple({nn::conv2d(y, w1, Conv3x3(8)), exp(y)})));
  EXPECT_TRUE(ir::StructuralEqual(ForwardFoldScaleAxis()(with_exp), with_exp));

  // NCHW asks for {1}, NHWC for {3}: the intersection is empty and nothing is folded (TVM aborts).
  Var sq = var("sq", {1, 4, 4, 4});
  Var hwio = var("hwio", {3, 3, 4, 8});
  Expr z = multiply(sq, Ramp({4, 1, 1}, 1.0f, 0.5f));
  Expr nhwc = nn::conv2d(z, hwio, {.data_layout = "NHWC", .kernel_layout = "HWIO"});
  Expr nchw = nn::conv2d(z, var("oihw", {8, 4, 3, 3}));
  IRModule crossed = Typed(function({sq, hwio}, tuple({nchw, nhwc})));
  EXPECT_TRUE(ir::StructuralEqual(ForwardFoldScaleAxis()(crossed), crossed));
}

TEST(ForwardFoldScaleAxisTest, LetAndScalarScales) {
  Var x = var("x", {1, 4, 8, 8});
  Var w = var("w", {8, 4, 3, 3});
  // A let-bound value is sent "none" (FoldScaleAxis expects dataflow form): nothing is folded.
  Var y = var("y");
  Expr let = ir::MakeLet(y, multiply(x, Ramp({4, 1, 1}, 1, 1)), nn::conv2d(y, w));
  IRModule with_let = Typed(function({x, w}, let));
  EXPECT_TRUE(ir::StructuralEqual(ForwardFoldScaleAxis()(with_let), with_let));

  // A constant scalar is broadcast to the (4,) channel scale TVM builds with repeat.
  IRModule scalar = Typed(function({x, w}, nn::conv2d(nn::relu(multiply(x, const_(2.0f))), w)));
  IRModule folded = ForwardFoldScaleAxis()(scalar);
  EXPECT_EQ(CountOp(folded, "multiply"), 1u) << PrintWithoutTypes(folded);
  ExpectSameResults(scalar, folded);

  // A scalar variable is folded too (no relu: it need not be a positive constant). TVM builds
  // the channel scale as repeat(expand_dims(%s, axis=0), repeats=<C>, axis=0).
  Var s = var("s", ir::ScalarType(ir::DataType::Float32()));
  IRModule variable = Typed(function({x, w, s}, nn::conv2d(multiply(x, s), w)));
  IRModule folded_variable = ForwardFoldScaleAxis()(variable);
  EXPECT_EQ(PrintWithoutTypes(folded_variable),
            "def @main(%x: Tensor[(1, 4, 8, 8), float32], %w: Tensor[(8, 4, 3, 3), float32], "
            "%s: float32) -> Tensor[(1, 8, 6, 6), float32] {\n"
            "  %0 = expand_dims(%s, axis=0);\n"
            "  %1 = repeat(%0, repeats=4, axis=0);\n"
            "  %2 = expand_dims(%1, axis=1, num_newaxis=2);\n"
            "  %3 = multiply(%w, %2);\n"
            "  nn.conv2d(%x, %3, padding=[0, 0, 0, 0])\n"
            "}\n");
  ExpectSameResults(variable, folded_variable);
}

// nn.leaky_relu forwards the message as relu does (a positive constant scale is required).
TEST(ForwardFoldScaleAxisTest, LeakyReluLikeRelu) {
  Var x = var("x", {1, 4, 8, 8});
  Var w = var("w", {8, 4, 3, 3});
  IRModule positive = Typed(function(
      {x, w}, nn::conv2d(nn::leaky_relu(multiply(x, Ramp({4, 1, 1}, 0.5f, 0.25f)), 0.1), w)));
  IRModule folded = ForwardFoldScaleAxis()(positive);
  EXPECT_EQ(CountOp(folded, "multiply"), 1u) << PrintWithoutTypes(folded);
  EXPECT_EQ(CountOp(folded, "squeeze"), 1u) << PrintWithoutTypes(folded);
  ExpectSameResults(positive, folded);
  IRModule negative = Typed(
      function({x, w}, nn::conv2d(nn::leaky_relu(multiply(x, Ramp({4, 1, 1}, -1.0f, 0.5f))), w)));
  EXPECT_TRUE(ir::StructuralEqual(ForwardFoldScaleAxis()(negative), negative));
}

TEST(ForwardFoldScaleAxisTest, NHWCWithHWIOKernel) {
  Var x = var("x", {1, 8, 8, 4});
  Var w = var("w", {3, 3, 4, 8});
  Expr y = nn::relu(multiply(x, Ramp({4}, 0.5f, 0.25f)));
  Expr conv = nn::conv2d(y, w,
                         {.padding = {1, 1},
                          .channels = 8,
                          .kernel_size = Ints{3, 3},
                          .data_layout = "NHWC",
                          .kernel_layout = "HWIO"});
  IRModule mod = Typed(function({x, w}, conv));
  IRModule folded = ForwardFoldScaleAxis()(mod);
  // NHWC asks for {3}; the (4,) scale needs no squeeze; I is HWIO's axis 2, one axis after it.
  EXPECT_EQ(PrintWithoutTypes(folded),
            "def @main(%x: Tensor[(1, 8, 8, 4), float32], %w: Tensor[(3, 3, 4, 8), float32]) -> "
            "Tensor[(1, 8, 8, 8), float32] {\n"
            "  %0 = expand_dims(meta[relay.Constant][0], axis=1);\n"
            "  %1 = nn.relu(%x);\n"
            "  %2 = multiply(%w, %0);\n"
            "  nn.conv2d(%1, %2, padding=[1, 1, 1, 1], channels=8, kernel_size=[3, 3], "
            "data_layout=\"NHWC\", kernel_layout=\"HWIO\")\n"
            "}\n\n");
  ExpectSameResults(mod, folded);
}

TEST(ForwardFoldScaleAxisTest, DepthwiseScalesTheOutputChannelAxis) {
  Var x = var("x", {1, 4, 8, 8});
  Var w = var("w", {4, 1, 3, 3});
  Expr y = multiply(x, Ramp({4, 1, 1}, 0.5f, 0.25f));
  Expr conv = nn::conv2d(y, w, {.padding = {1, 1}, .groups = 4, .channels = 4});
  IRModule mod = Typed(function({x, w}, conv));
  IRModule folded = ForwardFoldScaleAxis()(mod);
  // Depthwise: input channel c is kernel row c, OIHW's O axis: expand_dims(axis=1, num_newaxis=3).
  EXPECT_NE(PrintWithoutTypes(folded).find("expand_dims(%0, axis=1, num_newaxis=3)"),
            std::string::npos)
      << PrintWithoutTypes(folded);
  ExpectSameResults(mod, folded);

  // NHWC with an HWOI kernel (mobilenet's depthwise layout): O is axis 2.
  Var xh = var("xh", {1, 8, 8, 4});
  Var wh = var("wh", {3, 3, 4, 1});
  Expr nhwc = nn::conv2d(multiply(xh, Ramp({4}, 0.5f, 0.25f)), wh,
                         {.padding = {1, 1},
                          .groups = 4,
                          .channels = 4,
                          .data_layout = "NHWC",
                          .kernel_layout = "HWOI"});
  IRModule mod_nhwc = Typed(function({xh, wh}, nhwc));
  IRModule folded_nhwc = ForwardFoldScaleAxis()(mod_nhwc);
  EXPECT_NE(PrintWithoutTypes(folded_nhwc).find("expand_dims(meta[relay.Constant][0], axis=1)"),
            std::string::npos)
      << PrintWithoutTypes(folded_nhwc);
  ExpectSameResults(mod_nhwc, folded_nhwc);
}

TEST(ForwardFoldScaleAxisTest, Dense) {
  Var x = var("x", {2, 16});
  Var w = var("w", {8, 16});
  IRModule mod = Typed(function({x, w}, nn::dense(multiply(x, Ramp({16}, -1.0f, 0.125f)), w)));
  IRModule folded = ForwardFoldScaleAxis()(mod);
  // dense asks for {1}; the (16,) scale multiplies the weight's columns directly.
  EXPECT_EQ(PrintWithoutTypes(folded),
            "def @main(%x: Tensor[(2, 16), float32], %w: Tensor[(8, 16), float32]) -> "
            "Tensor[(2, 8), float32] {\n"
            "  %0 = multiply(%w, meta[relay.Constant][0]);\n"
            "  nn.dense(%x, %0, units=None)\n"
            "}\n\n");
  ExpectSameResults(mod, folded);
}

TEST(ForwardFoldScaleAxisTest, LiteralTupleGetItemIsFoldedWhenRewriting) {
  Var x = var("x", {1, 4, 8, 8});
  Var w = var("w", {8, 4, 3, 3});
  Expr conv = nn::conv2d(multiply(x, Ramp({4, 1, 1}, 1, 1)), w);
  IRModule mod = Typed(function({x, w}, get_item(tuple({conv, x}), 0)));
  IRModule folded = ForwardFoldScaleAxis()(mod);
  auto* body = folded.Lookup("main")->body.as<ir::CallNode>();
  ASSERT_TRUE(body && body->op_node()->name == "nn.conv2d") << PrintWithoutTypes(folded);
  ExpectSameResults(mod, folded);
}

TEST(ForwardFoldScaleAxisTest, BlockedLayoutsUseReshape) {
  Var x = var("x", {1, 2, 8, 8, 4});
  Var w = var("w", {2, 2, 3, 3, 4, 4});
  Expr y = multiply(x, Ramp({1, 2, 1, 1, 4}, 0.5f, 0.25f));
  Expr conv = nn::conv2d(y, w,
                         {.padding = {1, 1},
                          .channels = 8,
                          .kernel_size = Ints{3, 3},
                          .data_layout = "NCHW4c",
                          .kernel_layout = "OIHW4i4o"});
  IRModule mod = Typed(function({x, w}, conv));
  IRModule folded = ForwardFoldScaleAxis()(mod);
  // NCHW4c asks for {1, 4}; the scale squeezes to (2, 4) and is reshaped onto the kernel's I and
  // i axes (1 and 4).
  EXPECT_EQ(PrintWithoutTypes(folded),
            "def @main(%x: Tensor[(1, 2, 8, 8, 4), float32], %w: Tensor[(2, 2, 3, 3, 4, 4), "
            "float32]) -> Tensor[(1, 2, 8, 8, 4), float32] {\n"
            "  %0 = squeeze(meta[relay.Constant][0], axis=[0, 2, 3]);\n"
            "  %1 = reshape(%0, newshape=[1, 2, 1, 1, 4, 1]);\n"
            "  %2 = multiply(%w, %1);\n"
            "  nn.conv2d(%x, %2, padding=[1, 1, 1, 1], channels=8, kernel_size=[3, 3], "
            "data_layout=\"NCHW4c\", kernel_layout=\"OIHW4i4o\")\n"
            "}\n\n");
  ExpectSameResults(mod, folded);
}

}  // namespace
}  // namespace relaypass::passes
