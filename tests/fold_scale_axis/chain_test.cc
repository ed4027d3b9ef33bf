// A scale folded through a 1,000,000-op chain of alternating relu and add, on the default stack:
// every phase of both directions is iterative.
#include <gtest/gtest.h>

#include "relaypass/ir/type_infer.h"
#include "relaypass/passes/fold_scale_axis.h"
#include "test_util.h"

namespace relaypass::passes {
namespace {

using namespace relay;    // NOLINT: reads like the tutorials
using namespace testing;  // NOLINT

constexpr int64_t kOps = 1000000;

// `ops` alternating nn.relu and add(y, c) on a (1, 16) value, c one shared (16,) constant.
Expr ReluAddChain(Expr y, int64_t ops) {
  Expr c = Ramp({16}, -0.5f, 0.0625f);
  for (int64_t i = 0; i < ops; ++i) y = i % 2 == 0 ? nn::relu(y) : add(y, c);
  return y;
}

Expr PositiveScale() {
  return Ramp({16}, 0.5f, 0.125f);
}

// dense(chain(x)) * s: the scale travels down the chain into the dense weight.
IRModule BackwardChain(int64_t ops) {
  Var x = var("x", {1, 16});
  Var w = var("w", {16, 16});
  return Typed(function({x, w}, multiply(ReluAddChain(nn::dense(x, w), ops), PositiveScale())));
}

// dense(chain(x * s), w): the scale travels up the chain into the dense weight.
IRModule ForwardChain(int64_t ops) {
  Var x = var("x", {1, 16});
  Var w = var("w", {16, 16});
  return Typed(function({x, w}, nn::dense(ReluAddChain(multiply(x, PositiveScale()), ops), w)));
}

TEST(FoldScaleAxisChainTest, BackwardNumericsOnAShortChain) {
  IRModule mod = BackwardChain(100);
  IRModule folded = BackwardFoldScaleAxis()(mod);
  // Each of the 50 adds multiplies its constant by the scale; the weight is multiplied once.
  EXPECT_EQ(CountOp(folded, "multiply"), 51u);
  ExpectSameResults(mod, folded);
}

TEST(FoldScaleAxisChainTest, ForwardNumericsOnAShortChain) {
  IRModule mod = ForwardChain(100);
  IRModule folded = ForwardFoldScaleAxis()(mod);
  // Each add divides its constant by the scale; the weight is multiplied once.
  EXPECT_EQ(CountOp(folded, "divide"), 50u);
  EXPECT_EQ(CountOp(folded, "multiply"), 1u);
  ExpectSameResults(mod, folded);
}

TEST(FoldScaleAxisChainTest, BackwardMillionOps) {
  IRModule folded = BackwardFoldScaleAxis()(BackwardChain(kOps));
  EXPECT_EQ(CountOp(folded, "multiply"), static_cast<size_t>(kOps / 2 + 1));
  EXPECT_EQ(folded.Lookup("main")->body.as<ir::CallNode>()->op_node()->name, "add");
}

TEST(FoldScaleAxisChainTest, ForwardMillionOps) {
  IRModule folded = ForwardFoldScaleAxis()(ForwardChain(kOps));
  EXPECT_EQ(CountOp(folded, "divide"), static_cast<size_t>(kOps / 2));
  EXPECT_EQ(CountOp(folded, "multiply"), 1u);
}

}  // namespace
}  // namespace relaypass::passes
