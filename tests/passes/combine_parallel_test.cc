// CombineParallelConv2D, CombineParallelDense and CombineParallelBatchMatmul. Each expected graph
// is the `expected` function of the TVM v0.13 test named above it
// (tests/python/relay/test_pass_combine_parallel_{conv2d,dense,batch_matmul}.py), built with the
// same builder calls and compared by printed text after InferType, as TVM's tests compare with
// assert_structural_equal.
#include <gtest/gtest.h>

#include "pass_test_util.h"
#include "relaypass/eval/allclose.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/eval/random.h"
#include "relaypass/op/registry.h"
#include "relaypass/passes/combine_parallel.h"
#include "relaypass/relay.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {
namespace {

using ir::Expr;
using relay::Ints;
using testing::Print;
using testing::Typed;

std::string Combined(const transform::Pass& pass, const ir::Function& before) {
  return Print(pass(Typed(before)));
}

Expr Slice(Expr y, Ints begin, Ints end) {
  Ints strides(begin.size(), 1);
  return relay::strided_slice(std::move(y), begin, end, strides, std::nullopt, "size");
}

Expr Stack(std::vector<Expr> fields) {
  return ir::MakeCall(op::GetOp("stack"), {relay::tuple(std::move(fields))},
                      ir::MakeAttrs(*op::GetOp("stack")->def->attrs_schema, {}));
}

// ---- conv2d: test_combine_parallel_conv2d
TEST(CombineParallelConv2D, SimpleGroupLeavesTheMismatchedConv) {
  for (auto [ch1, ch2, ch3, ch4] : {std::array<int64_t, 4>{4, 4, 4, 4}, {4, 8, 4, 7}}) {
    auto x = relay::var("x", {1, 4, 16, 16});
    auto w1 = relay::var("w1", {ch1, 4, 1, 1});
    auto w2 = relay::var("w2", {ch2, 4, 1, 1});
    auto w3 = relay::var("w3", {ch3, 4, 3, 3});
    auto w4 = relay::var("w4", {ch4, 4, 1, 1});
    relay::nn::Pool2DArgs pool;
    auto before = relay::function(
        {x, w1, w2, w3, w4},
        relay::tuple({relay::nn::conv2d(x, w1), relay::nn::conv2d(x, w2), relay::nn::conv2d(x, w3),
                      relay::nn::conv2d(x, w4), relay::nn::max_pool2d(x, pool)}));
    Expr y =
        relay::nn::conv2d(x, relay::concatenate({w1, w2, w4}, 0), {.channels = ch1 + ch2 + ch4});
    auto expected =
        relay::function({x, w1, w2, w3, w4},
                        relay::tuple({Slice(y, {0, 0}, {-1, ch1}), Slice(y, {0, ch1}, {-1, ch2}),
                                      relay::nn::conv2d(x, w3), Slice(y, {0, ch1 + ch2}, {-1, ch4}),
                                      relay::nn::max_pool2d(x, pool)}));
    EXPECT_EQ(Combined(CombineParallelConv2D(2), before), Print(Typed(expected)));
  }
}

// test_combine_parallel_conv2d_scale_relu: conv + multiply + relu + add, combined to the end.
TEST(CombineParallelConv2D, FollowingElementwiseOpsAreCombined) {
  const int64_t ch1 = 4, ch2 = 8;
  auto x = relay::var("x", {1, 4, 16, 16});
  auto w1 = relay::var("w1", {ch1, 4, 1, 1});
  auto w2 = relay::var("w2", {ch2, 4, 1, 1});
  auto scale1 = relay::var("scale1", {ch1, 1, 1});
  auto scale2 = relay::var("scale2", {ch2, 1, 1});
  auto bias = relay::var("bias", {ch2, 1, 1});
  Expr y1 = relay::multiply(relay::nn::conv2d(x, w1), scale1);
  Expr y2 = relay::multiply(relay::nn::conv2d(x, w2), scale2);
  y1 = relay::nn::relu(y1);
  y2 = relay::add(relay::nn::relu(y2), bias);
  auto before = relay::function({x, w1, w2, scale1, scale2, bias}, relay::tuple({y1, y2}));

  Expr y = relay::nn::conv2d(x, relay::concatenate({w1, w2}, 0), {.channels = ch1 + ch2});
  y = relay::nn::relu(relay::multiply(y, relay::concatenate({scale1, scale2}, 0)));
  Expr e1 = Slice(y, {0, 0}, {-1, ch1});
  Expr e2 = relay::add(Slice(y, {0, ch1}, {-1, ch2}), bias);
  auto expected = relay::function({x, w1, w2, scale1, scale2, bias}, relay::tuple({e1, e2}));
  EXPECT_EQ(Combined(CombineParallelConv2D(2), before), Print(Typed(expected)));
}

// test_combine_parallel_conv2d_scale: a broadcast (1, 1, 1) scale stops the combination.
TEST(CombineParallelConv2D, BroadcastArgumentStopsAtTheConv) {
  const int64_t ch1 = 4, ch2 = 8;
  auto x = relay::var("x", {1, 4, 16, 16});
  auto w1 = relay::var("w1", {ch1, 4, 1, 1});
  auto w2 = relay::var("w2", {ch2, 4, 1, 1});
  auto scale1 = relay::var("scale1", {1});
  auto scale2 = relay::var("scale2", {1});
  auto before = relay::function({x, w1, w2, scale1, scale2},
                                relay::tuple({relay::multiply(relay::nn::conv2d(x, w1), scale1),
                                              relay::multiply(relay::nn::conv2d(x, w2), scale2)}));
  Expr y = relay::nn::conv2d(x, relay::concatenate({w1, w2}, 0), {.channels = ch1 + ch2});
  auto expected =
      relay::function({x, w1, w2, scale1, scale2},
                      relay::tuple({relay::multiply(Slice(y, {0, 0}, {-1, ch1}), scale1),
                                    relay::multiply(Slice(y, {0, ch1}, {-1, ch2}), scale2)}));
  EXPECT_EQ(Combined(CombineParallelConv2D(2), before), Print(Typed(expected)));
}

// test_combine_parallel_conv2d_multiple_blocks: each block reads the previous block's output.
TEST(CombineParallelConv2D, StackedBlocksAreEachCombined) {
  const int repeat = 4;
  const int64_t channels = 2;
  auto x = relay::var("x", {1, 4, 16, 16});
  auto w = relay::var("w", {channels, 4, 1, 1});
  Expr y = x;
  for (int i = 0; i < repeat; ++i) {
    y = relay::concatenate({relay::nn::conv2d(y, w), relay::nn::conv2d(y, w)}, 1);
  }
  auto before = relay::function({x, w}, y);
  Expr e = x;
  for (int i = 0; i < repeat; ++i) {
    e = relay::nn::conv2d(e, relay::concatenate({w, w}, 0), {.channels = channels * 2});
    e = relay::concatenate(
        {Slice(e, {0, 0}, {-1, channels}), Slice(e, {0, channels}, {-1, channels})}, 1);
  }
  auto expected = relay::function({x, w}, e);
  EXPECT_EQ(Combined(CombineParallelConv2D(2), before), Print(Typed(expected)));
}

TEST(CombineParallelConv2D, FewerBranchesThanTheMinimumStayAsTheyAre) {
  auto x = relay::var("x", {1, 4, 8, 8});
  auto w1 = relay::var("w1", {4, 4, 1, 1});
  auto w2 = relay::var("w2", {4, 4, 1, 1});
  auto before = relay::function({x, w1, w2},
                                relay::tuple({relay::nn::conv2d(x, w1), relay::nn::conv2d(x, w2)}));
  EXPECT_EQ(Combined(CombineParallelConv2D(3), before), Print(Typed(before)));
}

// ---- dense: test_combine_parallel_dense
TEST(CombineParallelDense, ToBatchMatmulLeavesTheMismatchedDense) {
  for (auto [i, j, k] : {std::array<int64_t, 3>{3, 5, 4}, {100, 200, 300}}) {
    auto x = relay::var("x", {i, k});
    auto w1 = relay::var("w1", {j, k});
    auto w2 = relay::var("w2", {j, k});
    auto w3 = relay::var("w3", {j + 1, k});
    auto w4 = relay::var("w4", {j, k});
    auto before = relay::function({x, w1, w2, w3, w4},
                                  relay::tuple({relay::nn::dense(x, w1), relay::nn::dense(x, w2),
                                                relay::nn::dense(x, w3), relay::nn::dense(x, w4)}));
    Expr y = relay::nn::batch_matmul(Stack({x, x, x}), Stack({w1, w2, w4}));
    Expr parts = relay::split(y, 3);
    auto expected = relay::function(
        {x, w1, w2, w3, w4},
        relay::tuple({relay::squeeze(relay::get_item(parts, 0), Ints{0}),
                      relay::squeeze(relay::get_item(parts, 1), Ints{0}), relay::nn::dense(x, w3),
                      relay::squeeze(relay::get_item(parts, 2), Ints{0})}));
    EXPECT_EQ(Combined(CombineParallelDense(2), before), Print(Typed(expected)));
  }
}

// test_combine_parallel_dense_biasadd (1-D and 2-D biases).
TEST(CombineParallelDense, BiasAddIsStacked) {
  for (bool is_2d_bias : {false, true}) {
    const int64_t i = 3, j = 5, k = 4;
    auto x = relay::var("x", {i, k});
    auto w1 = relay::var("w1", {j, k});
    auto w2 = relay::var("w2", {j, k});
    auto b1 = is_2d_bias ? relay::var("b1", {i, j}) : relay::var("b1", {j});
    auto b2 = is_2d_bias ? relay::var("b2", {i, j}) : relay::var("b2", {j});
    auto before = relay::function({x, w1, w2, b1, b2},
                                  relay::tuple({relay::add(relay::nn::dense(x, w1), b1),
                                                relay::add(relay::nn::dense(x, w2), b2)}));
    Expr y = relay::nn::batch_matmul(Stack({x, x}), Stack({w1, w2}));
    Expr e1 = b1, e2 = b2;
    if (!is_2d_bias) {
      e1 = relay::expand_dims(b1, 0);
      e2 = relay::expand_dims(b2, 0);
    }
    y = relay::add(y, Stack({e1, e2}));
    Expr parts = relay::split(y, 2);
    auto expected = relay::function(
        {x, w1, w2, b1, b2}, relay::tuple({relay::squeeze(relay::get_item(parts, 0), Ints{0}),
                                           relay::squeeze(relay::get_item(parts, 1), Ints{0})}));
    EXPECT_EQ(Combined(CombineParallelDense(2), before), Print(Typed(expected)));
  }
}

// test_combine_parallel_dense_flat: to_batch=False, different output units.
TEST(CombineParallelDense, FlatConcatenatesWeights) {
  const int64_t i = 3, j = 5, k = 4;
  auto x = relay::var("x", {i, k});
  auto w1 = relay::var("w1", {j, k});
  auto w2 = relay::var("w2", {2 * j, k});
  auto w3 = relay::var("w3", {3 * j, k});
  auto before = relay::function(
      {x, w1, w2, w3},
      relay::tuple({relay::nn::dense(x, w1), relay::nn::dense(x, w2), relay::nn::dense(x, w3)}));
  Expr y = relay::nn::dense(x, relay::concatenate({w1, w2, w3}, 0), 6 * j);
  auto expected = relay::function(
      {x, w1, w2, w3}, relay::tuple({Slice(y, {0, 0}, {-1, j}), Slice(y, {0, j}, {-1, 2 * j}),
                                     Slice(y, {0, 3 * j}, {-1, 3 * j})}));
  EXPECT_EQ(Combined(CombineParallelDense(3, false), before), Print(Typed(expected)));
}

// test_combine_parallel_dense_flat_biasadd_scale_reshape: repeat for the broadcast scale.
TEST(CombineParallelDense, FlatRepeatsBroadcastArguments) {
  const int64_t i = 3, j = 5, k = 4;
  auto x = relay::var("x", {i, k});
  auto w1 = relay::var("w1", {j, k});
  auto w2 = relay::var("w2", {2 * j, k});
  auto b1 = relay::var("b1", {j});
  auto b2 = relay::var("b2", {2 * j});
  auto s1 = relay::var("scale1", {1});
  auto s2 = relay::var("scale2", {1});
  Expr y1 = relay::multiply(relay::add(relay::nn::dense(x, w1), b1), s1);
  Expr y2 = relay::multiply(relay::add(relay::nn::dense(x, w2), b2), s2);
  auto before = relay::function(
      {x, w1, w2, b1, b2, s1, s2},
      relay::tuple({relay::reshape(y1, {1, 1, 15}), relay::reshape(y2, {1, 1, 30})}));
  Expr y = relay::nn::dense(x, relay::concatenate({w1, w2}, 0), 3 * j);
  y = relay::add(y, relay::concatenate({b1, b2}, 0));
  y = relay::multiply(
      y, relay::concatenate({relay::repeat(s1, j, 0), relay::repeat(s2, 2 * j, 0)}, 0));
  auto expected =
      relay::function({x, w1, w2, b1, b2, s1, s2},
                      relay::tuple({relay::reshape(Slice(y, {0, 0}, {-1, j}), {1, 1, 15}),
                                    relay::reshape(Slice(y, {0, j}, {-1, 2 * j}), {1, 1, 30})}));
  EXPECT_EQ(Combined(CombineParallelDense(2, false), before), Print(Typed(expected)));
}

// test_combine_parallel_dense_expand_dims: the slice axis follows the dense's units.
TEST(CombineParallelDense, FlatSlicesTheAxisOfTheUnitsAfterExpandDims) {
  auto x = relay::var("x", {2, 32});
  auto w1 = relay::var("w1", {16, 32});
  auto w2 = relay::var("w2", {8, 32});
  auto before =
      relay::function({x, w1, w2}, relay::tuple({relay::expand_dims(relay::nn::dense(x, w1), 2),
                                                 relay::expand_dims(relay::nn::dense(x, w2), 2)}));
  Expr y = relay::expand_dims(relay::nn::dense(x, relay::concatenate({w1, w2}, 0), 24), 2);
  auto expected = relay::function({x, w1, w2}, relay::tuple({Slice(y, {0, 0, 0}, {-1, 16, -1}),
                                                             Slice(y, {0, 16, 0}, {-1, 8, -1})}));
  EXPECT_EQ(Combined(CombineParallelDense(2, false), before), Print(Typed(expected)));
}

// ---- batch_matmul: test_combine_parallel_batch_matmul
TEST(CombineParallelBatchMatmul, WeightsAreConcatenatedOnAxisOne) {
  const int64_t b = 2, i = 3, j = 5, k = 4;
  auto x = relay::var("x", {b, i, k});
  auto w1 = relay::var("w1", {b, j, k});
  auto w2 = relay::var("w2", {b, j, k});
  auto w3 = relay::var("w3", {b, j, k});
  auto before = relay::function(
      {x, w1, w2, w3}, relay::tuple({relay::nn::batch_matmul(x, w1), relay::nn::batch_matmul(x, w2),
                                     relay::nn::batch_matmul(x, w3)}));
  Expr y = relay::nn::batch_matmul(x, relay::concatenate({w1, w2, w3}, 1));
  auto expected = relay::function(
      {x, w1, w2, w3},
      relay::tuple({Slice(y, {0, 0, 0}, {-1, -1, j}), Slice(y, {0, 0, j}, {-1, -1, j}),
                    Slice(y, {0, 0, 2 * j}, {-1, -1, j})}));
  EXPECT_EQ(Combined(CombineParallelBatchMatmul(2), before), Print(Typed(expected)));
}

// test_combine_parallel_batch_matmul_biasadd
TEST(CombineParallelBatchMatmul, BiasAddIsConcatenatedOnTheLastAxis) {
  const int64_t b = 2, i = 3, j = 5, k = 4;
  auto x = relay::var("x", {b, i, k});
  auto w1 = relay::var("w1", {b, j, k});
  auto w2 = relay::var("w2", {b, j, k});
  auto w3 = relay::var("w3", {b, j, k});
  auto b1 = relay::var("b1", {j});
  auto b2 = relay::var("b2", {j});
  auto b3 = relay::var("b3", {j});
  auto before = relay::function({x, w1, w2, w3, b1, b2, b3},
                                relay::tuple({relay::add(relay::nn::batch_matmul(x, w1), b1),
                                              relay::add(relay::nn::batch_matmul(x, w2), b2),
                                              relay::add(relay::nn::batch_matmul(x, w3), b3)}));
  Expr y = relay::nn::batch_matmul(x, relay::concatenate({w1, w2, w3}, 1));
  y = relay::add(y, relay::concatenate({b1, b2, b3}, -1));
  auto expected = relay::function(
      {x, w1, w2, w3, b1, b2, b3},
      relay::tuple({Slice(y, {0, 0, 0}, {-1, -1, j}), Slice(y, {0, 0, j}, {-1, -1, j}),
                    Slice(y, {0, 0, 2 * j}, {-1, -1, j})}));
  EXPECT_EQ(Combined(CombineParallelBatchMatmul(2), before), Print(Typed(expected)));
}

// The evaluator runs the combined graphs (stack, batch_matmul, split, strided_slice, concatenate)
// and they compute what the branches computed.
void ExpectSameResults(const transform::Pass& pass, const ir::Function& before) {
  ir::IRModule mod = Typed(before);
  ir::IRModule after = pass(mod);
  ASSERT_NE(Print(after), Print(mod)) << "nothing was combined";
  std::vector<ir::NDArray> inputs;
  for (const eval::Value& v : eval::RandomInputs(mod.Lookup("main"), 7)) {
    inputs.push_back(v.tensor());
  }
  std::vector<ir::NDArray> expected = eval::RunMain(mod, inputs);
  std::vector<ir::NDArray> actual = eval::RunMain(after, inputs);
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    eval::CloseResult close = eval::AllClose(actual[i], expected[i], eval::Tolerance{1e-4, 1e-5});
    EXPECT_TRUE(close.ok) << i << ": " << close.message;
  }
}

TEST(CombineParallel, CombinedGraphsEvaluateToTheSameResults) {
  auto x = relay::var("x", {2, 4, 6, 6});
  std::vector<ir::Var> params{x};
  std::vector<Expr> outs;
  for (int64_t ch : {3, 5, 4}) {
    auto w = relay::var("w" + std::to_string(ch), {ch, 4, 3, 3});
    auto s = relay::var("s" + std::to_string(ch), {ch, 1, 1});
    params.insert(params.end(), {w, s});
    outs.push_back(relay::nn::relu(relay::add(relay::nn::conv2d(x, w, {.padding = {1}}), s)));
  }
  ExpectSameResults(CombineParallelConv2D(), relay::function(params, relay::tuple(outs)));

  auto d = relay::var("d", {3, 8});
  std::vector<ir::Var> dense_params{d};
  std::vector<Expr> dense_outs;
  for (int i = 0; i < 3; ++i) {
    auto w = relay::var("w" + std::to_string(i), {5, 8});
    auto b = relay::var("b" + std::to_string(i), {5});
    dense_params.insert(dense_params.end(), {w, b});
    dense_outs.push_back(relay::add(relay::nn::dense(d, w), b));
  }
  ir::Function dense = relay::function(dense_params, relay::tuple(dense_outs));
  ExpectSameResults(CombineParallelDense(), dense);
  ExpectSameResults(CombineParallelDense(3, false), dense);

  auto a = relay::var("a", {2, 3, 4});
  std::vector<ir::Var> bmm_params{a};
  std::vector<Expr> bmm_outs;
  for (int i = 0; i < 3; ++i) {
    auto w = relay::var("w" + std::to_string(i), {2, 5 + i, 4});
    bmm_params.push_back(w);
    bmm_outs.push_back(relay::nn::batch_matmul(a, w));
  }
  ExpectSameResults(CombineParallelBatchMatmul(),
                    relay::function(bmm_params, relay::tuple(bmm_outs)));
}

TEST(CombineParallel, RegisteredWithTvmsOptions) {
  const auto& registry = transform::PassRegistry::Global();
  for (const char* name :
       {"CombineParallelConv2D", "CombineParallelDense", "CombineParallelBatchMatmul"}) {
    const transform::PassRegistration* reg = registry.Find(name);
    ASSERT_NE(reg, nullptr) << name;
    EXPECT_EQ(reg->options[0].name, "min_num_branches");
    EXPECT_EQ(registry.Create(name).info().opt_level, 4);
  }
  EXPECT_EQ(registry.Find("CombineParallelDense")->options[1].name, "to_batch");
}

}  // namespace
}  // namespace relaypass::passes
