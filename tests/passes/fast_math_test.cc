// FastMath and the fast_* operators. Expected rewrites: TVM v0.13's
// tests/python/relay/test_pass_fast_math.py (exp -> fast_exp, tanh -> fast_tanh, erf -> fast_erf,
// nn.softmax -> nn.fast_softmax); the kernels are TOPI's approximations, so they must agree with
// the exact functions to float32 accuracy on TVM's clamped ranges.
#include <gtest/gtest.h>

#include <cmath>

#include "../../src/op/kernels/fast_math.h"
#include "pass_test_util.h"
#include "relaypass/eval/allclose.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/eval/random.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/passes/fast_math.h"
#include "relaypass/relay.h"
#include "relaypass/text/parser.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {
namespace {

using testing::Print;

ir::IRModule Parse(const std::string& body) {
  return ir::InferTypes(text::ParseModule("#[version = \"0.0.5\"]\n" + body));
}

TEST(FastMath, RewritesExpTanhErfAndSoftmax) {
  ir::IRModule before = Parse(
      "def @main(%x: Tensor[(1, 16), float32]) {\n"
      "  %0 = exp(%x);\n"
      "  %1 = tanh(%0);\n"
      "  %2 = erf(%1);\n"
      "  nn.softmax(%2, axis=1)\n"
      "}\n");
  ir::IRModule expected = Parse(
      "def @main(%x: Tensor[(1, 16), float32]) {\n"
      "  %0 = fast_exp(%x);\n"
      "  %1 = fast_tanh(%0);\n"
      "  %2 = fast_erf(%1);\n"
      "  nn.fast_softmax(%2, axis=1)\n"
      "}\n");
  EXPECT_EQ(Print(FastMath()(before)), Print(expected));
  EXPECT_NE(Print(expected).find("nn.fast_softmax(%2, axis=1) /* ty=Tensor[(1, 16), float32] */"),
            std::string::npos)
      << Print(expected);
}

TEST(FastMath, LeavesOtherOpsAlone) {
  ir::IRModule mod = Parse(
      "def @main(%x: Tensor[(2, 3), float32]) {\n"
      "  %0 = log(%x);\n"
      "  sigmoid(%0)\n"
      "}\n");
  EXPECT_EQ(Print(FastMath()(mod)), Print(mod));
}

TEST(FastMath, IsLevelFourAndRequiresInferType) {
  transform::Pass pass = transform::PassRegistry::Global().Create("FastMath");
  EXPECT_EQ(pass.info().opt_level, 4);
  EXPECT_EQ(pass.info().required, std::vector<std::string>{"InferType"});
}

TEST(FastMathKernels, ApproximateTheExactFunctions) {
  for (float x = -20.0f; x <= 20.0f; x += 0.01f) {
    EXPECT_NEAR(op::kernels::FastExpFloat32(x), std::exp(x), 2e-6f * std::exp(x) + 1e-30f) << x;
    EXPECT_NEAR(op::kernels::FastTanhFloat32(x), std::tanh(x), 2e-6f) << x;
    EXPECT_NEAR(op::kernels::FastErfFloat32(x), std::erf(x), 2e-6f) << x;
  }
  // TVM clamps: below -88.38 fast_exp returns max(2^n * p, x) = x's tiny positive bound.
  EXPECT_EQ(op::kernels::FastTanhFloat32(100.0f), op::kernels::FastTanhFloat32(9.0f));
  EXPECT_EQ(op::kernels::FastErfFloat32(-100.0f), op::kernels::FastErfFloat32(-4.0f));
}

// The evaluator runs the rewritten graph; the results agree with the exact graph's.
TEST(FastMath, RewrittenGraphEvaluatesCloseToTheOriginal) {
  ir::IRModule before = Parse(
      "def @main(%x: Tensor[(4, 32), float32]) {\n"
      "  %0 = exp(%x);\n"
      "  %1 = tanh(%x);\n"
      "  %2 = erf(%x);\n"
      "  %3 = nn.softmax(%x, axis=-1);\n"
      "  (%0, %1, %2, %3)\n"
      "}\n");
  ir::IRModule after = FastMath()(before);
  std::vector<ir::NDArray> inputs;
  for (const eval::Value& v : eval::RandomInputs(before.Lookup("main"), 5)) {
    inputs.push_back(v.tensor());
  }
  std::vector<ir::NDArray> expected = eval::RunMain(before, inputs);
  std::vector<ir::NDArray> actual = eval::RunMain(after, inputs);
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    eval::CloseResult close = eval::AllClose(actual[i], expected[i], eval::Tolerance{1e-5, 1e-6});
    EXPECT_TRUE(close.ok) << i << ": " << close.message;
  }
}

}  // namespace
}  // namespace relaypass::passes
