#include <gtest/gtest.h>

#include "pass_test_util.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/passes/simplify_inference.h"
#include "relaypass/relay.h"
#include "relaypass/text/printer.h"
#include "relaypass/workloads/workloads.h"

namespace relaypass::passes {
namespace {

using namespace relay;  // NOLINT: reads like the tutorials

using testing::StripTypes;

TEST(SimplifyInferenceTest, BatchNormBecomesScaleAndShift) {
  // The expected text is relay_semantics.md 3.6's derivation for an NCHW batch_norm.
  Var x = var("x", {1, 64, 56, 56});
  Var g = var("g"), b = var("b"), m = var("m"), v = var("v");
  Expr bn = get_item(nn::batch_norm(x, g, b, m, v, {.epsilon = 2e-5}), 0);
  IRModule mod = ir::InferTypes(IRModule::FromExpr(function({x, g, b, m, v}, bn)));
  IRModule out = SimplifyInference()(mod);
  std::string body = StripTypes(text::PrettyPrint(out));
  body = body.substr(body.find("{\n") + 2);
  EXPECT_EQ(body,
            "  %0 = add(%v, 2e-05f);\n"
            "  %1 = sqrt(%0);\n"
            "  %2 = divide(1f, %1);\n"
            "  %3 = multiply(%2, %g);\n"
            "  %4 = expand_dims(%3, axis=1, num_newaxis=2);\n"
            "  %5 = negative(%m);\n"
            "  %6 = multiply(%5, %3);\n"
            "  %7 = add(%6, %b);\n"
            "  %8 = multiply(%x, %4);\n"
            "  %9 = expand_dims(%7, axis=1, num_newaxis=2);\n"
            "  add(%8, %9)\n"
            "}\n");
}

TEST(SimplifyInferenceTest, LastAxisNeedsNoExpandAndScaleFalseSkipsGamma) {
  Var x = var("x", {1, 8, 8, 16});
  Var g = var("g"), b = var("b"), m = var("m"), v = var("v");
  Expr bn = get_item(nn::batch_norm(x, g, b, m, v, {.axis = 3, .scale = false}), 0);
  IRModule mod = ir::InferTypes(IRModule::FromExpr(function({x, g, b, m, v}, bn)));
  std::string text = StripTypes(text::PrettyPrint(SimplifyInference()(mod)));
  EXPECT_EQ(text.find("expand_dims"), std::string::npos) << text;
  EXPECT_EQ(text.find("%g"), text.find("%g:")) << "gamma is unused when scale=False: " << text;
  EXPECT_NE(text.find("add(%v, 1e-05f)"), std::string::npos) << text;
}

TEST(SimplifyInferenceTest, DropoutIsRemovedAndOtherOutputsKept) {
  Var x = var("x", {4, 4});
  Expr d = nn::dropout(x);
  Expr body = tuple({get_item(d, 0), get_item(d, 1)});
  IRModule mod = ir::InferTypes(IRModule::FromExpr(function({x}, body)));
  std::string text = StripTypes(text::PrettyPrint(SimplifyInference()(mod)));
  EXPECT_NE(text.find("nn.dropout"), std::string::npos) << "index 1 still needs the call";
  EXPECT_NE(text.find("(%x, %1)"), std::string::npos) << text;
}

TEST(SimplifyInferenceTest, ResnetHasNoBatchNormLeftAndTypeChecks) {
  IRModule mod = workloads::GetWorkload("resnet-18").mod;
  IRModule out = SimplifyInference()(mod);
  std::string text = text::PrettyPrint(out);
  EXPECT_EQ(text.find("nn.batch_norm"), std::string::npos);
  EXPECT_EQ(ir::TypeToString(out.Lookup("main")->ret_type), "Tensor[(1, 1000), float32]");
  EXPECT_NE(text::PrettyPrint(mod).find("nn.batch_norm"), std::string::npos) << "input unchanged";
}

}  // namespace
}  // namespace relaypass::passes
