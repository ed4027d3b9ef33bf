// BackwardFoldScaleAxis on small graphs, one rule at a time (relay_semantics.md 3.5, Backward).
// Expected texts print the function after the pass, type comments removed; TVM prints the same
// (with `/* ty=... */` comments).
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

TEST(BackwardFoldScaleAxisTest, ConvTimesPositiveConstantFoldsIntoWeight) {
  Var x = var("x", {1, 4, 8, 8});
  Var w = var("w", {8, 4, 3, 3});
  Expr out = multiply(nn::conv2d(x, w, Conv3x3(8)), Ramp({8, 1, 1}, 0.5f, 0.25f));
  IRModule mod = Typed(function({x, w}, out));
  IRModule folded = BackwardFoldScaleAxis()(mod);
  // conv2d (NCHW) offers the output channel axis {1}. The (8, 1, 1) scale matches it against the
  // (1, 8, 8, 8) result: its trailing unit dims 1 and 2 are squeezed away, leaving (8,). The
  // multiply disappears and the scale goes along the kernel's O axis: OIHW has three axes after
  // O, hence expand_dims(axis=1, num_newaxis=3) giving (8, 1, 1, 1).
  EXPECT_EQ(PrintWithoutTypes(folded),
            "def @main(%x: Tensor[(1, 4, 8, 8), float32], %w: Tensor[(8, 4, 3, 3), float32]) -> "
            "Tensor[(1, 8, 8, 8), float32] {\n"
            "  %0 = squeeze(meta[relay.Constant][0], axis=[1, 2]);\n"
            "  %1 = expand_dims(%0, axis=1, num_newaxis=3);\n"
            "  %2 = multiply(%w, %1);\n"
            "  nn.conv2d(%x, %2, padding=[1, 1, 1, 1], channels=8, kernel_size=[3, 3])\n"
            "}\n\n");
  ExpectSameResults(mod, folded);
}

TEST(BackwardFoldScaleAxisTest, ThroughBiasAddAndRelu) {
  Var x = var("x", {1, 4, 8, 8});
  Var w = var("w", {8, 4, 3, 3});
  Var b = var("b", {8});
  Expr y = nn::relu(nn::bias_add(nn::conv2d(x, w, Conv3x3(8)), b));
  IRModule mod = Typed(function({x, w, b}, multiply(y, Ramp({8, 1, 1}, 0.5f, 0.25f))));
  IRModule folded = BackwardFoldScaleAxis()(mod);
  // relu passes the scale through (it is a positive constant), bias_add scales its bias by the
  // squeezed scale itself, conv2d its weight; both share the one squeeze.
  EXPECT_EQ(PrintWithoutTypes(folded),
            "def @main(%x: Tensor[(1, 4, 8, 8), float32], %w: Tensor[(8, 4, 3, 3), float32], "
            "%b: Tensor[(8), float32]) -> Tensor[(1, 8, 8, 8), float32] {\n"
            "  %0 = squeeze(meta[relay.Constant][0], axis=[1, 2]);\n"
            "  %1 = expand_dims(%0, axis=1, num_newaxis=3);\n"
            "  %2 = multiply(%w, %1);\n"
            "  %3 = nn.conv2d(%x, %2, padding=[1, 1, 1, 1], channels=8, kernel_size=[3, 3]);\n"
            "  %4 = multiply(%b, %0);\n"
            "  %5 = nn.bias_add(%3, %4);\n"
            "  nn.relu(%5)\n"
            "}\n\n");
  ExpectSameResults(mod, folded);
}

TEST(BackwardFoldScaleAxisTest, NegativeScaleIsBlockedByReluOnly) {
  Var x = var("x", {1, 4, 8, 8});
  Var w = var("w", {8, 4, 3, 3});
  Expr scale = Ramp({8, 1, 1}, -1.0f, 0.25f);  // -1 ... 0.75
  IRModule through_relu = Typed(function({x, w}, multiply(nn::relu(nn::conv2d(x, w)), scale)));
  IRModule out = BackwardFoldScaleAxis()(through_relu);
  EXPECT_TRUE(ir::StructuralEqual(out, through_relu)) << PrintWithoutTypes(out);

  IRModule direct = Typed(function({x, w}, multiply(nn::conv2d(x, w), scale)));
  IRModule folded = BackwardFoldScaleAxis()(direct);
  EXPECT_EQ(CountOp(folded, "multiply"), 1u) << "only the weight is multiplied";
  ExpectSameResults(direct, folded);
}

TEST(BackwardFoldScaleAxisTest, AddScalesTheOtherOperandOrBothConvs) {
  Var x = var("x", {1, 4, 8, 8});
  Var w1 = var("w1", {8, 4, 3, 3});
  Var w2 = var("w2", {8, 4, 3, 3});
  Var bias = var("bias", {8, 1, 1});
  Var s = var("s", {8, 1, 1});  // not required to be positive: no relu on the way
  Expr conv1 = nn::conv2d(x, w1, Conv3x3(8));
  Expr conv2 = nn::conv2d(x, w2, Conv3x3(8));

  // add(conv, bias): the bias, which cannot absorb anything, is multiplied by the scale laid out
  // for the (1, 8, 8, 8) sum: expand_dims(axis=1, num_newaxis=2). (The printer numbers a node
  // when its first consumer completes, so that expand_dims gets %3 before the conv.)
  IRModule with_bias = Typed(function({x, w1, bias, s}, multiply(add(conv1, bias), s)));
  IRModule folded = BackwardFoldScaleAxis()(with_bias);
  EXPECT_EQ(PrintWithoutTypes(folded),
            "def @main(%x: Tensor[(1, 4, 8, 8), float32], %w1: Tensor[(8, 4, 3, 3), float32], "
            "%bias: Tensor[(8, 1, 1), float32], %s: Tensor[(8, 1, 1), float32]) -> "
            "Tensor[(1, 8, 8, 8), float32] {\n"
            "  %0 = squeeze(%s, axis=[1, 2]);\n"
            "  %1 = expand_dims(%0, axis=1, num_newaxis=3);\n"
            "  %2 = multiply(%w1, %1);\n"
            "  %3 = expand_dims(%0, axis=1, num_newaxis=2);\n"
            "  %4 = nn.conv2d(%x, %2, padding=[1, 1, 1, 1], channels=8, kernel_size=[3, 3]);\n"
            "  %5 = multiply(%bias, %3);\n"
            "  add(%4, %5)\n"
            "}\n");
  ExpectSameResults(with_bias, folded);

  // subtract(conv1, conv2): both operands carry {1} and have equal shapes; each weight is scaled.
  IRModule two_convs = Typed(function({x, w1, w2, s}, multiply(subtract(conv1, conv2), s)));
  IRModule both = BackwardFoldScaleAxis()(two_convs);
  EXPECT_EQ(CountOp(both, "multiply"), 2u);
  EXPECT_EQ(CountOp(both, "expand_dims"), 2u);
  ExpectSameResults(two_convs, both);
}

TEST(BackwardFoldScaleAxisTest, SharedProducerIsNotScaled) {
  Var x = var("x", {1, 4, 8, 8});
  Var w = var("w", {8, 4, 3, 3});
  Expr conv = nn::conv2d(x, w, Conv3x3(8));
  // The conv result is used twice: scaling its weight would change the other use.
  IRModule mod = Typed(function({x, w}, add(multiply(conv, Ramp({8, 1, 1}, 1, 1)), conv)));
  EXPECT_TRUE(ir::StructuralEqual(BackwardFoldScaleAxis()(mod), mod));
}

TEST(BackwardFoldScaleAxisTest, NHWCWithHWIOKernel) {
  Var x = var("x", {1, 8, 8, 4});
  Var w = var("w", {3, 3, 4, 8});
  Expr conv = nn::conv2d(x, w,
                         {.padding = {1, 1},
                          .channels = 8,
                          .kernel_size = Ints{3, 3},
                          .data_layout = "NHWC",
                          .kernel_layout = "HWIO"});
  IRModule mod = Typed(function({x, w}, multiply(conv, Ramp({8}, 0.5f, 0.25f))));
  IRModule folded = BackwardFoldScaleAxis()(mod);
  // NHWC offers {3}; the (8,) scale needs no squeeze, and O is HWIO's last axis, so the scale
  // multiplies the kernel as it is.
  EXPECT_EQ(PrintWithoutTypes(folded),
            "def @main(%x: Tensor[(1, 8, 8, 4), float32], %w: Tensor[(3, 3, 4, 8), float32]) -> "
            "Tensor[(1, 8, 8, 8), float32] {\n"
            "  %0 = multiply(%w, meta[relay.Constant][0]);\n"
            "  nn.conv2d(%x, %0, padding=[1, 1, 1, 1], channels=8, kernel_size=[3, 3], "
            "data_layout=\"NHWC\", kernel_layout=\"HWIO\")\n"
            "}\n\n");
  ExpectSameResults(mod, folded);
}

TEST(BackwardFoldScaleAxisTest, Dense) {
  Var x = var("x", {2, 16});
  Var w = var("w", {8, 16});
  Var s = var("s", {8});
  IRModule mod = Typed(function({x, w, s}, multiply(nn::dense(x, w), s)));
  IRModule folded = BackwardFoldScaleAxis()(mod);
  // dense offers {1}; the (8,) scale runs along the weight's rows: expand_dims(axis=1).
  EXPECT_EQ(PrintWithoutTypes(folded),
            "def @main(%x: Tensor[(2, 16), float32], %w: Tensor[(8, 16), float32], "
            "%s: Tensor[(8), float32]) -> Tensor[(2, 8), float32] {\n"
            "  %0 = expand_dims(%s, axis=1);\n"
            "  %1 = multiply(%w, %0);\n"
            "  nn.dense(%x, %1, units=None)\n"
            "}\n");
  ExpectSameResults(mod, folded);
}

TEST(BackwardFoldScaleAxisTest, ScaleOnTheLeftAndScalarScale) {
  Var x = var("x", {1, 4, 8, 8});
  Var w = var("w", {8, 4, 3, 3});
  Expr conv = nn::conv2d(x, w, Conv3x3(8));
  IRModule left = Typed(function({x, w}, multiply(Ramp({8, 1, 1}, 1, 1), conv)));
  IRModule folded = BackwardFoldScaleAxis()(left);
  EXPECT_EQ(CountOp(folded, "multiply"), 1u);
  ExpectSameResults(left, folded);

  // A scalar is broadcast to the channel axis (TVM: repeat(expand_dims(2f, axis=0), ...)).
  IRModule scalar = Typed(function({x, w}, multiply(conv, const_(2.0f))));
  IRModule folded_scalar = RunAtLevel(FoldScaleAxis(), scalar, 3);
  EXPECT_EQ(PrintWithoutTypes(folded_scalar),
            "def @main(%x: Tensor[(1, 4, 8, 8), float32], %w: Tensor[(8, 4, 3, 3), float32]) -> "
            "Tensor[(1, 8, 8, 8), float32] {\n"
            "  %0 = multiply(%w, meta[relay.Constant][0]);\n"
            "  nn.conv2d(%x, %0, padding=[1, 1, 1, 1], channels=8, kernel_size=[3, 3])\n"
            "}\n\n");
  ExpectSameResults(scalar, folded_scalar);
  // Before FoldConstant: the scalar is broadcast to the 8 output channels with repeat.
  IRModule backward_only = BackwardFoldScaleAxis()(scalar);
  EXPECT_EQ(PrintWithoutTypes(backward_only),
            "def @main(%x: Tensor[(1, 4, 8, 8), float32], %w: Tensor[(8, 4, 3, 3), float32]) -> "
            "Tensor[(1, 8, 8, 8), float32] {\n"
            "  %0 = expand_dims(2f, axis=0);\n"
            "  %1 = repeat(%0, repeats=8, axis=0);\n"
            "  %2 = expand_dims(%1, axis=1, num_newaxis=3);\n"
            "  %3 = multiply(%w, %2);\n"
            "  nn.conv2d(%x, %3, padding=[1, 1, 1, 1], channels=8, kernel_size=[3, 3])\n"
            "}\n");
  ExpectSameResults(scalar, backward_only);
}

TEST(BackwardFoldScaleAxisTest, BlockedLayoutsUseReshape) {
  Var x = var("x", {1, 2, 8, 8, 4});
  Var w = var("w", {2, 2, 3, 3, 4, 4});
  Expr conv = nn::conv2d(x, w,
                         {.padding = {1, 1},
                          .channels = 8,
                          .kernel_size = Ints{3, 3},
                          .data_layout = "NCHW4c",
                          .kernel_layout = "OIHW4i4o"});
  IRModule mod = Typed(function({x, w}, multiply(conv, Ramp({2, 1, 1, 4}, 0.5f, 0.25f))));
  IRModule folded = BackwardFoldScaleAxis()(mod);
  // NCHW4c offers {1, 4}; the (2, 1, 1, 4) scale squeezes to (2, 4) and is reshaped onto the
  // kernel's O and o axes (0 and 5).
  EXPECT_EQ(PrintWithoutTypes(folded),
            "def @main(%x: Tensor[(1, 2, 8, 8, 4), float32], %w: Tensor[(2, 2, 3, 3, 4, 4), "
            "float32]) -> Tensor[(1, 2, 8, 8, 4), float32] {\n"
            "  %0 = squeeze(meta[relay.Constant][0], axis=[1, 2]);\n"
            "  %1 = reshape(%0, newshape=[2, 1, 1, 1, 1, 4]);\n"
            "  %2 = multiply(%w, %1);\n"
            "  nn.conv2d(%x, %2, padding=[1, 1, 1, 1], channels=8, kernel_size=[3, 3], "
            "data_layout=\"NCHW4c\", kernel_layout=\"OIHW4i4o\")\n"
            "}\n\n");
  ExpectSameResults(mod, folded);
}

TEST(BackwardFoldScaleAxisTest, GroupedConvIsLeftAlone) {
  Var x = var("x", {1, 4, 8, 8});
  Var w = var("w", {8, 2, 3, 3});
  Expr conv = nn::conv2d(x, w, {.padding = {1, 1}, .groups = 2, .channels = 8});
  IRModule mod = Typed(function({x, w}, multiply(conv, Ramp({8, 1, 1}, 1, 1))));
  EXPECT_TRUE(ir::StructuralEqual(BackwardFoldScaleAxis()(mod), mod));
}

}  // namespace
}  // namespace relaypass::passes
