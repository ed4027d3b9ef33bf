// SimplifyExpr's SimplifyBinomial (TVM v0.13, src/relay/transforms/simplify_expr.cc):
// a*x*x + b*x*y + c*y*y becomes a * ((x + p*y) * (x + q*y)), p and q the roots
// (b +- sqrt(b*b - 4*a*c)) / (2*a). Expected texts: that callback and the later rules
// (EliminateIdentity drops the multiplications by 1) applied by hand; expected numbers: the
// polynomial computed by hand at x = [1, 2], y = [3, 4].
#include <gtest/gtest.h>

#include <string>

#include "pass_test_util.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/passes/simplify_expr.h"
#include "relaypass/text/parser.h"
#include "relaypass/text/printer.h"

namespace relaypass::passes {
namespace {

using testing::StripTypes;

ir::IRModule Typed(const std::string& body) {
  return ir::InferTypes(
      text::ParseModule("#[version = \"0.0.5\"]\n"
                        "def @main(%x: Tensor[(2), float32], %y: Tensor[(2), float32]) {\n" +
                        body + "}\n"));
}

// main's body after SimplifyExpr, without types.
std::string BodyOf(const ir::IRModule& mod) {
  const std::string text = StripTypes(text::PrettyPrint(mod));
  return text.substr(text.find("{\n") + 2);
}

// main at x = [1, 2], y = [3, 4].
std::vector<float> RunAtOneTwoThreeFour(const ir::IRModule& mod) {
  ir::NDArray x = ir::NDArray::Empty({2}, ir::DataType::Float32());
  ir::NDArray y = ir::NDArray::Empty({2}, ir::DataType::Float32());
  x.mutable_data<float>()[0] = 1;
  x.mutable_data<float>()[1] = 2;
  y.mutable_data<float>()[0] = 3;
  y.mutable_data<float>()[1] = 4;
  const ir::NDArray out = eval::RunMain(mod, {x, y})[0];
  return {out.data<float>()[0], out.data<float>()[1]};
}

TEST(SimplifyBinomialTest, ASquareOfASumBecomesAProduct) {
  // x*x + 2*x*y + y*y: the discriminant is 0, so both factors are x + 1*y, one node.
  const ir::IRModule mod = Typed(
      "  %0 = multiply(%x, %x);\n  %1 = multiply(%x, %y);\n  %2 = multiply(2f, %1);\n"
      "  %3 = add(%2, %0);\n  %4 = multiply(%y, %y);\n  add(%3, %4)\n");
  const ir::IRModule out = SimplifyExpr()(mod);
  EXPECT_EQ(BodyOf(out), "  %0 = add(%x, %y);\n  multiply(%0, %0)\n}\n");
  EXPECT_EQ(RunAtOneTwoThreeFour(out), (std::vector<float>{16, 36}));  // (1 + 3)^2, (2 + 4)^2
}

TEST(SimplifyBinomialTest, DistinctRootsGiveTwoFactors) {
  // x*x + 3*x*y + 2*y*y = (x + 2y)(x + y).
  const ir::IRModule mod = Typed(
      "  %0 = multiply(%x, %x);\n  %1 = multiply(%x, %y);\n  %2 = multiply(3f, %1);\n"
      "  %3 = add(%2, %0);\n  %4 = multiply(%y, %y);\n  %5 = multiply(2f, %4);\n"
      "  add(%3, %5)\n");
  const ir::IRModule out = SimplifyExpr()(mod);
  EXPECT_EQ(BodyOf(out),
            "  %0 = multiply(%y, 2f);\n  %1 = add(%x, %0);\n  %2 = add(%x, %y);\n"
            "  multiply(%1, %2)\n}\n");
  EXPECT_EQ(RunAtOneTwoThreeFour(out), (std::vector<float>{28, 60}));  // 1 + 9 + 18, 4 + 24 + 32
}

TEST(SimplifyBinomialTest, ANegativeDiscriminantStays) {
  // x*x + x*y + y*y: 1 - 4 < 0, no real factors.
  const ir::IRModule mod = Typed(
      "  %0 = multiply(%x, %x);\n  %1 = multiply(%x, %y);\n  %2 = add(%1, %0);\n"
      "  %3 = multiply(%y, %y);\n  add(%2, %3)\n");
  EXPECT_EQ(BodyOf(SimplifyExpr()(mod)), BodyOf(mod));
}

}  // namespace
}  // namespace relaypass::passes
