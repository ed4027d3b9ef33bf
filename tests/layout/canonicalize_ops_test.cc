// CanonicalizeOps (relay_semantics.md 3.7).
#include <gtest/gtest.h>

#include "relaypass/ir/structural.h"
#include "relaypass/passes/canonicalize_ops.h"
#include "relaypass/relay.h"
#include "relaypass/transform.h"
#include "test_util.h"

namespace relaypass {
namespace {

TEST(CanonicalizeOpsTest, BiasAddBecomesAddOfAnExpandedBias) {
  relay::Var x = relay::var("x", {1, 8, 4, 4});
  relay::Var b = relay::var("b", {8});
  ir::IRModule mod = ir::IRModule::FromExpr(relay::function({x, b}, relay::nn::bias_add(x, b)));
  ir::IRModule out = layout_testing::RunAtLevel3(passes::CanonicalizeOps(), mod);
  ir::IRModule expected = layout_testing::ParseExpected(R"(
def @main(%x: Tensor[(1, 8, 4, 4), float32], %b: Tensor[(8), float32]) {
  %0 = expand_dims(%b, axis=1, num_newaxis=2);
  add(%x, %0)
}
)");
  EXPECT_TRUE(ir::StructuralEqual(out, expected));
}

TEST(CanonicalizeOpsTest, NoExpandDimsOnTheLastAxis) {
  relay::Var x = relay::var("x", {2, 5});
  relay::Var b = relay::var("b", {5});
  ir::IRModule mod = ir::IRModule::FromExpr(relay::function({x, b}, relay::nn::bias_add(x, b, -1)));
  ir::IRModule out = layout_testing::RunAtLevel3(passes::CanonicalizeOps(), mod);
  ir::IRModule expected = layout_testing::ParseExpected(R"(
def @main(%x: Tensor[(2, 5), float32], %b: Tensor[(5), float32]) {
  add(%x, %b)
}
)");
  EXPECT_TRUE(ir::StructuralEqual(out, expected));
}

TEST(CanonicalizeOpsTest, InfoAndRegistration) {
  transform::Pass pass = passes::CanonicalizeOps();
  EXPECT_EQ(pass.info().name, "CanonicalizeOps");
  EXPECT_EQ(pass.info().opt_level, 3);
  EXPECT_EQ(pass.info().required, std::vector<std::string>{"InferType"});
  layout_testing::EnsureLayoutPassesRegistered();
  EXPECT_EQ(transform::CreatePass("CanonicalizeOps").info().name, "CanonicalizeOps");
}

TEST(CanonicalizeOpsTest, RunsOnAnUntypedModuleWhenCalledDirectly) {
  relay::Var x = relay::var("x", {1, 8, 4, 4});
  relay::Var b = relay::var("b", {8});
  ir::IRModule mod = ir::IRModule::FromExpr(relay::function({x, b}, relay::nn::bias_add(x, b)));
  ir::IRModule out = passes::CanonicalizeOps()(mod);
  EXPECT_EQ(layout_testing::CountOps(out),
            (layout_testing::OpCounts{{"add", 1}, {"expand_dims", 1}}));
}

}  // namespace
}  // namespace relaypass
