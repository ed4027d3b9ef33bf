// The layout passes on a 1,000,000-node add/relu chain: no recursion on graph depth.
#include <gtest/gtest.h>

#include "../depth_scale.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/passes/alter_op_layout.h"
#include "relaypass/passes/convert_layout.h"
#include "relaypass/relay.h"
#include "relaypass/transform.h"
#include "relaypass/workloads/workloads.h"
#include "test_util.h"

namespace relaypass {
namespace {

// 1,000,000, or fewer under RELAYPASS_DEPTH_SCALE (the sanitizer builds).
const int64_t kChainLength = relaypass::testing::ScaledDepth(1000000);

// The passes are called directly (not in a Sequential) to type the chain only once up front:
// type inference dominates the time here.
TEST(DeepChainTest, ConvertLayoutAndAlterOpLayoutOnAMillionNodeChain) {
  ir::IRModule mod = ir::InferTypes(ir::IRModule::FromExpr(workloads::Chain(kChainLength)));
  ir::IRModule converted = passes::ConvertLayout({{"nn.conv2d", {"NHWC", "default"}}})(mod);
  EXPECT_EQ(layout_testing::CountOps(converted)["nn.relu"], kChainLength / 2);
  ir::IRModule altered = passes::AlterOpLayout()(converted);
  EXPECT_EQ(layout_testing::CountOps(altered)["add"], kChainLength / 2);
}

// A conv2d in front, so that NHWC flows through the whole chain (every add and relu converted).
TEST(DeepChainTest, LayoutsFlowThroughAMillionNodeChain) {
  relay::Var x = relay::var("x", {1, 4, 8, 8});
  relay::Var w = relay::var("w", {4, 4, 1, 1});
  relay::Expr y = relay::nn::conv2d(x, w);
  for (int64_t i = 0; i < kChainLength / 2; ++i) {
    y = relay::nn::relu(relay::add(y, relay::const_(1.0f)));
  }
  ir::IRModule mod = ir::InferTypes(ir::IRModule::FromExpr(relay::function({x, w}, y)));
  ir::IRModule out = passes::ConvertLayout({{"nn.conv2d", {"NHWC", "default"}}})(mod);
  // One transform for the data, one for the weight, one back at the end.
  EXPECT_EQ(layout_testing::CountOps(out)["layout_transform"], 3);
}

}  // namespace
}  // namespace relaypass
