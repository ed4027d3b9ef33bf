// nn.conv2d with a fused elementwise epilogue (op::Conv2DWithEpilogue) and the interpreter's use of
// it for FuseOps' primitive functions (src/eval/fused_conv.h). The expected values are the
// reference op-by-op path: each op of the chain evaluated by its own kernel; the fused results
// must be bitwise equal to it (the same float operations in the same order).
#include <cstring>
#include <limits>

#include "../../src/eval/fused_conv.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/op/conv2d_epilogue.h"
#include "relaypass/passes/fuse_ops.h"
#include "relaypass/support/parallel.h"
#include "relaypass/transform/infer_type.h"
#include "test_util.h"

namespace relaypass::eval {
namespace {

using namespace testing;  // NOLINT
using Kind = op::EpilogueStep::Kind;
using relay::nn::Conv2DArgs;

void ExpectBitwiseEqual(const NDArray& got, const NDArray& expected) {
  ASSERT_EQ(got.shape(), expected.shape());
  ASSERT_EQ(got.dtype(), expected.dtype());
  EXPECT_EQ(std::memcmp(got.raw_data(), expected.raw_data(), got.nbytes()), 0);
}

op::EpilogueStep Step(Kind kind, NDArray operand = NDArray(), float lo = 0, float hi = 0) {
  op::EpilogueStep step;
  step.kind = kind;
  step.operand = std::move(operand);
  step.lo = lo;
  step.hi = hi;
  return step;
}

struct Case {
  Shape data, weight;
  Conv2DArgs args;
  const char* what;
};

// The kernel paths: GEMM without im2col (1x1), im2col + GEMM, depthwise stride 1 and 2, a
// depthwise multiplier, a batch of 2, grouped.
const Case kCases[] = {
    {{1, 16, 9, 7}, {24, 16, 1, 1}, {}, "pointwise"},
    {{2, 3, 10, 10}, {8, 3, 3, 3}, {.strides = {2, 2}, .padding = {1, 1}}, "3x3 stride 2, batch 2"},
    {{1, 8, 11, 13}, {8, 1, 3, 3}, {.padding = {1, 1}, .groups = 8}, "depthwise stride 1"},
    {{1, 8, 12, 9},
     {8, 1, 3, 3},
     {.strides = {2, 2}, .padding = {1, 1}, .groups = 8},
     "depthwise stride 2"},
    {{1, 4, 6, 5}, {4, 2, 3, 3}, {.padding = {1, 1}, .groups = 4}, "depthwise multiplier 2"},
    {{1, 6, 7, 7}, {4, 3, 3, 3}, {.padding = {1, 1}, .groups = 2}, "grouped"},
};

// conv2d, bias_add, add of a residual, clip(0, 6): the kernel against the ops one by one.
TEST(FusedConvTest, KernelMatchesOpByOp) {
  uint64_t seed = 10;
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.what);
    const NDArray x = Random(c.data, seed++), w = Random(c.weight, seed++);
    const NDArray conv = EvalOp(relay::nn::conv2d(C(x), C(w), c.args));
    const int64_t channels = conv.shape()[1];
    const NDArray bias = Random({channels}, seed++);
    const NDArray per_channel = Random({channels, 1, 1}, seed++);
    const NDArray residual = Random(conv.shape(), seed++);
    const NDArray biased = EvalOp(relay::nn::bias_add(C(conv), C(bias)));
    const NDArray added = EvalOp(relay::add(C(residual), C(biased)));
    const NDArray shifted = EvalOp(relay::add(C(added), C(per_channel)));
    const NDArray clipped = EvalOp(relay::clip(C(shifted), 0.0, 0.5));
    const NDArray expected = EvalOp(relay::nn::relu(C(clipped)));

    ir::Call call = relay::nn::conv2d(C(x), C(w), c.args).downcast<ir::CallNode>();
    const std::vector<op::EpilogueStep> steps = {
        Step(Kind::kAddChannel, bias), Step(Kind::kAddTensor, residual),
        Step(Kind::kAddChannel, per_channel), Step(Kind::kClip, NDArray(), 0.0f, 0.5f),
        Step(Kind::kRelu)};
    ExpectBitwiseEqual(op::Conv2DWithEpilogue({x, w}, call->attrs, steps), expected);
    ExpectBitwiseEqual(op::Conv2DWithEpilogue({x, w}, call->attrs, {}), conv);
    {  // Two threads: the same bits.
      support::SetNumThreads(2);
      const NDArray two = op::Conv2DWithEpilogue({x, w}, call->attrs, steps);
      support::SetNumThreads(1);
      ExpectBitwiseEqual(two, expected);
    }
  }
}

// The chains the epilogue runs in one loop (a per-channel add, then optionally a residual add,
// then optionally relu or clip), with NaN, infinities and values at the clip bounds in the
// residual: each against the ops one by one, on every kernel path.
TEST(FusedConvTest, SingleLoopChainsMatchOpByOp) {
  uint64_t seed = 300;
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.what);
    const NDArray x = Random(c.data, seed++), w = Random(c.weight, seed++);
    const NDArray conv = EvalOp(relay::nn::conv2d(C(x), C(w), c.args));
    const NDArray bias = Random({conv.shape()[1]}, seed++);
    NDArray residual = Random(conv.shape(), seed++);
    float* r = residual.mutable_data<float>();
    r[0] = std::numeric_limits<float>::quiet_NaN();
    r[1] = std::numeric_limits<float>::infinity();
    r[2] = -std::numeric_limits<float>::infinity();
    const NDArray biased = EvalOp(relay::nn::bias_add(C(conv), C(bias)));
    const NDArray added = EvalOp(relay::add(C(biased), C(residual)));
    ir::Call call = relay::nn::conv2d(C(x), C(w), c.args).downcast<ir::CallNode>();
    for (bool tensor : {false, true}) {
      const NDArray base = tensor ? added : biased;
      std::vector<op::EpilogueStep> steps = {Step(Kind::kAddChannel, bias)};
      if (tensor) steps.push_back(Step(Kind::kAddTensor, residual));
      ExpectBitwiseEqual(op::Conv2DWithEpilogue({x, w}, call->attrs, steps), base);
      std::vector<op::EpilogueStep> relu = steps, clip = steps;
      relu.push_back(Step(Kind::kRelu));
      clip.push_back(Step(Kind::kClip, NDArray(), -0.25f, 0.5f));
      ExpectBitwiseEqual(op::Conv2DWithEpilogue({x, w}, call->attrs, relu),
                         EvalOp(relay::nn::relu(C(base))));
      ExpectBitwiseEqual(op::Conv2DWithEpilogue({x, w}, call->attrs, clip),
                         EvalOp(relay::clip(C(base), -0.25, 0.5)));
    }
  }
}

TEST(FusedConvTest, KernelRejectsMismatchedOperands) {
  const NDArray x = Random({1, 2, 4, 4}, 1), w = Random({3, 2, 1, 1}, 2);
  ir::Call call = relay::nn::conv2d(C(x), C(w)).downcast<ir::CallNode>();
  // 3 output channels of 4x4.
  EXPECT_THROW(
      op::Conv2DWithEpilogue({x, w}, call->attrs, {Step(Kind::kAddChannel, Random({2}, 3))}),
      Error);
  EXPECT_THROW(op::Conv2DWithEpilogue({x, w}, call->attrs,
                                      {Step(Kind::kAddTensor, Random({1, 3, 4, 3}, 3))}),
               Error);
}

// `body` over the parameters as a module, typed; with FuseOps if `fuse`.
ir::IRModule Module(const std::vector<ir::Var>& params, const ir::Expr& body, bool fuse) {
  ir::IRModule mod;
  mod.Add("main", relay::function(params, body));
  mod = transform::InferType()(mod);
  if (fuse) mod = passes::FuseOps(2)(mod);
  return mod;
}

// The primitive functions FuseOps made in main (the callees of main's calls).
std::vector<const ir::FunctionNode*> PrimitiveFunctions(const ir::IRModule& mod) {
  std::vector<const ir::FunctionNode*> out;
  ir::post_order_visit(mod.Lookup("main")->body, [&](const ir::Expr& e) {
    const auto* f = e.as<ir::FunctionNode>();
    if (f && f->is_primitive()) out.push_back(f);
  });
  return out;
}

TEST(FusedConvTest, InterpreterRunsFuseOpsGroupsFusedAndBitwiseEqual) {
  // MobileNet v2's block tail as the ONNX importer writes it: conv, bias_add, a residual add;
  // then its head: conv, bias_add, clip(0, 6); and a 1x1 conv with a [C, 1, 1] add and relu.
  const NDArray w1 = Random({8, 8, 1, 1}, 1), b1 = Random({8}, 2);
  const NDArray w2 = Random({8, 1, 3, 3}, 3), b2 = Random({8}, 4);
  const NDArray w3 = Random({4, 8, 1, 1}, 5), s3 = Random({4, 1, 1}, 6);
  ir::Var x = relay::var("x", {1, 8, 10, 10});
  ir::Expr y = relay::add(relay::nn::bias_add(relay::nn::conv2d(x, C(w1)), C(b1)), x);
  y = relay::clip(
      relay::nn::bias_add(
          relay::nn::conv2d(y, C(w2), {.strides = {2, 2}, .padding = {1, 1}, .groups = 8}), C(b2)),
      0.0, 6.0);
  y = relay::nn::relu(relay::add(relay::nn::conv2d(y, C(w3)), C(s3)));
  const ir::IRModule fused = Module({x}, y, true);
  const std::vector<const ir::FunctionNode*> groups = PrimitiveFunctions(fused);
  ASSERT_EQ(groups.size(), 3u);
  for (const ir::FunctionNode* g : groups) {
    std::unique_ptr<FusedConv> match = MatchFusedConv(g);
    ASSERT_NE(match, nullptr);
    EXPECT_EQ(match->steps.size(), 2u);
  }
  const std::vector<Value> input = {Value(Random({1, 8, 10, 10}, 7))};
  Interpreter fused_interp(fused), reference(Module({x}, y, false));
  ExpectBitwiseEqual(fused_interp.RunMain(input).tensor(), reference.RunMain(input).tensor());
  EXPECT_EQ(fused_interp.stats().op_calls, reference.stats().op_calls);
  EXPECT_EQ(fused_interp.stats().fused_conv_calls, 3u);
  EXPECT_EQ(reference.stats().fused_conv_calls, 0u);
}

TEST(FusedConvTest, OtherGroupsAreNotMatchedAndStillCorrect) {
  const NDArray w = Random({4, 3, 3, 3}, 1), m = Random({4, 1, 1}, 2), b = Random({4}, 3);
  ir::Var x = relay::var("x", {1, 3, 6, 6});
  // A multiply is not an epilogue step; a bias along W (a [W] add) is not per channel.
  const ir::Expr scaled = relay::multiply(relay::nn::conv2d(x, C(w)), C(m));
  const ir::Expr along_w = relay::add(relay::nn::conv2d(x, C(w)), C(b));
  for (const ir::Expr& body : {scaled, along_w}) {
    const ir::IRModule fused = Module({x}, body, true);
    for (const ir::FunctionNode* g : PrimitiveFunctions(fused)) {
      EXPECT_EQ(MatchFusedConv(g), nullptr);
    }
    const std::vector<Value> input = {Value(Random({1, 3, 6, 6}, 4))};
    Interpreter a(fused), ref(Module({x}, body, false));
    ExpectBitwiseEqual(a.RunMain(input).tensor(), ref.RunMain(input).tensor());
  }
}

}  // namespace
}  // namespace relaypass::eval
