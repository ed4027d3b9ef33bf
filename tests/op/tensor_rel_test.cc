#include <gtest/gtest.h>

#include "fake_call.h"
#include "relaypass/relay.h"

namespace relaypass::op {
namespace {

using testing::FakeCall;
using testing::Infer;
using testing::T;

TEST(BroadcastRelTest, NumpyRules) {
  ir::Expr add = relay::add(relay::var("a"), relay::var("b"));
  EXPECT_EQ(Infer(add, {T({1, 3}), T({1, 3})}), "Tensor[(1, 3), float32]");
  EXPECT_EQ(Infer(add, {T({1, 64, 56, 56}), T({64, 1, 1})}), "Tensor[(1, 64, 56, 56), float32]");
  EXPECT_EQ(Infer(add, {T({4, 1}), T({1, 5})}), "Tensor[(4, 5), float32]");
  EXPECT_EQ(Infer(add, {T({}), T({2, 3})}), "Tensor[(2, 3), float32]");
  EXPECT_EQ(Infer(add, {T({2, 3}), T({})}), "Tensor[(2, 3), float32]");
  EXPECT_EQ(Infer(add, {T({}), T({})}), "float32");
}

TEST(BroadcastRelTest, AnyDims) {
  ir::Expr mul = relay::multiply(relay::var("a"), relay::var("b"));
  EXPECT_EQ(Infer(mul, {T({-1, 3}), T({5, 3})}), "Tensor[(5, 3), float32]");
  EXPECT_EQ(Infer(mul, {T({-1, 3}), T({1, 3})}), "Tensor[(?, 3), float32]");
  EXPECT_EQ(Infer(mul, {T({-1, 3}), T({-1, 1})}), "Tensor[(?, 3), float32]");
  EXPECT_EQ(Infer(mul, {T({2, 3}), T({-1})}), "Tensor[(2, 3), float32]");
}

TEST(BroadcastRelTest, Mismatches) {
  ir::Expr add = relay::add(relay::var("a"), relay::var("b"));
  try {
    Infer(add, {T({1, 3}), T({1, 4})});
    FAIL() << "expected a TypeError";
  } catch (const TypeError& e) {
    EXPECT_EQ(e.message(),
              "add: Incompatible broadcast type Tensor[(1, 3), float32] and Tensor[(1, 4), "
              "float32]");
  }
  EXPECT_THROW(Infer(add, {T({3}), T({3}, "int32")}), TypeError);
}

TEST(BroadcastRelTest, WaitsForBothInputs) {
  ir::Expr sub = relay::subtract(relay::var("a"), relay::var("b"));
  EXPECT_EQ(Infer(sub, {T({3}), nullptr}), "<not ready>");
  EXPECT_EQ(Infer(sub, {nullptr, T({3})}), "<not ready>");
}

TEST(BroadcastRelTest, ComparisonsGiveBool) {
  ir::Expr less = ir::MakeCall(GetOp("less"), {relay::var("a"), relay::var("b")});
  EXPECT_EQ(Infer(less, {T({2, 1}), T({3})}), "Tensor[(2, 3), bool]");
  ir::Expr eq = ir::MakeCall(GetOp("greater_equal"), {relay::var("a"), relay::var("b")});
  EXPECT_EQ(Infer(eq, {T({}, "int32"), T({}, "int32")}), "bool");
}

TEST(BroadcastRelTest, AllBinaryOpsBroadcast) {
  for (const char* name :
       {"add", "subtract", "multiply", "divide", "maximum", "minimum", "power"}) {
    ir::Expr call = ir::MakeCall(GetOp(name), {relay::var("a"), relay::var("b")});
    EXPECT_EQ(Infer(call, {T({2, 1}), T({4})}), "Tensor[(2, 4), float32]") << name;
  }
}

TEST(IdentityRelTest, UnaryOpsKeepTheType) {
  ir::Var x = relay::var("x");
  for (const ir::Expr& call :
       {relay::negative(x), relay::sqrt(x), relay::rsqrt(x), relay::exp(x), relay::log(x),
        relay::tanh(x), relay::sigmoid(x), relay::nn::relu(x), relay::clip(x, 0, 6)}) {
    EXPECT_EQ(Infer(call, {T({1, 8, -1}, "float16")}), "Tensor[(1, 8, ?), float16]");
  }
}

TEST(IdentityRelTest, TypeFlowsBackFromTheResult) {
  FakeCall call(relay::nn::relu(relay::var("x")).downcast<ir::CallNode>(), {nullptr});
  call.AssignResult(T({2, 2}));
  EXPECT_TRUE(call.Run());
  EXPECT_EQ(call.type(0), "Tensor[(2, 2), float32]");
  FakeCall unknown(relay::nn::relu(relay::var("x")).downcast<ir::CallNode>(), {nullptr});
  EXPECT_FALSE(unknown.Run());
}

TEST(IdentityRelTest, RejectsTuples) {
  ir::Expr call = relay::nn::relu(relay::var("x"));
  EXPECT_THROW(Infer(call, {ir::TupleType({T({1})})}), TypeError);
}

}  // namespace
}  // namespace relaypass::op
