// The relay.optimize passes added with issue 17: RemoveUnusedFunctions, ToBasicBlockNormalForm,
// ToGraphNormalForm, Legalize, SimplifyExpr, SimplifyExprPostAlterOp, CanonicalizeCast,
// FlattenAtrousConv, PlanDevices, and the default pipeline. Expected outputs are hand-derived
// from TVM v0.13's sources (src/relay/transforms/<pass>.cc), as each test says.
#include <gtest/gtest.h>

#include "../depth_scale.h"
#include "pass_test_util.h"
#include "relaypass/ir/structural.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/passes/canonicalize_cast.h"
#include "relaypass/passes/default_pipeline.h"
#include "relaypass/passes/legalize.h"
#include "relaypass/passes/plan_devices.h"
#include "relaypass/passes/remove_unused_functions.h"
#include "relaypass/passes/simplify_expr.h"
#include "relaypass/passes/to_a_normal_form.h"
#include "relaypass/passes/to_basic_block_normal_form.h"
#include "relaypass/passes/to_graph_normal_form.h"
#include "relaypass/relay.h"
#include "relaypass/text/parser.h"
#include "relaypass/text/printer.h"
#include "relaypass/transform/registry.h"
#include "relaypass/workloads/workloads.h"

namespace relaypass::passes {
namespace {

using testing::StripTypes;

ir::IRModule Parse(const std::string& body) {
  return ir::InferTypes(text::ParseModule("#[version = \"0.0.5\"]\n" + body));
}

// main's body without types, from the line after the signature.
std::string Body(const ir::IRModule& mod) {
  std::string text = StripTypes(text::PrettyPrint(mod));
  return text.substr(text.find("{\n") + 2);
}

std::string Simplified(const std::string& src) {
  return Body(SimplifyExpr()(Parse(src)));
}

size_t CountOp(const ir::IRModule& mod, const std::string& name) {
  size_t n = 0;
  ir::post_order_visit(mod.Lookup("main"), [&](const ir::Expr& e) {
    auto* call = e.as<ir::CallNode>();
    if (call && call->op_node() && call->op_node()->name == name) ++n;
  });
  return n;
}

// ---- SimplifyExpr (expected: TVM's callbacks in simplify_expr.cc applied by hand)

TEST(SimplifyExprTest, ConsecutiveReshapesBecomeOneToTheStaticShape) {
  EXPECT_EQ(Simplified("def @main(%x: Tensor[(1, 16, 4), float32]) {\n"
                       "  %0 = reshape(%x, newshape=[16, 4]);\n"
                       "  reshape(%0, newshape=[-1])\n}\n"),
            "  reshape(%x, newshape=[64])\n}\n");
}

TEST(SimplifyExprTest, InnerNodeUsedOutsideTheMatchBlocksTheRewrite) {
  // TVM's PatternGrouper drops a match whose inner reshape has another consumer.
  EXPECT_EQ(Simplified("def @main(%x: Tensor[(1, 16, 4), float32]) {\n"
                       "  %0 = reshape(%x, newshape=[16, 4]);\n"
                       "  %1 = reshape(%0, newshape=[-1]);\n"
                       "  (%0, %1)\n}\n"),
            "  %0 = reshape(%x, newshape=[16, 4]);\n"
            "  %1 = reshape(%0, newshape=[-1]);\n"
            "  (%0, %1)\n}\n");
}

TEST(SimplifyExprTest, TransposesComposeAndCancel) {
  // SimplifyTranspose makes transpose(x, axes=[0, 1, 2]), SimplifyNoOpTranspose removes it.
  EXPECT_EQ(Simplified("def @main(%x: Tensor[(2, 3, 4), float32]) {\n"
                       "  %0 = transpose(%x, axes=[0, 2, 1]);\n"
                       "  transpose(%0, axes=[0, 2, 1])\n}\n"),
            "  %x\n}\n");
  EXPECT_EQ(Simplified("def @main(%x: Tensor[(2, 3, 4), float32]) {\n"
                       "  %0 = transpose(%x, axes=[1, 2, 0]);\n"
                       "  transpose(%0, axes=[0, 2, 1])\n}\n"),
            "  transpose(%x, axes=[1, 0, 2])\n}\n");
  EXPECT_EQ(Simplified("def @main(%x: Tensor[(1, 3, 4, 5), float32]) {\n"
                       "  %0 = layout_transform(%x, src_layout=\"NCHW\", dst_layout=\"NHWC\");\n"
                       "  layout_transform(%0, src_layout=\"NHWC\", dst_layout=\"NCHW\")\n}\n"),
            "  %x\n}\n");
}

TEST(SimplifyExprTest, IdentitiesAreEliminated) {
  EXPECT_EQ(Simplified("def @main(%x: Tensor[(2, 3), float32]) {\n"
                       "  %0 = add(%x, 0f);\n"
                       "  %1 = multiply(1f, %0);\n"
                       "  %2 = subtract(%1, 0f);\n"
                       "  divide(%2, 1f)\n}\n"),
            "  %x\n}\n");
  // Not an identity: the constant is 2, or the result broadcasts beyond x's type.
  EXPECT_EQ(Simplified("def @main(%x: Tensor[(3), float32], %y: Tensor[(2, 3), float32]) {\n"
                       "  %0 = add(%x, 2f);\n"
                       "  %1 = multiply(%y, 1f);\n"
                       "  add(%0, %1)\n}\n"),
            "  %0 = add(%x, 2f);\n"
            "  add(%0, %y)\n}\n");
}

TEST(SimplifyExprTest, AddOfItselfRSqrtAndAdjacentConstants) {
  EXPECT_EQ(Simplified("def @main(%x: Tensor[(4), float32]) {\n"
                       "  add(%x, %x)\n}\n"),
            "  multiply(%x, 2f)\n}\n");
  EXPECT_EQ(Simplified("def @main(%x: Tensor[(4), float32], %y: Tensor[(4), float32]) {\n"
                       "  %0 = sqrt(%x);\n"
                       "  divide(%y, %0)\n}\n"),
            "  %0 = rsqrt(%x);\n"
            "  multiply(%y, %0)\n}\n");
  // SimplifyAdjacentMultiplyOrAdd folds 2f * 3f with FoldConstantExpr.
  EXPECT_EQ(Simplified("def @main(%x: Tensor[(4), float32]) {\n"
                       "  %0 = multiply(%x, 2f);\n"
                       "  multiply(3f, %0)\n}\n"),
            "  multiply(%x, 6f)\n}\n");
  // SwitchAddMultiply: (x + 1) * 2 -> x * 2 + 2.
  EXPECT_EQ(Simplified("def @main(%x: Tensor[(4), float32]) {\n"
                       "  %0 = add(%x, 1f);\n"
                       "  multiply(%0, 2f)\n}\n"),
            "  %0 = multiply(%x, 2f);\n"
            "  add(%0, 2f)\n}\n");
}

TEST(SimplifyExprTest, CastsAndClips) {
  // A widening cast followed by a cast back: one cast to float16, then the same-dtype cast goes.
  EXPECT_EQ(Simplified("def @main(%x: Tensor[(4), float16]) {\n"
                       "  %0 = cast(%x, dtype=\"float32\");\n"
                       "  cast(%0, dtype=\"float16\")\n}\n"),
            "  %x\n}\n");
  // A narrowing first cast stays.
  EXPECT_EQ(Simplified("def @main(%x: Tensor[(4), float32]) {\n"
                       "  %0 = cast(%x, dtype=\"int8\");\n"
                       "  cast(%0, dtype=\"float32\")\n}\n"),
            "  %0 = cast(%x, dtype=\"int8\");\n"
            "  cast(%0, dtype=\"float32\")\n}\n");
  // SimplifyClip: [0, 255] covers uint8.
  EXPECT_EQ(Simplified("def @main(%x: Tensor[(4), float32]) {\n"
                       "  %0 = cast(%x, dtype=\"uint8\");\n"
                       "  clip(%0, a_min=0f, a_max=255f)\n}\n"),
            "  cast(%x, dtype=\"uint8\")\n}\n");
  // SimplifyClipAndConsecutiveCast (TVM's own example): both casts go.
  EXPECT_EQ(Simplified("def @main(%x: Tensor[(4), int32]) {\n"
                       "  %0 = clip(%x, a_min=0f, a_max=255f);\n"
                       "  %1 = cast(%0, dtype=\"uint8\");\n"
                       "  cast(%1, dtype=\"int32\")\n}\n"),
            "  clip(%x, a_min=0f, a_max=255f)\n}\n");
}

TEST(SimplifyExprTest, PostAlterOpHasOnlyItsSubset) {
  const std::string src =
      "def @main(%x: Tensor[(4), float32]) {\n"
      "  %0 = add(%x, %x);\n"
      "  %1 = reshape(%0, newshape=[2, 2]);\n"
      "  %2 = reshape(%1, newshape=[4]);\n"
      "  multiply(%2, 1f)\n}\n";
  EXPECT_EQ(Body(SimplifyExprPostAlterOp()(Parse(src))),
            "  %0 = add(%x, %x);\n"
            "  reshape(%0, newshape=[4])\n}\n");
}

TEST(SimplifyExprTest, ResnetIsUnchangedAndStillTyped) {
  // resnet-18 after SimplifyInference has no pattern SimplifyExpr rewrites except
  // SwitchAddMultiply / adjacent constants, which need constant operands: with parameters as
  // variables nothing changes.
  workloads::Workload w = workloads::GetWorkload("resnet-18");
  ir::IRModule mod = ir::InferTypes(w.mod);
  ir::IRModule out = SimplifyExpr()(mod);
  EXPECT_TRUE(ir::StructuralEqual(out, mod));
}

// ---- CanonicalizeCast (canonicalize_cast.cc: copies for the uses after the first)

TEST(CanonicalizeCastTest, SharedUpCastIsCopiedPerElementwiseUse) {
  ir::IRModule mod = Parse(
      "def @main(%x: Tensor[(4), int8]) {\n"
      "  %0 = cast(%x, dtype=\"int32\");\n"
      "  %1 = add(%0, 1);\n"
      "  %2 = multiply(%0, 2);\n"
      "  (%1, %2)\n}\n");
  ir::IRModule out = CanonicalizeCast()(mod);
  EXPECT_EQ(Body(out),
            "  %0 = cast(%x, dtype=\"int32\");\n"
            "  %1 = cast(%x, dtype=\"int32\");\n"
            "  %2 = add(%0, 1);\n"
            "  %3 = multiply(%1, 2);\n"
            "  (%2, %3)\n}\n");
  // A down-cast is not copied.
  ir::IRModule down = Parse(
      "def @main(%x: Tensor[(4), int32]) {\n"
      "  %0 = cast(%x, dtype=\"int8\");\n"
      "  %1 = add(%0, 1i8);\n"
      "  %2 = multiply(%0, 2i8);\n"
      "  (%1, %2)\n}\n");
  EXPECT_EQ(CountOp(CanonicalizeCast()(down), "cast"), 1u);
}

// ---- RemoveUnusedFunctions

TEST(RemoveUnusedFunctionsTest, KeepsWhatMainReaches) {
  ir::IRModule mod = Parse(
      "def @f(%a: Tensor[(2), float32]) -> Tensor[(2), float32] {\n  @g(%a)\n}\n"
      "def @g(%a: Tensor[(2), float32]) -> Tensor[(2), float32] {\n  nn.relu(%a)\n}\n"
      "def @main(%x: Tensor[(2), float32]) {\n  @f(%x)\n}\n"
      "def @unused(%a: Tensor[(2), float32]) {\n  %a\n}\n");
  ir::IRModule out = RemoveUnusedFunctions()(mod);
  EXPECT_EQ(out.size(), 3u);
  EXPECT_FALSE(out.Contains("unused"));
  ir::IRModule only_g = RemoveUnusedFunctions({"g"})(mod);
  EXPECT_EQ(only_g.size(), 1u);
  EXPECT_TRUE(only_g.Contains("g"));
  EXPECT_THROW(RemoveUnusedFunctions({"nope"})(mod), PassError);
  // The registry's default is ["main"].
  EXPECT_EQ(transform::CreatePass("RemoveUnusedFunctions(entry_functions=[\"f\"])")(mod).size(),
            2u);
}

// ---- ToGraphNormalForm / ToBasicBlockNormalForm

TEST(NormalFormTest, GraphNormalFormUndoesANormalForm) {
  ir::IRModule mod = Parse(
      "def @main(%x: Tensor[(2), float32]) {\n"
      "  %0 = add(%x, 1f);\n"
      "  %1 = nn.relu(%0);\n"
      "  multiply(%1, %0)\n}\n");
  ir::IRModule anf = transform::CreatePass("ToANormalForm")(mod);
  ir::IRModule gnf = ToGraphNormalForm()(anf);
  EXPECT_EQ(Body(gnf), Body(mod));
}

TEST(NormalFormTest, BasicBlockFormBindsOnlyWhatBranchesShare) {
  // TVM's CalcScope: %0 is first used in the true branch, also in the false branch, so its scope
  // is lifted to the function body and it is let-bound there; %1 is used by one branch only.
  ir::IRModule mod = Parse(
      "def @main(%c: bool, %x: Tensor[(2), float32]) {\n"
      "  %0 = add(%x, 1f);\n"
      "  %1 = multiply(%x, 2f);\n"
      "  if (%c) {\n    nn.relu(%0)\n  } else {\n    subtract(%0, %1)\n  }\n}\n");
  const uint64_t base = NextGenSymId();
  std::string text =
      testing::RebaseGenSym(StripTypes(text::PrettyPrint(ToBasicBlockNormalForm()(mod))), base);
  EXPECT_EQ(text.substr(text.find("{\n") + 2),
            "  let %x_0 = add(%x, 1f);\n"
            "  if (%c) {\n"
            "    nn.relu(%x_0)\n"
            "  } else {\n"
            "    %0 = multiply(%x, 2f);\n"
            "    subtract(%x_0, %0)\n"
            "  }\n}\n");
  // Without control flow the graph comes back structurally equal.
  ir::IRModule chain = ir::InferTypes(ir::IRModule::FromExpr(workloads::Chain(10)));
  EXPECT_TRUE(ir::StructuralEqual(ir::InferTypes(ToBasicBlockNormalForm()(chain)), chain));
}

// ---- Legalize

TEST(LegalizeTest, HookReplacesCallsAndSeesTypes) {
  ir::IRModule mod = Parse("def @main(%x: Tensor[(2), float32]) {\n  nn.relu(%x)\n}\n");
  size_t seen_types = 0;
  {
    LegalizeHook hook = RegisterLegalize("nn.relu",
                                         [&](const ir::Attrs&, const std::vector<ir::Expr>& inputs,
                                             const std::vector<ir::Type>& types) -> ir::Expr {
                                           seen_types = types.size();
                                           return relay::clip(inputs[0], 0, 6);
                                         });
    EXPECT_EQ(Body(Legalize()(mod)), "  clip(%x, a_min=0f, a_max=6f)\n}\n");
    EXPECT_EQ(seen_types, 2u);  // the argument's type and the result's
    LegalizeHook higher = RegisterLegalize(
        "nn.relu",
        [](const ir::Attrs&, const std::vector<ir::Expr>& inputs,
           const std::vector<ir::Type>&) -> ir::Expr { return inputs[0]; },
        11);
    EXPECT_THROW(Legalize()(mod), PassError);  // not a call
  }
  EXPECT_TRUE(ir::StructuralEqual(Legalize()(mod), mod));  // hooks gone
}

// ---- PlanDevices, FlattenAtrousConv, the default pipeline

TEST(CatalogueTest, HomogeneousNoOpsAndTheDefaultPipeline) {
  ir::IRModule mod = Parse("def @main(%x: Tensor[(2), float32]) {\n  nn.relu(%x)\n}\n");
  EXPECT_TRUE(ir::StructuralEqual(PlanDevices()(mod), mod));
  EXPECT_TRUE(ir::StructuralEqual(transform::CreatePass("FlattenAtrousConv")(mod), mod));
  const std::vector<std::string> expected = {"RemoveUnusedFunctions",
                                             "ToBasicBlockNormalForm",
                                             "QnnLegalize",
                                             "Legalize",
                                             "SimplifyInference",
                                             "EliminateCommonSubexpr",
                                             "CombineParallelConv2D",
                                             "CombineParallelDense",
                                             "CombineParallelBatchMatmul",
                                             "FoldConstant",
                                             "FoldScaleAxis",
                                             "SimplifyExpr",
                                             "CanonicalizeCast",
                                             "CanonicalizeOps",
                                             "FlattenAtrousConv",
                                             "InferType",
                                             "AlterOpLayout",
                                             "SimplifyExprPostAlterOp",
                                             "FastMath",
                                             "FoldConstant",
                                             "PlanDevices",
                                             "FuseOps"};
  EXPECT_EQ(DefaultPipelineNames(), expected);
  EXPECT_TRUE(DefaultPipelineMissing().empty());
}

// ---- No recursion on graph depth

TEST(CatalogueTest, MillionNodeChain) {
  const int64_t ops = relaypass::testing::ScaledDepth(1000000);
  const ir::IRModule mod = ir::InferTypes(ir::IRModule::FromExpr(workloads::Chain(ops)));
  const size_t nodes = ir::CountNodes(mod.Lookup("main"));
  EXPECT_EQ(ir::CountNodes(SimplifyExpr()(mod).Lookup("main")), nodes);
  EXPECT_EQ(ir::CountNodes(SimplifyExprPostAlterOp()(mod).Lookup("main")), nodes);
  EXPECT_EQ(ir::CountNodes(CanonicalizeCast()(mod).Lookup("main")), nodes);
  EXPECT_EQ(ir::CountNodes(ToBasicBlockNormalForm()(mod).Lookup("main")), nodes);
  ir::IRModule anf = transform::CreatePass("ToANormalForm")(mod);
  EXPECT_EQ(ir::CountNodes(ToGraphNormalForm()(anf).Lookup("main")), nodes);
  EXPECT_EQ(RemoveUnusedFunctions()(mod).size(), 1u);
}

}  // namespace
}  // namespace relaypass::passes
