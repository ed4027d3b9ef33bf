// SimplifyExpr's rewrites of the fill and `*_like` operators (TVM v0.13,
// src/relay/transforms/simplify_expr.cc: ConcretizeZerosLike/OnesLike/BroadcastToLike/CastLike,
// EliminateIdentity with zeros/ones operands, SimplifySameCast and SimplifyConsecutiveCast with
// cast_like, FullElementwise). Expected outputs are those callbacks applied by hand, in the
// composer's order, until nothing changes.
#include <gtest/gtest.h>

#include <string>

#include "pass_test_util.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/passes/simplify_expr.h"
#include "relaypass/text/parser.h"
#include "relaypass/text/printer.h"

namespace relaypass::passes {
namespace {

using testing::StripTypes;

// main's body after SimplifyExpr, without types, from the line after the signature.
std::string Simplified(const std::string& body) {
  ir::IRModule mod = ir::InferTypes(text::ParseModule("#[version = \"0.0.5\"]\n" + body));
  std::string text = StripTypes(text::PrettyPrint(SimplifyExpr()(mod)));
  return text.substr(text.find("{\n") + 2);
}

TEST(SimplifyExprLikeTest, AddOfZerosLikeIsTheInput) {
  // ConcretizeZerosLike makes zeros(shape=[2, 3]); EliminateIdentity then drops the add.
  EXPECT_EQ(Simplified("def @main(%x: Tensor[(2, 3), float32]) {\n"
                       "  %0 = zeros_like(%x);\n"
                       "  add(%x, %0)\n}\n"),
            "  %x\n}\n");
  // The same with the operands the other way round (add is commutative), and multiply by
  // ones_like, subtract of zeros and divide by ones.
  EXPECT_EQ(Simplified("def @main(%x: Tensor[(2, 3), float32], %y: Tensor[(2, 3), float32]) {\n"
                       "  %0 = zeros_like(%y);\n"
                       "  %1 = add(%0, %x);\n"
                       "  %2 = ones_like(%y);\n"
                       "  %3 = multiply(%2, %1);\n"
                       "  %4 = zeros(shape=[2, 3], dtype=\"float32\");\n"
                       "  %5 = subtract(%3, %4);\n"
                       "  %6 = ones(shape=[2, 3], dtype=\"float32\");\n"
                       "  divide(%5, %6)\n}\n"),
            "  %x\n}\n");
}

TEST(SimplifyExprLikeTest, AnIdentityThatBroadcastsStays) {
  // x has fewer dimensions than the result: x's type is not the result's, so the add stays; the
  // zeros operand then goes into the add as a scalar (FullElementwise needs x's type equal to
  // the result's too, so it does not apply either) and only the concretized zeros remains.
  EXPECT_EQ(Simplified("def @main(%x: Tensor[(3), float32], %y: Tensor[(2, 3), float32]) {\n"
                       "  %0 = zeros_like(%y);\n"
                       "  add(%x, %0)\n}\n"),
            "  %0 = zeros(shape=[2, 3], dtype=\"float32\");\n"
            "  add(%x, %0)\n}\n");
  // Subtracting x from zeros is not an identity (only x - 0 is).
  EXPECT_EQ(Simplified("def @main(%x: Tensor[(2, 3), float32]) {\n"
                       "  %0 = zeros(shape=[2, 3], dtype=\"float32\");\n"
                       "  subtract(%0, %x)\n}\n"),
            "  subtract(0f, %x)\n}\n");
}

TEST(SimplifyExprLikeTest, LikeOperatorsBecomeExplicit) {
  EXPECT_EQ(Simplified("def @main(%x: Tensor[(3), float32], %y: Tensor[(2, 3), int8]) {\n"
                       "  broadcast_to_like(%x, %y)\n}\n"),
            "  broadcast_to(%x, shape=[2, 3])\n}\n");
  EXPECT_EQ(Simplified("def @main(%x: Tensor[(3), float32], %y: Tensor[(2, 3), int8]) {\n"
                       "  cast_like(%x, %y)\n}\n"),
            "  cast(%x, dtype=\"int8\")\n}\n");
  EXPECT_EQ(Simplified("def @main(%y: Tensor[(2, 3), int8]) {\n"
                       "  ones_like(%y)\n}\n"),
            "  ones(shape=[2, 3], dtype=\"int8\")\n}\n");
}

TEST(SimplifyExprLikeTest, CastLikeToTheSameDtypeGoes) {
  // ConcretizeCastLike makes cast(x, "float32"), SimplifySameCast removes it.
  EXPECT_EQ(Simplified("def @main(%x: Tensor[(3), float32], %y: Tensor[(2, 3), float32]) {\n"
                       "  cast_like(%x, %y)\n}\n"),
            "  %x\n}\n");
}

TEST(SimplifyExprLikeTest, FullElementwiseTakesTheFillsScalar) {
  // multiply(x, full(2f)) of x's type: the full becomes its scalar.
  EXPECT_EQ(Simplified("def @main(%x: Tensor[(2, 3), float32]) {\n"
                       "  %0 = full(2f, shape=[2, 3], dtype=\"float32\");\n"
                       "  multiply(%0, %x)\n}\n"),
            "  multiply(2f, %x)\n}\n");
  // maximum is a broadcast operator too; ones_like(y) becomes ones (ConcretizeOnesLike) and
  // then the scalar 1f.
  EXPECT_EQ(Simplified("def @main(%x: Tensor[(2, 3), float32], %y: Tensor[(2, 3), float32]) {\n"
                       "  %0 = ones_like(%y);\n"
                       "  maximum(%x, %0)\n}\n"),
            "  maximum(%x, 1f)\n}\n");
  // A full whose fill value is not a constant is left alone.
  EXPECT_EQ(Simplified("def @main(%x: Tensor[(2, 3), float32], %v: float32) {\n"
                       "  %0 = full(%v, shape=[2, 3], dtype=\"float32\");\n"
                       "  maximum(%x, %0)\n}\n"),
            "  %0 = full(%v, shape=[2, 3], dtype=\"float32\");\n"
            "  maximum(%x, %0)\n}\n");
}

}  // namespace
}  // namespace relaypass::passes
