#include <gtest/gtest.h>

#include "fake_call.h"
#include "relaypass/relay.h"
#include "test_util.h"

namespace relaypass::op {
namespace {

using testing::ExpectTypeError;
using testing::FakeCall;
using testing::Infer;
using testing::T;

ir::Call AsCall(const ir::Expr& e) {
  return e.downcast<ir::CallNode>();
}

TEST(DenseRelTest, UnitsAssignTheWeight) {
  FakeCall call(AsCall(relay::nn::dense(relay::var("x"), relay::var("w"), 1000)),
                {T({1, 512}), nullptr});
  ASSERT_TRUE(call.Run());
  EXPECT_EQ(call.type(1), "Tensor[(1000, 512), float32]");
  EXPECT_EQ(call.result(), "Tensor[(1, 1000), float32]");
  EXPECT_EQ(Infer(relay::nn::dense(relay::var("x"), relay::var("w"), 4), {T({2, 3, 8}), nullptr}),
            "Tensor[(2, 3, 4), float32]");
}

TEST(DenseRelTest, WeightGivesUnits) {
  ir::Expr dense = relay::nn::dense(relay::var("x"), relay::var("w"));
  EXPECT_EQ(Infer(dense, {T({1, 512}), T({10, 512})}), "Tensor[(1, 10), float32]");
  EXPECT_EQ(Infer(dense, {T({1, 512}), nullptr}), "<not ready>");
  EXPECT_EQ(Infer(relay::nn::dense(relay::var("x"), relay::var("w"), std::nullopt, "float16"),
                  {T({1, 512}), T({10, 512})}),
            "Tensor[(1, 10), float16]");
  ExpectTypeError(
      [&] {
        Infer(dense, {T({1, 512}), T({10, 256})});
      },
      "input dimension doesn't match");
  ExpectTypeError([&] { Infer(dense, {T({1, 512}), T({512})}); }, "weight must be 2-D");
  ExpectTypeError(
      [] {
        Infer(relay::nn::dense(relay::var("x"), relay::var("w"), 10), {T({1, 512}), T({10, 256})});
      },
      "does not match units=10");
}

TEST(BiasAddRelTest, AssignsBias) {
  FakeCall call(AsCall(relay::nn::bias_add(relay::var("x"), relay::var("b"))),
                {T({1, 64, 56, 56}), nullptr});
  ASSERT_TRUE(call.Run());
  EXPECT_EQ(call.type(1), "Tensor[(64), float32]");
  EXPECT_EQ(call.result(), "Tensor[(1, 64, 56, 56), float32]");
  FakeCall last(AsCall(relay::nn::bias_add(relay::var("x"), relay::var("b"), -1)),
                {T({1, 1000}), nullptr});
  ASSERT_TRUE(last.Run());
  EXPECT_EQ(last.type(1), "Tensor[(1000), float32]");
  ExpectTypeError(
      [] {
        Infer(relay::nn::bias_add(relay::var("x"), relay::var("b"), 4), {T({1, 2}), nullptr});
      },
      "axis 4 is out of range");
  ExpectTypeError(
      [] {
        Infer(relay::nn::bias_add(relay::var("x"), relay::var("b")), {T({1, 8}), T({4})});
      },
      "conflicting types");
}

TEST(BatchNormRelTest, AssignsParamsAndReturnsTriple) {
  ir::Var x = relay::var("x");
  FakeCall call(AsCall(relay::nn::batch_norm(x, x, x, x, x)),
                {T({1, 64, 56, 56}), nullptr, nullptr, nullptr, nullptr});
  ASSERT_TRUE(call.Run());
  for (size_t i = 1; i <= 4; ++i) EXPECT_EQ(call.type(i), "Tensor[(64), float32]");
  EXPECT_EQ(call.result(),
            "(Tensor[(1, 64, 56, 56), float32], Tensor[(64), float32], Tensor[(64), float32])");
  EXPECT_EQ(Infer(relay::nn::batch_norm(x, x, x, x, x, {.axis = 3}),
                  {T({1, 56, 56, 32}), nullptr, nullptr, nullptr, nullptr}),
            "(Tensor[(1, 56, 56, 32), float32], Tensor[(32), float32], Tensor[(32), float32])");
  EXPECT_EQ(Infer(relay::nn::batch_norm(x, x, x, x, x, {.axis = -1}),
                  {T({2, 5}), nullptr, nullptr, nullptr, nullptr}),
            "(Tensor[(2, 5), float32], Tensor[(5), float32], Tensor[(5), float32])");
  ExpectTypeError(
      [&] {
        Infer(relay::nn::batch_norm(x, x, x, x, x, {.axis = -2}),
              {T({2, 5}), nullptr, nullptr, nullptr, nullptr});
      },
      "axis -2 is out of range");
}

TEST(SoftmaxRelTest, KeepsTypeAndChecksAxis) {
  EXPECT_EQ(Infer(relay::nn::softmax(relay::var("x")), {T({1, 1000})}),
            "Tensor[(1, 1000), float32]");
  EXPECT_EQ(Infer(relay::nn::softmax(relay::var("x"), -2), {T({1, 1000})}),
            "Tensor[(1, 1000), float32]");
  ExpectTypeError(
      [] {
        Infer(relay::nn::softmax(relay::var("x"), 2), {T({1, 1000})});
      },
      "axis 2 is out of range");
}

TEST(DropoutRelTest, ReturnsDataAndMask) {
  EXPECT_EQ(Infer(relay::nn::dropout(relay::var("x")), {T({4, 8})}),
            "(Tensor[(4, 8), float32], Tensor[(4, 8), float32])");
}

TEST(BatchFlattenRelTest, Flattens) {
  ir::Expr flat = relay::nn::batch_flatten(relay::var("x"));
  EXPECT_EQ(Infer(flat, {T({1, 512, 1, 1})}), "Tensor[(1, 512), float32]");
  EXPECT_EQ(Infer(flat, {T({2, 3, -1, 4})}), "Tensor[(2, ?), float32]");
  EXPECT_EQ(Infer(flat, {T({7})}), "Tensor[(7, 1), float32]");
  ExpectTypeError([&] { Infer(flat, {T({})}); }, "rank >= 1");
}

TEST(PadRelTest, AddsBeforeAndAfter) {
  ir::Expr pad = relay::nn::pad(relay::var("x"), {{0, 0}, {0, 0}, {1, 1}, {2, 3}});
  EXPECT_EQ(Infer(pad, {T({1, 3, 224, 224}), T({}, "int32")}), "Tensor[(1, 3, 226, 229), float32]");
  EXPECT_EQ(Infer(pad, {T({1, 3, -1, 4}), T({}, "int32")}), "Tensor[(1, 3, ?, 9), float32]");
  ExpectTypeError([&] { Infer(pad, {T({1, 3}), T({})}); }, "has 4 pairs but data");
  ir::Expr shrink = relay::nn::pad(relay::var("x"), {{-3, 0}});
  ExpectTypeError([&] { Infer(shrink, {T({2}), T({})}); }, "negative");
}

}  // namespace
}  // namespace relaypass::op
