// DefuseOps, FoldExplicitPadding and SimplifyFCTranspose. Expected graphs follow TVM v0.13's tests
// (tests/python/relay/test_pass_defuse_ops.py, test_pass_fold_explicit_padding.py,
// test_pass_simplify_fc_transpose.py / the pass's source where the test only checks numbers),
// built with the same builder calls and compared by printed text after InferType.
#include <gtest/gtest.h>

#include <limits>

#include "pass_test_util.h"
#include "relaypass/eval/allclose.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/eval/random.h"
#include "relaypass/ir/structural.h"
#include "relaypass/passes/defuse_ops.h"
#include "relaypass/passes/fold_explicit_padding.h"
#include "relaypass/passes/fuse_ops.h"
#include "relaypass/passes/simplify_fc_transpose.h"
#include "relaypass/relay.h"
#include "relaypass/transform/registry.h"
#include "relaypass/workloads/resnet.h"

namespace relaypass::passes {
namespace {

using ir::Expr;
using relay::Ints;
using testing::Print;
using testing::Typed;

void ExpectSameResults(const ir::IRModule& before, const ir::IRModule& after) {
  std::vector<ir::NDArray> inputs;
  for (const eval::Value& v : eval::RandomInputs(before.Lookup("main"), 3)) {
    inputs.push_back(v.tensor());
  }
  std::vector<ir::NDArray> expected = eval::RunMain(before, inputs);
  std::vector<ir::NDArray> actual = eval::RunMain(after, inputs);
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    eval::CloseResult close = eval::AllClose(actual[i], expected[i], eval::Tolerance{1e-4, 1e-5});
    EXPECT_TRUE(close.ok) << i << ": " << close.message;
  }
}

// ---- DefuseOps: test_defuse_simple and test_inception_like / resnet: FuseOps then DefuseOps
// gives back the original graph.
TEST(DefuseOps, UndoesFuseOps) {
  auto x = relay::var("x", {10, 20});
  ir::IRModule simple =
      Typed(relay::function({x}, relay::squeeze(relay::exp(relay::add(x, relay::const_(1.0f))))));
  EXPECT_TRUE(ir::StructuralEqual(DefuseOps()(FuseOps()(simple)), simple));

  ir::IRModule resnet = Typed(workloads::ResNet({.num_layers = 18}));
  ir::IRModule fused = FuseOps(2)(resnet);
  ASSERT_NE(Print(fused), Print(resnet));
  EXPECT_EQ(Print(DefuseOps()(fused)), Print(resnet));
}

TEST(DefuseOps, RejectsParametersSharingAName) {
  auto a = relay::var("p", {2});
  auto b = relay::var("p", {2});
  auto x = relay::var("x", {2});
  Expr call = ir::MakeCall(relay::function({a, b}, relay::add(a, b)), {x, x});
  EXPECT_THROW(DefuseOps()(Typed(relay::function({x}, call))), PassError);
}

// ---- FoldExplicitPadding: test_simplify_conv_pad (conv2d, NCHW and NHWC).
TEST(FoldExplicitPadding, ConvPadFoldsIntoPadding) {
  for (Ints orig : {Ints{0, 0, 0, 0}, Ints{2, 0, 2, 0}, Ints{0, 2, 0, 2}}) {
    for (Ints i_pad : {Ints{0, 0}, Ints{1, 1}, Ints{1, 0}}) {
      for (bool channels_last : {false, true}) {
        SCOPED_TRACE(std::to_string(orig[0]) + std::to_string(orig[1]) + std::to_string(i_pad[0]) +
                     std::to_string(i_pad[1]) + (channels_last ? " NHWC" : " NCHW"));
        auto x = relay::var("x", channels_last ? Ints{1, 10, 10, 3} : Ints{1, 3, 10, 10});
        auto w = relay::var("w", channels_last ? Ints{3, 3, 3, 8} : Ints{8, 3, 3, 3});
        relay::nn::Conv2DArgs args{.padding = orig};
        if (channels_last) {
          args.data_layout = "NHWC";
          args.kernel_layout = "HWIO";
        }
        std::vector<Ints> pad_width = channels_last
                                          ? std::vector<Ints>{{0, 0}, i_pad, i_pad, {0, 0}}
                                          : std::vector<Ints>{{0, 0}, {0, 0}, i_pad, i_pad};
        auto before =
            relay::function({x, w}, relay::nn::conv2d(relay::nn::pad(x, pad_width), w, args));
        relay::nn::Conv2DArgs folded = args;
        folded.padding = {orig[0] + i_pad[0], orig[1] + i_pad[0], orig[2] + i_pad[1],
                          orig[3] + i_pad[1]};
        auto expected = relay::function({x, w}, relay::nn::conv2d(x, w, folded));
        ir::IRModule mod = Typed(before);
        ir::IRModule out = FoldExplicitPadding()(mod);
        EXPECT_EQ(Print(out), Print(Typed(expected)));
        ExpectSameResults(mod, out);
      }
    }
  }
}

TEST(FoldExplicitPadding, NonZeroValueEdgeModeAndBatchPaddingDoNotFold) {
  auto x = relay::var("x", {1, 3, 10, 10});
  auto w = relay::var("w", {8, 3, 3, 3});
  std::vector<Ints> spatial{{0, 0}, {0, 0}, {1, 1}, {1, 1}};
  for (Expr pad : {relay::nn::pad(x, spatial, relay::const_(int32_t{1})),
                   relay::nn::pad(x, spatial, nullptr, "edge"),
                   relay::nn::pad(x, {{1, 0}, {0, 0}, {1, 1}, {1, 1}})}) {
    ir::IRModule mod = Typed(relay::function({x, w}, relay::nn::conv2d(pad, w)));
    EXPECT_EQ(Print(FoldExplicitPadding()(mod)), Print(mod));
  }
}

// Pads of pads fold one after the other (TVM rewrites to a fixed point).
TEST(FoldExplicitPadding, NestedPadsFoldTwice) {
  auto x = relay::var("x", {1, 3, 10, 10});
  auto w = relay::var("w", {8, 3, 3, 3});
  std::vector<Ints> p1{{0, 0}, {0, 0}, {1, 1}, {1, 1}};
  std::vector<Ints> p2{{0, 0}, {0, 0}, {2, 0}, {0, 2}};
  auto before =
      relay::function({x, w}, relay::nn::conv2d(relay::nn::pad(relay::nn::pad(x, p1), p2), w));
  auto expected = relay::function({x, w}, relay::nn::conv2d(x, w, {.padding = {3, 1, 1, 3}}));
  EXPECT_EQ(Print(FoldExplicitPadding()(Typed(before))), Print(Typed(expected)));
}

// test_simplify_pool_pad: max pools fold a pad of the dtype's lowest value; avg pools a pad of 0
// (turning on count_include_pad when the pool pads nothing, not folding otherwise).
TEST(FoldExplicitPadding, PoolsFoldTheirNeutralPadValue) {
  auto x = relay::var("x", {1, 3, 10, 10});
  std::vector<Ints> pw{{0, 0}, {0, 0}, {1, 1}, {1, 1}};
  const float lowest = std::numeric_limits<float>::lowest();
  relay::nn::Pool2DArgs pool{.pool_size = {3, 3}};
  {
    auto before = relay::function(
        {x}, relay::nn::max_pool2d(relay::nn::pad(x, pw, relay::const_(lowest)), pool));
    relay::nn::Pool2DArgs folded = pool;
    folded.padding = {1, 1, 1, 1};
    auto expected = relay::function({x}, relay::nn::max_pool2d(x, folded));
    ir::IRModule out = FoldExplicitPadding()(Typed(before));
    EXPECT_EQ(Print(out), Print(Typed(expected)));
    ExpectSameResults(Typed(before), out);
    // A pad of 0 does not fold into a max pool.
    ir::IRModule zero =
        Typed(relay::function({x}, relay::nn::max_pool2d(relay::nn::pad(x, pw), pool)));
    EXPECT_EQ(Print(FoldExplicitPadding()(zero)), Print(zero));
  }
  {
    auto before = relay::function(
        {x}, relay::nn::avg_pool2d(relay::nn::pad(x, pw, relay::const_(0.0f)), pool));
    relay::nn::Pool2DArgs folded = pool;
    folded.padding = {1, 1, 1, 1};
    folded.count_include_pad = true;
    auto expected = relay::function({x}, relay::nn::avg_pool2d(x, folded));
    ir::IRModule out = FoldExplicitPadding()(Typed(before));
    EXPECT_EQ(Print(out), Print(Typed(expected)));
    ExpectSameResults(Typed(before), out);
    relay::nn::Pool2DArgs padded = pool;
    padded.padding = {1, 1, 1, 1};
    ir::IRModule kept = Typed(relay::function(
        {x}, relay::nn::avg_pool2d(relay::nn::pad(x, pw, relay::const_(0.0f)), padded)));
    EXPECT_EQ(Print(FoldExplicitPadding()(kept)), Print(kept));
  }
}

// ---- SimplifyFCTranspose: test_simplify_fc_transpose checks numbers after renaming the weight;
// the graph below is what the pass's source builds.
TEST(SimplifyFCTranspose, DenseOfTransposedWeightTakesTheTransposedVariable) {
  auto data = relay::var("data", {1, 32});
  auto w1 = relay::var("w1", {32, 64});
  auto w2 = relay::var("w2", {64, 16});
  Expr y = relay::nn::relu(relay::nn::dense(data, relay::transpose(w1, Ints{1, 0})));
  y = relay::nn::dense(y, relay::transpose(w2, Ints{1, 0}));
  ir::IRModule out = SimplifyFCTranspose({"w1", "w2"})(Typed(relay::function({data, w1, w2}, y)));
  const std::string text = Print(out);
  EXPECT_NE(text.find("def @main(%data: Tensor[(1, 32), float32] /* ty=Tensor[(1, 32), float32] "
                      "*/, %w1.T: Tensor[(64, 32), float32] /* ty=Tensor[(64, 32), float32] */, "
                      "%w2.T: Tensor[(16, 64), float32]"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("transpose"), std::string::npos) << text;
  EXPECT_THROW(SimplifyFCTranspose({"w1"})(Typed(relay::function({data, w1, w2}, y))), PassError);
  EXPECT_EQ(transform::PassRegistry::Global()
                .Create("SimplifyFCTranspose",
                        {{"target_weight",
                          transform::OptionValue::Array({transform::OptionValue::Str("w1")})}})
                .info()
                .required,
            std::vector<std::string>{"DeadCodeElimination"});
}

}  // namespace
}  // namespace relaypass::passes
