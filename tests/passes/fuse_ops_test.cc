// FuseOps against the tutorial's printed outputs and small graphs whose grouping follows from
// relay_semantics.md 3.4 (each expected file was checked against the phases by hand; the
// reasoning is in the comment of each test).
#include <gtest/gtest.h>

#include "pass_test_util.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/passes/eliminate_common_subexpr.h"
#include "relaypass/passes/fold_constant.h"
#include "relaypass/passes/fuse_ops.h"
#include "relaypass/relay.h"
#include "relaypass/transform/pass_context.h"
#include "relaypass/transform/pass_instrument.h"
#include "relaypass/transform/sequential.h"
#include "relaypass/workloads/workloads.h"

namespace relaypass::passes {
namespace {

using relay::Expr;
using relay::Ints;
using relay::Var;
using testing::Print;
using testing::ReadGolden;
using testing::Typed;

size_t CountPrimitiveFunctions(const ir::IRModule& mod) {
  size_t count = 0;
  ir::post_order_visit(mod.Lookup("main"), [&](const ir::Expr& e) {
    auto* f = e.as<ir::FunctionNode>();
    count += f && f->is_primitive();
  });
  return count;
}

TEST(FuseOpsTest, TutorialOptLevel0PutsEachCallInItsOwnFunction) {
  ir::IRModule mod = EliminateCommonSubexpr()(testing::TutorialFolded());
  EXPECT_EQ(Print(FuseOps(/*fuse_opt_level=*/0)(mod)), ReadGolden("tutorial_fuse_opt0.txt"));
}

TEST(FuseOpsTest, TutorialOptLevel2FusesConvAndAdds) {
  ir::IRModule folded = testing::TutorialFolded();
  EXPECT_EQ(Print(FuseOps(2)(folded)), ReadGolden("tutorial_fused_opt2.txt"));
  EXPECT_EQ(Print(FuseOps(2)(EliminateCommonSubexpr()(folded))),
            ReadGolden("tutorial_fused_opt3.txt"));
}

// The tutorial's Sequential without FoldConstant (its input is already folded): at the default
// opt_level 2 EliminateCommonSubexpr (level 3) is skipped; at 3 it runs; disabled it is skipped.
TEST(FuseOpsTest, TutorialSequentialHonoursOptLevelAndDisabledPass) {
  ir::IRModule folded = testing::TutorialFolded();
  transform::Pass seq = transform::Sequential({EliminateCommonSubexpr(), FuseOps(2)});
  EXPECT_EQ(Print(seq(folded)), ReadGolden("tutorial_fused_opt2.txt"));
  {
    transform::PassContextScope scope(transform::PassContext({.opt_level = 3}));
    EXPECT_EQ(Print(seq(folded)), ReadGolden("tutorial_fused_opt3.txt"));
  }
  transform::PassContextScope scope(
      transform::PassContext({.opt_level = 3, .disabled_pass = {"EliminateCommonSubexpr"}}));
  EXPECT_EQ(Print(seq(folded)), ReadGolden("tutorial_fused_opt2.txt"));
}

// The tutorial itself, from its unfolded example(): the manual steps, then
// Sequential([FoldConstant(), EliminateCommonSubexpr(), FuseOps(fuse_opt_level=2)]).
TEST(FuseOpsTest, TutorialFromTheUnfoldedExample) {
  ir::IRModule mod = ir::IRModule::FromExpr(workloads::Example());
  ir::IRModule cse = EliminateCommonSubexpr()(FoldConstant()(mod));
  EXPECT_EQ(Print(cse), ReadGolden("tutorial_cse.txt"));
  EXPECT_EQ(Print(FuseOps(0)(cse)), ReadGolden("tutorial_fuse_opt0.txt"));

  transform::Pass seq =
      transform::Sequential({FoldConstant(), EliminateCommonSubexpr(), FuseOps(2)});
  EXPECT_EQ(Print(seq(mod)), ReadGolden("tutorial_fused_opt2.txt"));
  {
    transform::PassContextScope scope(transform::PassContext({.opt_level = 3}));
    EXPECT_EQ(Print(seq(mod)), ReadGolden("tutorial_fused_opt3.txt"));
  }
  transform::PassContextScope scope(
      transform::PassContext({.opt_level = 3, .disabled_pass = {"EliminateCommonSubexpr"}}));
  EXPECT_EQ(Print(seq(mod)), ReadGolden("tutorial_fused_opt2.txt"));
}

// The tutorial's PrintIR instrument shows FuseOps' own result, before the InferType that follows
// it: new calls and parameters are untyped, the fused function carries its ret_type.
TEST(FuseOpsTest, TutorialFusedModuleBeforeInferType) {
  struct LastInferTypeInput : transform::PassInstrument {
    void run_before_pass(const ir::IRModule& mod, const transform::PassInfo& info) override {
      if (info.name == "InferType") module = mod;
    }
    ir::IRModule module;
  };
  auto capture = std::make_shared<LastInferTypeInput>();
  transform::PassContextScope scope(
      transform::PassContext({.opt_level = 3, .instruments = {capture}}));
  transform::Sequential({FoldConstant(), EliminateCommonSubexpr(), FuseOps()})(
      ir::IRModule::FromExpr(workloads::Example()));
  EXPECT_EQ(Print(capture->module), ReadGolden("tutorial_fused_before_infer_type.txt"));
}

TEST(FuseOpsTest, FuseOptLevelMinusOneUsesContextOptLevel) {
  ir::IRModule folded = testing::TutorialFolded();
  transform::PassContextScope scope(transform::PassContext({.opt_level = 0}));
  EXPECT_EQ(Print(FuseOps()(EliminateCommonSubexpr()(folded))),
            ReadGolden("tutorial_fuse_opt0.txt"));
}

// conv2d is OutEWiseFusable and its dominator path (bias_add, relu) is elementwise/broadcast, so
// phase 0 fuses all three: the example of relay_semantics.md 3.4.
TEST(FuseOpsTest, ConvBiasAddReluBecomeOneFunction) {
  Var x = relay::var("x", {1, 3, 224, 224});
  Var w = relay::var("w", {64, 3, 7, 7});
  Var b = relay::var("b", {64});
  Expr conv = relay::nn::conv2d(
      x, w, {.strides = {2, 2}, .padding = {3, 3}, .channels = 64, .kernel_size = Ints{7, 7}});
  ir::IRModule mod =
      Typed(relay::function({x, w, b}, relay::nn::relu(relay::nn::bias_add(conv, b))));
  EXPECT_EQ(Print(FuseOps()(mod)), ReadGolden("conv_bias_relu.txt"));
}

// batch_norm (OutEWiseFusable) reaches relu through `.0`, an Injective edge, so its dominator
// pattern is not ElemWise and it stays alone (a function returning the 3-tuple). The get-item
// (Injective) fuses into relu in phase 1; its tuple comes from another group, so it reads a
// tuple-typed parameter.
TEST(FuseOpsTest, BatchNormIsNotFusedWithItsGetItem) {
  Var x = relay::var("x", {1, 4, 8, 8});
  std::vector<Var> params = {x, relay::var("gamma", {4}), relay::var("beta", {4}),
                             relay::var("mean", {4}), relay::var("var", {4})};
  Expr bn = relay::nn::batch_norm(x, params[1], params[2], params[3], params[4]);
  ir::IRModule mod = Typed(relay::function(params, relay::nn::relu(relay::get_item(bn, 0))));
  EXPECT_EQ(Print(FuseOps()(mod)), ReadGolden("batch_norm.txt"));
}

// relu (ElemWise) fuses into reshape in phase 0 (dominator pattern Injective); transpose
// (Injective) waits for phase 1, where the whole path is <= Injective.
TEST(FuseOpsTest, InjectiveChainFusesWithElementwise) {
  Var x = relay::var("x", {2, 3, 4});
  Expr body = relay::reshape(relay::nn::relu(relay::transpose(x, Ints{0, 2, 1})), {6, 4});
  EXPECT_EQ(Print(FuseOps()(Typed(relay::function({x}, body)))), ReadGolden("injective_chain.txt"));
}

// reshape and expand_dims are both reshape ops and the parameter is a tensor, so the function is
// marked relay.reshape_only=1 after Primitive=1.
TEST(FuseOpsTest, ReshapeOnlyFunctionIsMarked) {
  Var x = relay::var("x", {2, 3, 4});
  Expr body = relay::expand_dims(relay::reshape(x, {6, 4}), 0);
  EXPECT_EQ(Print(FuseOps()(Typed(relay::function({x}, body)))), ReadGolden("reshape_only.txt"));
}

// Ten relus with relay.FuseOps.max_depth=3. Phase 0 walks relu1..relu10: relu_k joins relu_k+1
// while (nodes in relu_k+1's group) + (relu_k's own group record) <= 3, so groups close at 3:
// {1,2,3} {4,5,6} {7,8,9} {10}. Later phases find every candidate group too large.
TEST(FuseOpsTest, MaxDepthSplitsLongChains) {
  Var x = relay::var("x", {4});
  Expr y = x;
  for (int i = 0; i < 10; ++i) y = relay::nn::relu(y);
  ir::IRModule mod = Typed(relay::function({x}, y));
  transform::PassContext ctx(
      {.config = {{"relay.FuseOps.max_depth", transform::OptionValue::Int(3)}}});
  EXPECT_EQ(Print(FuseOps()(mod, ctx)), ReadGolden("max_depth_3.txt"));
  // With the default depth (256) the whole chain is one function.
  ir::IRModule fused = FuseOps()(mod);
  auto* call = fused.Lookup("main")->body.as<ir::CallNode>();
  ASSERT_TRUE(call && call->op.as<ir::FunctionNode>());
  EXPECT_EQ(call->args.size(), 1u);
  EXPECT_TRUE(call->args[0].same_as(fused.Lookup("main")->params[0]));
}

// relu and exp cannot fuse into the tuple in phases 0/1; the tuple (pattern Tuple) joins
// concatenate in phase 1; in phase 2 relu and exp join the tuple's group (rooted at the
// injective concatenate). x is one argument, so one parameter.
TEST(FuseOpsTest, TupleFieldsFuseIntoConcatenate) {
  Var x = relay::var("x", {2, 3});
  Expr body = relay::concatenate({relay::nn::relu(x), relay::exp(x)}, 0);
  EXPECT_EQ(Print(FuseOps()(Typed(relay::function({x}, body)))),
            ReadGolden("tuple_concatenate.txt"));
}

// A tuple that is the result of the function roots its own group and stays a plain tuple; its
// fields are never fused into it.
TEST(FuseOpsTest, ResultTupleStaysPlain) {
  Var x = relay::var("x", {2, 3});
  Expr body = relay::tuple({relay::nn::relu(x), relay::exp(x)});
  EXPECT_EQ(Print(FuseOps()(Typed(relay::function({x}, body)))), ReadGolden("tuple_result.txt"));
}

// Scalar constants (ElemWise) fuse into their consumer and are embedded; at opt level 0 they
// are parameters like everything else.
TEST(FuseOpsTest, ScalarConstantsAreEmbeddedUnlessOptLevel0) {
  Var x = relay::var("x", {4});
  Expr body = relay::nn::relu(relay::add(x, relay::const_(1.0f)));
  ir::IRModule mod = Typed(relay::function({x}, body));
  EXPECT_EQ(Print(FuseOps(2)(mod)), ReadGolden("scalar_constant_opt2.txt"));
  EXPECT_EQ(Print(FuseOps(0)(mod)), ReadGolden("scalar_constant_opt0.txt"));
}

// split is injective and its get-items are injective: relu -> split -> .0 + .1 is one group.
// annotation.stop_fusion keeps its argument out of the consumer's group and disappears.
TEST(FuseOpsTest, SplitFusesAndStopFusionCuts) {
  Var x = relay::var("x", {2, 8});
  Expr pieces = relay::split(relay::nn::relu(x), 2, 1);
  Expr sum = relay::add(relay::get_item(pieces, 0), relay::get_item(pieces, 1));
  ir::IRModule fused = FuseOps(2)(Typed(relay::function({x}, sum)));
  EXPECT_EQ(CountPrimitiveFunctions(fused), 1u) << Print(fused);

  Expr cut = relay::exp(relay::stop_fusion(relay::nn::relu(x)));
  ir::IRModule two = FuseOps(2)(Typed(relay::function({x}, cut)));
  EXPECT_EQ(CountPrimitiveFunctions(two), 2u) << Print(two);
  EXPECT_EQ(Print(two).find("stop_fusion"), std::string::npos) << Print(two);
}

// Already fused functions are left alone.
TEST(FuseOpsTest, FusingTwiceChangesNothing) {
  ir::IRModule once = FuseOps(2)(testing::TutorialFolded());
  EXPECT_EQ(Print(FuseOps(2)(once)), Print(once));
}

}  // namespace
}  // namespace relaypass::passes
