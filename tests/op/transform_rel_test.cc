#include <gtest/gtest.h>

#include "fake_call.h"
#include "relaypass/relay.h"
#include "test_util.h"

namespace relaypass::op {
namespace {

using relay::Ints;
using testing::ExpectTypeError;
using testing::Infer;
using testing::T;

std::string LayoutTransform(const std::string& src, const std::string& dst, Type data) {
  return Infer(relay::layout_transform(relay::var("x"), src, dst), {std::move(data)});
}

TEST(LayoutTransformRelTest, ConvertsShapes) {
  EXPECT_EQ(LayoutTransform("NCHW", "NHWC", T({1, 3, 224, 224})),
            "Tensor[(1, 224, 224, 3), float32]");
  EXPECT_EQ(LayoutTransform("NCHW", "NCHW16c", T({1, 64, 56, 56})),
            "Tensor[(1, 4, 56, 56, 16), float32]");
  EXPECT_EQ(LayoutTransform("NCHW16c", "NCHW", T({1, 4, 56, 56, 16})),
            "Tensor[(1, 64, 56, 56), float32]");
  EXPECT_EQ(LayoutTransform("NCHW4c", "NCHW8c", T({1, 4, 7, 7, 4})),
            "Tensor[(1, 2, 7, 7, 8), float32]");
  EXPECT_EQ(LayoutTransform("OIHW", "HWIO", T({64, 3, 7, 7})), "Tensor[(7, 7, 3, 64), float32]");
  EXPECT_EQ(LayoutTransform("NCHW", "NHWC", T({-1, 3, 8, 8}, "int8")),
            "Tensor[(?, 8, 8, 3), int8]");
}

TEST(LayoutTransformRelTest, Errors) {
  ExpectTypeError(
      [] {
        LayoutTransform("NCHW", "NCW", T({1, 3, 8, 8}));
      },
      "cannot convert from NCHW to NCW");
  ExpectTypeError([] { LayoutTransform("NCHW16c", "NCHW", T({1, 4, 8, 8, 8})); }, "has extent 8");
  ExpectTypeError([] { LayoutTransform("NCHW", "NHWC", T({1, 3, 8})); }, "rank 3");
  ExpectTypeError([] { LayoutTransform("NCHW", "NHWCC", T({1, 3, 8, 8})); }, "invalid layout");
}

TEST(ExpandDimsRelTest, InsertsAxes) {
  auto expand = [](int axis, int num, Type data) {
    return Infer(relay::expand_dims(relay::var("x"), axis, num), {std::move(data)});
  };
  EXPECT_EQ(expand(1, 2, T({64})), "Tensor[(64, 1, 1), float32]");
  EXPECT_EQ(expand(0, 1, T({64})), "Tensor[(1, 64), float32]");
  EXPECT_EQ(expand(-1, 1, T({2, 3})), "Tensor[(2, 3, 1), float32]");
  EXPECT_EQ(expand(-3, 1, T({2, 3})), "Tensor[(1, 2, 3), float32]");
  EXPECT_EQ(expand(1, 0, T({2, 3})), "Tensor[(2, 3), float32]");
  EXPECT_EQ(expand(0, 1, T({})), "Tensor[(1), float32]");
  ExpectTypeError([&] { expand(3, 1, T({2, 3})); }, "axis 3 is out of range [-3, 2]");
  ExpectTypeError([&] { expand(0, -1, T({2, 3})); }, "num_newaxis must be >= 0");
}

TEST(RepeatRelTest, MultipliesTheAxis) {
  auto repeat = [](int repeats, int axis, Type data) {
    return Infer(relay::repeat(relay::var("x"), repeats, axis), {std::move(data)});
  };
  EXPECT_EQ(repeat(4, 0, T({1})), "Tensor[(4), float32]");
  EXPECT_EQ(repeat(3, 1, T({2, 5, 7})), "Tensor[(2, 15, 7), float32]");
  EXPECT_EQ(repeat(2, -1, T({2, 5})), "Tensor[(2, 10), float32]");
  ExpectTypeError([&] { repeat(0, 0, T({2})); }, "repeats must be >= 1");
  ExpectTypeError([&] { repeat(2, 1, T({2})); }, "repeat: axis");
}

TEST(SplitRelTest, SectionsAndIndices) {
  auto split = [](relay::Expr call, Type data) {
    return Infer(std::move(call), {std::move(data)});
  };
  relay::Var x = relay::var("x");
  EXPECT_EQ(split(relay::split(x, 3, 1), T({2, 6})),
            "(Tensor[(2, 2), float32], Tensor[(2, 2), float32], Tensor[(2, 2), float32])");
  EXPECT_EQ(split(relay::split(x, relay::Ints{2, 5}, -1), T({2, 6})),
            "(Tensor[(2, 2), float32], Tensor[(2, 3), float32], Tensor[(2, 1), float32])");
  ExpectTypeError([&] { split(relay::split(x, 4, 1), T({2, 6})); }, "need to be able to divide");
  ExpectTypeError(
      [&] {
        split(relay::split(x, relay::Ints{3, 2}, 1), T({2, 6}));
      },
      "sorted ascending");
  ExpectTypeError([&] { split(relay::split(x, relay::Ints{6}, 1), T({2, 6})); }, "sum of sections");
}

TEST(SqueezeRelTest, DropsUnitAxes) {
  ir::Var x = relay::var("x");
  EXPECT_EQ(Infer(relay::squeeze(x), {T({1, 3, 1, 5})}), "Tensor[(3, 5), float32]");
  EXPECT_EQ(Infer(relay::squeeze(x, Ints{0}), {T({1, 3, 1, 5})}), "Tensor[(3, 1, 5), float32]");
  EXPECT_EQ(Infer(relay::squeeze(x, Ints{-2}), {T({1, 3, 1, 5})}), "Tensor[(1, 3, 5), float32]");
  EXPECT_EQ(Infer(relay::squeeze(x, Ints{0, 2}), {T({1, 3, -1, 5})}), "Tensor[(3, 5), float32]");
  ExpectTypeError([&] { Infer(relay::squeeze(x, Ints{1}), {T({1, 3})}); }, "cannot squeeze axis 1");
  ExpectTypeError([&] { Infer(relay::squeeze(x), {T({1, -1})}); }, "axis must be given");
}

std::string Reshape(const Ints& newshape, Type data) {
  return Infer(relay::reshape(relay::var("x"), newshape), {std::move(data)});
}

TEST(ReshapeRelTest, SpecialValues) {
  Type data = T({2, 3, 4});
  EXPECT_EQ(Reshape({6, 4}, data), "Tensor[(6, 4), float32]");
  EXPECT_EQ(Reshape({-1}, data), "Tensor[(24), float32]");
  EXPECT_EQ(Reshape({0, -1}, data), "Tensor[(2, 12), float32]");
  EXPECT_EQ(Reshape({-1, 0}, data), "Tensor[(8, 3), float32]");
  EXPECT_EQ(Reshape({-2}, data), "Tensor[(2, 3, 4), float32]");
  EXPECT_EQ(Reshape({0, -2}, data), "Tensor[(2, 3, 4), float32]");
  EXPECT_EQ(Reshape({-3, 4}, data), "Tensor[(6, 4), float32]");
  EXPECT_EQ(Reshape({0, -3}, data), "Tensor[(2, 12), float32]");
  EXPECT_EQ(Reshape({-4, 1, 2, -2}, data), "Tensor[(1, 2, 3, 4), float32]");
  EXPECT_EQ(Reshape({-4, -1, 2, -2}, data), "Tensor[(1, 2, 3, 4), float32]");
  EXPECT_EQ(Reshape({0, 0, -4, 2, -1}, data), "Tensor[(2, 3, 2, 2), float32]");
}

TEST(ReshapeRelTest, AnyDims) {
  EXPECT_EQ(Reshape({0, -1}, T({-1, 3, 4})), "Tensor[(?, 12), float32]");
  EXPECT_EQ(Reshape({-1, 4}, T({-1, 3, 4})), "Tensor[(?, 4), float32]");
  EXPECT_EQ(Reshape({-3, 0}, T({-1, 3, 4})), "Tensor[(?, 4), float32]");
}

TEST(ReshapeRelTest, Errors) {
  ExpectTypeError(
      [] {
        Reshape({5, -1}, T({2, 3, 4}));
      },
      "input tensor shape (2, 3, 4) and reshaped shape (5, 4) are not compatible");
  ExpectTypeError([] { Reshape({-1, -1}, T({2, 3, 4})); }, "only one dimension can be inferred");
  ExpectTypeError([] { Reshape({-4, -1, -1}, T({2, 3, 4})); }, "cannot both be -1");
  ExpectTypeError([] { Reshape({-5}, T({2})); }, "unsupported special value -5");
  ExpectTypeError([] { Reshape({7}, T({2, 3})); }, "not compatible");
}

TEST(TransposeRelTest, Permutes) {
  ir::Var x = relay::var("x");
  EXPECT_EQ(Infer(relay::transpose(x, Ints{0, 2, 3, 1}), {T({1, 3, 224, 225})}),
            "Tensor[(1, 224, 225, 3), float32]");
  EXPECT_EQ(Infer(relay::transpose(x), {T({1, 3, 5})}), "Tensor[(5, 3, 1), float32]");
  EXPECT_EQ(Infer(relay::transpose(x, Ints{-1, 0}), {T({2, 7})}), "Tensor[(7, 2), float32]");
  ExpectTypeError([&] { Infer(relay::transpose(x, Ints{0, 0}), {T({2, 7})}); }, "duplicate axis 0");
  ExpectTypeError([&] { Infer(relay::transpose(x, Ints{0}), {T({2, 7})}); }, "has 1 elements");
  ExpectTypeError([&] { Infer(relay::transpose(x, Ints{0, 2}), {T({2, 7})}); }, "out of range");
}

TEST(ConcatenateRelTest, JoinsAlongAxis) {
  ir::Var a = relay::var("a"), b = relay::var("b");
  ir::Expr cat1 = relay::concatenate({a, b}, 1);
  EXPECT_EQ(Infer(cat1, {ir::TupleType({T({1, 3}), T({1, 5})})}), "Tensor[(1, 8), float32]");
  EXPECT_EQ(Infer(relay::concatenate({a, b}, -1), {ir::TupleType({T({1, 3}), T({1, 5})})}),
            "Tensor[(1, 8), float32]");
  EXPECT_EQ(Infer(relay::concatenate({a, b}), {ir::TupleType({T({2, 3}), T({4, 3})})}),
            "Tensor[(6, 3), float32]");
  // TVM v0.13's ConcatenateRel: a mix of static and `?` extents off the concatenated axis is the
  // static extent when the concatenated one is `?`, and `?` when it is static.
  EXPECT_EQ(Infer(cat1, {ir::TupleType({T({-1, 3}), T({2, -1})})}), "Tensor[(2, ?), float32]");
  EXPECT_EQ(Infer(relay::concatenate({a, b}, 0), {ir::TupleType({T({1, 3}), T({1, -1})})}),
            "Tensor[(2, ?), float32]");
  EXPECT_EQ(Infer(relay::concatenate({a, b}, 0), {ir::TupleType({T({-1, 3}), T({-1, -1})})}),
            "Tensor[(?, 3), float32]");
  EXPECT_EQ(Infer(cat1, {ir::TupleType({T({1, 3}), ir::IncompleteType()})}), "<not ready>");
  EXPECT_EQ(Infer(cat1, {nullptr}), "<not ready>");
}

TEST(ConcatenateRelTest, Errors) {
  ir::Expr cat = relay::concatenate({relay::var("a"), relay::var("b")}, 1);
  ExpectTypeError(
      [&] {
        Infer(cat, {ir::TupleType({T({1, 3}), T({2, 5})})});
      },
      "same shape on non-concatenating axes");
  ExpectTypeError(
      [&] {
        Infer(cat, {ir::TupleType({T({1, 3}), T({1, 5}, "int32")})});
      },
      "same dtype");
  ExpectTypeError([&] { Infer(cat, {ir::TupleType({T({1, 3}), T({5})})}); }, "same rank");
  ExpectTypeError([&] { Infer(cat, {T({1, 3})}); }, "requires a tuple");
  ExpectTypeError([&] { Infer(cat, {ir::TupleType({T({3}), T({5})})}); }, "axis 1 is out of range");
}

TEST(CastRelTest, ChangesDtype) {
  EXPECT_EQ(Infer(relay::cast(relay::var("x"), "int8"), {T({2, 3})}), "Tensor[(2, 3), int8]");
  EXPECT_EQ(Infer(relay::cast(relay::var("x"), "float16"), {T({}, "int32")}), "float16");
}

TEST(ReduceRelTest, Axes) {
  ir::Var x = relay::var("x");
  Type data = T({2, 3, 4});
  EXPECT_EQ(Infer(relay::sum(x), {data}), "float32");
  EXPECT_EQ(Infer(relay::sum(x, std::nullopt, true), {data}), "Tensor[(1, 1, 1), float32]");
  EXPECT_EQ(Infer(relay::sum(x, Ints{1}), {data}), "Tensor[(2, 4), float32]");
  EXPECT_EQ(Infer(relay::sum(x, Ints{}), {data}), "float32");
  EXPECT_EQ(Infer(relay::mean(x, Ints{1}, true), {data}), "Tensor[(2, 1, 4), float32]");
  EXPECT_EQ(Infer(relay::mean(x, Ints{1}, false, true), {data}), "Tensor[(3), float32]");
  EXPECT_EQ(Infer(relay::mean(x, Ints{-1}, true, true), {data}), "Tensor[(1, 1, 4), float32]");
  EXPECT_EQ(Infer(relay::sum(x, Ints{0, 2}), {T({-1, 3, 4}, "int32")}), "Tensor[(3), int32]");
  ExpectTypeError([&] { Infer(relay::mean(x, Ints{3}), {data}); }, "mean: axis 3 is out of range");
}

}  // namespace
}  // namespace relaypass::op
