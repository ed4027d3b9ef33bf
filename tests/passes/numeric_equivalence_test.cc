// Every pass keeps the program's meaning: the evaluator runs `main` on seeded random inputs
// before and after the pass and the outputs must agree (eval::AllClose). Inputs: the tutorial's
// example with a random (not zero) constant, seeded random DAGs of elementwise/broadcast/conv
// ops with shared nodes, and the resnet/mobilenet workloads with bound parameters.
#include <gtest/gtest.h>

#include <functional>
#include <random>

#include "relaypass/eval/allclose.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/eval/random.h"
#include "relaypass/ir/bind.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/passes/canonicalize_ops.h"
#include "relaypass/passes/combine_parallel.h"
#include "relaypass/passes/convert_layout.h"
#include "relaypass/passes/dead_code.h"
#include "relaypass/passes/eliminate_common_subexpr.h"
#include "relaypass/passes/fast_math.h"
#include "relaypass/passes/fold_constant.h"
#include "relaypass/passes/fold_scale_axis.h"
#include "relaypass/passes/fuse_ops.h"
#include "relaypass/passes/simplify_inference.h"
#include "relaypass/passes/to_a_normal_form.h"
#include "relaypass/relay.h"
#include "relaypass/text/parser.h"
#include "relaypass/transform.h"
#include "relaypass/workloads/workloads.h"

namespace relaypass::passes {
namespace {

using namespace relay;  // NOLINT: reads like the tutorials

struct NamedPass {
  std::string name;
  std::function<transform::Pass()> make;
};

std::vector<NamedPass> AllPasses() {
  return {
      {"FoldConstant", [] { return FoldConstant(); }},
      {"EliminateCommonSubexpr", [] { return EliminateCommonSubexpr(); }},
      {"FuseOps0", [] { return FuseOps(0); }},
      {"FuseOps2", [] { return FuseOps(2); }},
      {"FuseOps3", [] { return FuseOps(3); }},
      {"ToANormalForm", [] { return ToANormalForm(); }},
      {"DeadCodeElimination", [] { return DeadCodeElimination(/*inline_once=*/true); }},
      {"SimplifyInference", [] { return SimplifyInference(); }},
      {"CanonicalizeOps", [] { return CanonicalizeOps(); }},
      {"FoldScaleAxis", [] { return FoldScaleAxis(); }},
      {"CombineParallelConv2D2", [] { return CombineParallelConv2D(2); }},
      {"FastMath", [] { return FastMath(); }},
      {"ConvertLayoutNHWC",
       [] {
         return ConvertLayout({{"nn.conv2d", {"NHWC", "default"}}});
       }},
  };
}

std::vector<ir::NDArray> Run(const IRModule& mod, uint64_t seed) {
  std::vector<ir::NDArray> inputs;
  for (const eval::Value& v : eval::RandomInputs(mod.Lookup("main"), seed)) {
    inputs.push_back(v.tensor());
  }
  return eval::RunMain(mod, inputs);
}

// Applies `pass` under opt_level 3 (so level-3 passes do their work) and compares results.
void ExpectPassKeepsResults(const IRModule& typed, const NamedPass& pass, uint64_t seed) {
  SCOPED_TRACE(pass.name);
  IRModule after;
  {
    transform::PassContextScope scope(transform::PassContext({.opt_level = 3}));
    after = pass.make()(typed);
  }
  std::vector<ir::NDArray> expected = Run(typed, seed);
  std::vector<ir::NDArray> actual = Run(after, seed);
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    eval::CloseResult close = eval::AllClose(actual[i], expected[i], eval::Tolerance{1e-4, 1e-5});
    EXPECT_TRUE(close.ok) << close.message;
  }
}

// The tutorial's example() with a random constant instead of zeros.
IRModule RandomExample(uint64_t seed) {
  Constant c = const_(eval::RandomTensor({1, 64, 54, 54}, ir::DataType::Float32(), seed));
  Var weight = var("weight", {64, 64, 3, 3});
  Var x = var("x", {1, 64, 56, 56});
  Expr y = add(nn::conv2d(x, weight), multiply(add(c, c), const_(2.0f)));
  Expr z2 = add(add(y, c), add(y, c));
  return ir::InferTypes(IRModule::FromExpr(function({x, weight}, z2)));
}

// A random DAG over an (1, 8, 6, 6) input: each new node applies a random op to earlier nodes
// (so nodes are shared), with random constants for the second operands and conv weights.
IRModule RandomGraph(uint64_t seed, int num_ops) {
  std::mt19937 rng(static_cast<uint32_t>(seed));
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint32_t>(n)); };
  auto tensor = [&](const ir::Shape& shape) {
    return const_(eval::RandomTensor(shape, ir::DataType::Float32(), rng()));
  };
  Var x = var("x", {1, 8, 6, 6});
  std::vector<Expr> nodes = {x};
  for (int i = 0; i < num_ops; ++i) {
    Expr a = nodes[pick(static_cast<int>(nodes.size()))];
    Expr b = nodes[pick(static_cast<int>(nodes.size()))];
    switch (pick(8)) {
      case 0:
        nodes.push_back(add(a, b));
        break;
      case 1:
        nodes.push_back(multiply(a, tensor({8, 1, 1})));
        break;
      case 2:
        nodes.push_back(nn::relu(a));
        break;
      case 3:
        nodes.push_back(subtract(a, multiply(tensor({}), b)));
        break;
      case 4:
        nodes.push_back(nn::conv2d(a, tensor({8, 8, 3, 3}), {.padding = {1}}));
        break;
      case 5:
        nodes.push_back(nn::bias_add(a, tensor({8})));
        break;
      case 6:
        nodes.push_back(add(multiply(tensor({8, 1, 1}), tensor({8, 1, 1})), a));
        break;
      default:
        nodes.push_back(get_item(tuple({a, b}), 1));
        break;
    }
  }
  Expr out = tuple({nodes.back(), nodes[nodes.size() / 2]});
  return ir::InferTypes(IRModule::FromExpr(function({x}, out)));
}

TEST(NumericEquivalenceTest, TutorialExampleWithRandomConstant) {
  IRModule mod = RandomExample(3);
  for (const NamedPass& pass : AllPasses()) ExpectPassKeepsResults(mod, pass, 11);
}

TEST(NumericEquivalenceTest, RandomGraphs) {
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    SCOPED_TRACE("graph seed " + std::to_string(seed));
    IRModule mod = RandomGraph(seed, 24);
    for (const NamedPass& pass : AllPasses()) ExpectPassKeepsResults(mod, pass, seed);
  }
}

// Lets, ifs, a closure over an outer node, tuples, batch_norm's tuple result and an already
// primitive function: the graph shapes where passes must leave some edges alone. The variance is
// exp(%v), positive: a random one is negative in places, and the NaN it gives compares with
// nothing.
TEST(NumericEquivalenceTest, ControlFlowClosuresAndPrimitiveFunctions) {
  IRModule mod = ir::InferTypes(text::ParseModule(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 16), float32], %c: bool, %g: Tensor[(48), float32],
          %b: Tensor[(48), float32], %m: Tensor[(48), float32], %v: Tensor[(48), float32]) {
  %0 = add(%x, 1f);
  let %a = exp(%0);
  %1 = if (%c) {
    %2 = multiply(%a, %a);
    nn.relu(%2)
  } else {
    %3 = subtract(%a, 2f);
    tanh(%3)
  };
  %4 = fn (%y: Tensor[(1, 16), float32]) {
    %5 = add(%y, %0);
    sigmoid(%5)
  };
  %6 = %4(%1);
  %7 = fn (%p0: Tensor[(1, 16), float32], Primitive=1) {
    %8 = multiply(%p0, 3f);
    negative(%8)
  };
  %9 = %7(%6);
  %10 = (%9, %a, %1);
  %11 = concatenate(%10, axis=1);
  %12 = nn.batch_norm(%11, %g, %b, %m, exp(%v));
  %13 = %12.0;
  %14 = add(%13, 1f);
  %15 = reshape(%14, newshape=[3, 16]);
  %16 = (%13, %14);
  (%16, %12.1, %15)
}
)"));
  for (uint64_t seed : {1, 2}) {
    for (const NamedPass& pass : AllPasses()) ExpectPassKeepsResults(mod, pass, seed);
  }
}

class WorkloadEquivalenceTest : public testing::TestWithParam<std::string> {};

TEST_P(WorkloadEquivalenceTest, InferencePassesKeepResults) {
  workloads::Workload w = workloads::GetWorkload(GetParam());
  IRModule mod = w.mod;
  mod.Add("main", ir::BindParamsByName(mod.Lookup("main"), w.params));
  mod = ir::InferTypes(mod);
  for (const NamedPass& pass : AllPasses()) ExpectPassKeepsResults(mod, pass, 5);
}

INSTANTIATE_TEST_SUITE_P(Workloads, WorkloadEquivalenceTest,
                         testing::Values("resnet-18", "resnet-50", "mobilenet"),
                         [](const testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace relaypass::passes
