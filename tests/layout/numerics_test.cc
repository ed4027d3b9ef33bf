// The layout passes keep the program's meaning: the evaluator gives the same outputs before and
// after (seeded random inputs).
#include <gtest/gtest.h>

#include "relaypass/eval/allclose.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/eval/random.h"
#include "relaypass/ir/bind.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/op/registry.h"
#include "relaypass/passes/alter_op_layout.h"
#include "relaypass/passes/convert_layout.h"
#include "relaypass/relay.h"
#include "relaypass/transform.h"
#include "relaypass/workloads/workloads.h"
#include "test_util.h"

namespace relaypass {
namespace {

// `after` computes what `before` computes, on the same seeded inputs. The tolerance is mostly
// relative: resnet's softmax outputs are about 1e-3, and another input changes them by ~5e-6.
void ExpectSameOutputs(const ir::IRModule& before, const ir::IRModule& after, uint64_t seed) {
  std::vector<eval::Value> inputs = eval::RandomInputs(before.Lookup("main"), seed);
  eval::Value expected = eval::Interpreter(before).RunMain(inputs);
  eval::Value actual = eval::Interpreter(after).RunMain(inputs);
  eval::CloseResult close = eval::AllClose(actual, expected, eval::Tolerance{1e-5, 1e-8});
  EXPECT_TRUE(close.ok) << close.message;
}

TEST(LayoutNumericsTest, ConvertLayoutKeepsResNet18Outputs) {
  workloads::Workload wl = workloads::GetWorkload("resnet-18");
  ir::IRModule mod = wl.mod;
  mod.Add("main", ir::BindParamsByName(mod.Lookup("main"), wl.params));
  mod = ir::InferTypes(mod);
  ir::IRModule nhwc =
      layout_testing::RunAtLevel3(passes::ConvertLayout({{"nn.conv2d", {"NHWC", "HWIO"}}}), mod);
  ExpectSameOutputs(mod, nhwc, 7);
}

// Depthwise convolutions take the default NHWC kernel layout HWOI.
TEST(LayoutNumericsTest, ConvertLayoutKeepsMobileNetOutputs) {
  workloads::Workload wl = workloads::GetWorkload("mobilenet");
  ir::IRModule mod = wl.mod;
  mod.Add("main", ir::BindParamsByName(mod.Lookup("main"), wl.params));
  mod = ir::InferTypes(mod);
  ir::IRModule nhwc =
      layout_testing::RunAtLevel3(passes::ConvertLayout({{"nn.conv2d", {"NHWC", "default"}}}), mod);
  int depthwise = 0;
  ir::post_order_visit(nhwc.Lookup("main"), [&](const ir::Expr& e) {
    auto* call = e.as<ir::CallNode>();
    if (call && call->op_node() && call->op_node()->name == "nn.conv2d" &&
        call->attrs->get_int("groups") > 1) {
      ++depthwise;
      EXPECT_EQ(call->attrs->get_string("kernel_layout"), "HWOI");
    }
  });
  EXPECT_EQ(depthwise, 13);
  ExpectSameOutputs(mod, nhwc, 9);
}

TEST(LayoutNumericsTest, ConvertLayoutKeepsAConvBiasReluPoolGraph) {
  relay::Var x = relay::var("x", {1, 3, 16, 16});
  relay::Var w = relay::var("w", {8, 3, 3, 3});
  relay::Var b = relay::var("b", {8});
  relay::Expr y = relay::nn::conv2d(x, w, {.padding = {1, 1}});
  y = relay::nn::relu(relay::nn::bias_add(y, b));
  y = relay::nn::max_pool2d(y, {.pool_size = {2, 2}, .strides = {2, 2}});
  y = relay::add(y, relay::sum(y, std::vector<int64_t>{1}, true));
  ir::IRModule mod = ir::InferTypes(ir::IRModule::FromExpr(relay::function({x, w, b}, y)));
  for (const char* layout : {"NHWC", "NCHW"}) {
    ir::IRModule out = layout_testing::RunAtLevel3(
        passes::ConvertLayout({{"nn.conv2d", {layout, "default"}}}), mod);
    ExpectSameOutputs(mod, out, 3);
  }
}

TEST(LayoutNumericsTest, AlterOpLayoutKeepsTheTutorialExample) {
  passes::AlterOpLayoutHook hook = passes::RegisterAlterOpLayout(
      "nn.conv2d",
      [](const ir::Attrs& attrs, const std::vector<ir::Expr>& inputs, const std::vector<ir::Type>&,
         const ir::Type&) -> ir::Expr {
        return ir::MakeCall(op::GetOp("nn.conv2d"), inputs,
                            attrs->With("data_layout", ir::AttrValue::Str("NCHW16c")));
      },
      101);
  // The example's constant is uninitialised memory (np.empty); give it defined values.
  relay::Var x = relay::var("x", {1, 64, 56, 56});
  relay::Var weight = relay::var("weight", {64, 64, 3, 3});
  relay::Expr c = relay::const_(eval::RandomTensor({1, 64, 54, 54}, ir::DataType::Float32(), 11));
  relay::Expr y = relay::add(relay::nn::conv2d(x, weight),
                             relay::multiply(relay::add(c, c), relay::const_(2.0f)));
  relay::Expr z = relay::add(relay::add(y, c), relay::add(y, c));
  ir::IRModule mod = ir::InferTypes(ir::IRModule::FromExpr(relay::function({x, weight}, z)));
  ExpectSameOutputs(mod, layout_testing::RunAtLevel3(passes::AlterOpLayout(), mod), 5);
}

}  // namespace
}  // namespace relaypass
