// ConvertLayout as the instrument tutorial uses it (resnet-18 to NHWC) and on a small graph whose
// expected result is derived by hand from the rules of relay_semantics.md 3.8.
#include <gtest/gtest.h>

#include "relaypass/ir/bind.h"
#include "relaypass/ir/structural.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/passes/convert_layout.h"
#include "relaypass/relay.h"
#include "relaypass/support/error.h"
#include "relaypass/text/printer.h"
#include "relaypass/transform.h"
#include "relaypass/workloads/workloads.h"
#include "test_util.h"

namespace relaypass {
namespace {

using layout_testing::CallNodeDiffer;
using layout_testing::OpCounts;

ir::IRModule BoundResNet18() {
  workloads::Workload wl = workloads::GetWorkload("resnet-18");
  ir::IRModule mod = wl.mod;
  mod.Add("main", ir::BindParamsByName(mod.Lookup("main"), wl.params));
  return mod;
}

TEST(ConvertLayoutTest, ResNet18ToNHWCChangesOpCountsAsTheInstrumentTutorial) {
  layout_testing::EnsureLayoutPassesRegistered();
  auto differ = std::make_shared<CallNodeDiffer>();
  ir::IRModule mod = BoundResNet18();
  {
    transform::PassContextScope scope(
        transform::PassContext({.opt_level = 3, .instruments = {differ}}));
    mod = transform::Sequential({passes::ConvertLayout({{"nn.conv2d", {"NHWC", "HWIO"}}})})(mod);
  }
  // The tutorial: [(1, 'CanonicalizeOps', {'add': 1, 'nn.bias_add': -1}),
  //                (1, 'ConvertLayout', {'expand_dims': 1, 'layout_transform': 23}), ...]
  std::vector<CallNodeDiffer::Diff> expected = {
      {1, "CanonicalizeOps", OpCounts{{"add", 1}, {"nn.bias_add", -1}}},
      {1, "ConvertLayout", OpCounts{{"expand_dims", 1}, {"layout_transform", 23}}},
      {0, "sequential",
       OpCounts{{"add", 1}, {"expand_dims", 1}, {"layout_transform", 23}, {"nn.bias_add", -1}}},
  };
  EXPECT_EQ(differ->diffs(), expected);
}

TEST(ConvertLayoutTest, ResNet18ConvsAndPoolsRunInNHWC) {
  ir::IRModule out = layout_testing::RunAtLevel3(
      passes::ConvertLayout({{"nn.conv2d", {"NHWC", "default"}}}), BoundResNet18());
  int convs = 0, pools = 0, bns = 0;
  ir::post_order_visit(out.Lookup("main"), [&](const ir::Expr& e) {
    auto* call = e.as<ir::CallNode>();
    if (call == nullptr || call->op_node() == nullptr) return;
    const std::string& name = call->op_node()->name;
    if (name == "nn.conv2d") {
      ++convs;
      EXPECT_EQ(call->attrs->get_string("data_layout"), "NHWC");
      EXPECT_EQ(call->attrs->get_string("kernel_layout"), "HWIO");
    } else if (name == "nn.max_pool2d" || name == "nn.global_avg_pool2d") {
      ++pools;
      EXPECT_EQ(call->attrs->get_string("layout"), "NHWC");
    } else if (name == "nn.batch_norm" &&
               call->args[0]->checked_type.as<ir::TensorTypeNode>()->shape[1] != 3) {
      ++bns;  // all but bn_data, whose input (the image) nothing converted
      EXPECT_EQ(call->attrs->get_int("axis"), 3);
    }
  });
  EXPECT_EQ(convs, 21);
  EXPECT_EQ(pools, 2);
  EXPECT_EQ(bns, 18);
  // The result type is unchanged: values are converted back at the output.
  EXPECT_TRUE(
      ir::TypeEqual(out.Lookup("main")->ret_type, BoundResNet18().Lookup("main")->ret_type));
}

// conv2d -> bias_add -> relu -> max_pool2d, converted to NHWC with the default kernel layout.
// Hand derivation (relay_semantics.md 3.7, 3.8):
//  * CanonicalizeOps: bias_add(%y, %b, axis=1) on a rank-4 tensor becomes
//    add(%y, expand_dims(%b, axis=1, num_newaxis=2)).
//  * conv2d: its hook sets data_layout=NHWC, kernel_layout=HWIO (default for NHWC); the rule
//    wants [NHWC, HWIO] where the call had [NCHW, OIHW]: %x and %w get layout_transforms; the
//    result is (old NCHW, new NHWC).
//  * expand_dims has no layout rule: it stays as it is, on the untouched %b.
//  * add: before the rewrite, the bias (16, 1, 1) gets the trailing sub-layout CHW of NCHW; after
//    it, the bias is transformed like the conv output NCHW -> NHWC, i.e. CHW -> NHWC: it has
//    fewer primal axes, so expand_dims(axis=0) first (CHW -> NCHW), then NCHW -> NHWC.
//  * relu follows its input (NHWC); max_pool2d is not listed (its own conversion hook is not
//    used) but its rule takes the incoming layout: layout="NHWC".
//  * the function result is converted back NHWC -> NCHW.
constexpr const char* kConvBiasReluPoolNHWC = R"(
def @main(%x: Tensor[(1, 3, 32, 32), float32], %w: Tensor[(16, 3, 3, 3), float32], %b: Tensor[(16), float32]) -> Tensor[(1, 16, 16, 16), float32] {
  %0 = layout_transform(%x, src_layout="NCHW", dst_layout="NHWC");
  %1 = layout_transform(%w, src_layout="OIHW", dst_layout="HWIO");
  %2 = nn.conv2d(%0, %1, padding=[1, 1, 1, 1], channels=16, kernel_size=[3, 3], data_layout="NHWC", kernel_layout="HWIO");
  %3 = expand_dims(%b, axis=1, num_newaxis=2);
  %4 = expand_dims(%3, axis=0);
  %5 = layout_transform(%4, src_layout="NCHW", dst_layout="NHWC");
  %6 = add(%2, %5);
  %7 = nn.relu(%6);
  %8 = nn.max_pool2d(%7, pool_size=[2, 2], strides=[2, 2], padding=[0, 0, 0, 0], layout="NHWC");
  layout_transform(%8, src_layout="NHWC", dst_layout="NCHW")
}
)";

ir::IRModule ConvBiasReluPool() {
  relay::Var x = relay::var("x", {1, 3, 32, 32});
  relay::Var w = relay::var("w", {16, 3, 3, 3});
  relay::Var b = relay::var("b", {16});
  relay::Expr y =
      relay::nn::conv2d(x, w, {.padding = {1, 1}, .channels = 16, .kernel_size = {{3, 3}}});
  y = relay::nn::bias_add(y, b);
  y = relay::nn::relu(y);
  y = relay::nn::max_pool2d(y, {.pool_size = {2, 2}, .strides = {2, 2}});
  return ir::IRModule::FromExpr(relay::function({x, w, b}, y));
}

TEST(ConvertLayoutTest, ConvBiasReluPoolMatchesTheHandDerivedResult) {
  ir::IRModule out = layout_testing::RunAtLevel3(
      passes::ConvertLayout({{"nn.conv2d", {"NHWC", "default"}}}), ConvBiasReluPool());
  ir::IRModule expected = layout_testing::ParseExpected(kConvBiasReluPoolNHWC);
  EXPECT_TRUE(ir::StructuralEqual(out, expected)) << text::PrettyPrint(out);
}

TEST(ConvertLayoutTest, NeverChangesItsInput) {
  ir::IRModule mod = ir::InferTypes(ConvBiasReluPool());
  const std::string before = text::PrettyPrint(mod);
  const ir::Function main = mod.Lookup("main");
  ir::IRModule out = passes::ConvertLayout({{"nn.conv2d", {"NHWC", "default"}}})(mod);
  EXPECT_EQ(text::PrettyPrint(mod), before);
  EXPECT_TRUE(mod.Lookup("main").same_as(main));
  EXPECT_FALSE(out.Lookup("main").same_as(main));
}

TEST(ConvertLayoutTest, ToTheSameLayoutInsertsNoLayoutTransform) {
  ir::IRModule mod = ir::InferTypes(ConvBiasReluPool());
  ir::IRModule out =
      layout_testing::RunAtLevel3(passes::ConvertLayout({{"nn.conv2d", {"NCHW", "default"}}}), mod);
  // No layout_transform; but, as in TVM, the (16, 1, 1) bias is transformed "like" the NCHW
  // conv output, CHW -> NCHW, which is an expand_dims(axis=0) -- as the dense bias of resnet-18
  // gets one in the instrument tutorial.
  EXPECT_EQ(
      layout_testing::CountOps(out),
      (OpCounts{
          {"add", 1}, {"expand_dims", 2}, {"nn.conv2d", 1}, {"nn.max_pool2d", 1}, {"nn.relu", 1}}));
}

TEST(ConvertLayoutTest, ListedPoolsTakeTheDesiredLayoutAsOutLayout) {
  ir::IRModule out = layout_testing::RunAtLevel3(
      passes::ConvertLayout({{"nn.conv2d", {"NHWC", "default"}}, {"nn.max_pool2d", {"NHWC"}}}),
      ConvBiasReluPool());
  bool seen = false;
  ir::post_order_visit(out.Lookup("main"), [&](const ir::Expr& e) {
    auto* call = e.as<ir::CallNode>();
    if (call && call->op_node() && call->op_node()->name == "nn.max_pool2d") {
      seen = true;
      EXPECT_EQ(call->attrs->get_string("layout"), "NHWC");
      EXPECT_EQ(call->attrs->get_string("out_layout"), "NHWC");
    }
  });
  EXPECT_TRUE(seen);
}

TEST(ConvertLayoutTest, CalledDirectlyOnAnUntypedModule) {
  // No CanonicalizeOps runs here: bias_add has no layout rule, so the conv output is converted
  // back to NCHW before it.
  ir::IRModule out =
      passes::ConvertLayout({{"nn.conv2d", {"NHWC", "default"}}})(ConvBiasReluPool());
  EXPECT_EQ(layout_testing::CountOps(out)["layout_transform"], 3);
  EXPECT_EQ(layout_testing::CountOps(out)["nn.bias_add"], 1);
}

TEST(ConvertLayoutTest, RejectsDesiredLayoutsConv2DCannotTake) {
  ir::IRModule mod = ir::InferTypes(ConvBiasReluPool());
  EXPECT_THROW(passes::ConvertLayout({{"nn.conv2d", {"default", "default"}}})(mod), PassError);
  EXPECT_THROW(passes::ConvertLayout({{"nn.conv2d", {"NHWC"}}})(mod), PassError);
  // NCHW<n>c needs nn.contrib_conv2d_NCHWc, which is not implemented (the 3 channels split into
  // tiles of 1), and TVM asserts a kernel layout is given for it.
  EXPECT_THROW(passes::ConvertLayout({{"nn.conv2d", {"NCHW1c", "OIHW1i1o"}}})(mod), PassError);
  EXPECT_THROW(passes::ConvertLayout({{"nn.conv2d", {"NCHW16c", "default"}}})(mod), PassError);
}

// TVM's convert_conv2d keeps a conv whose data is a variable with channels (here 3) that do not
// split into the desired tiles (16): the module comes out as it went in.
TEST(ConvertLayoutTest, TiledLayoutKeepsAConvWhoseChannelsDoNotSplit) {
  ir::IRModule mod = ir::InferTypes(ConvBiasReluPool());
  ir::IRModule out = passes::ConvertLayout({{"nn.conv2d", {"NCHW16c", "OIHW16i16o"}}})(mod);
  EXPECT_TRUE(ir::StructuralEqual(out, mod)) << text::PrettyPrint(out);
}

// split's axis follows its letter (C: 1 in NCHW, 3 in NHWC) and both pieces stay NHWC: the
// layout goes back to NCHW once, after the add of the pieces.
TEST(ConvertLayoutTest, SplitFollowsTheChannelAxis) {
  relay::Var x = relay::var("x", {1, 8, 8, 8});
  relay::Var w = relay::var("w", {16, 8, 3, 3});
  relay::Expr conv = relay::nn::conv2d(x, w, {.padding = {1, 1}});
  relay::Expr pieces = relay::split(conv, 2, 1);
  relay::Expr sum = relay::add(relay::get_item(pieces, 0), relay::get_item(pieces, 1));
  ir::IRModule mod = ir::InferTypes(ir::IRModule::FromExpr(relay::function({x, w}, sum)));
  ir::IRModule out =
      layout_testing::RunAtLevel3(passes::ConvertLayout({{"nn.conv2d", {"NHWC", "default"}}}), mod);
  EXPECT_EQ(layout_testing::CountOps(out)["layout_transform"], 3) << text::PrettyPrint(out);
  int split_axis = -1;
  ir::post_order_visit(out.Lookup("main"), [&](const ir::Expr& e) {
    auto* call = e.as<ir::CallNode>();
    if (call && call->op_node() && call->op_node()->name == "split") {
      split_axis = static_cast<int>(call->attrs->get_int("axis"));
    }
  });
  EXPECT_EQ(split_axis, 3) << text::PrettyPrint(out);
}

TEST(ConvertLayoutTest, IsRegisteredWithItsDictOption) {
  layout_testing::EnsureLayoutPassesRegistered();
  transform::Pass pass =
      transform::CreatePass(R"(ConvertLayout(desired_layouts={"nn.conv2d": ["NHWC", "default"]}))");
  EXPECT_EQ(pass.info().name, "ConvertLayout");
  EXPECT_EQ(pass.info().opt_level, 3);
  EXPECT_EQ(pass.info().required, (std::vector<std::string>{"InferType", "CanonicalizeOps"}));
  ir::IRModule out = layout_testing::RunAtLevel3(pass, ConvBiasReluPool());
  EXPECT_TRUE(ir::StructuralEqual(out, layout_testing::ParseExpected(kConvBiasReluPoolNHWC)));
  EXPECT_THROW(transform::CreatePass("ConvertLayout"), PassError);
  EXPECT_THROW(transform::CreatePass(R"(ConvertLayout(desired_layouts={"nn.conv2d": "NHWC"}))"),
               PassError);
}

}  // namespace
}  // namespace relaypass
