// Depth (issue 9): every registered pass, the printer, the parser, the evaluator and node
// destruction on a 1,000,000-node chain and a 100,000-deep let nest, on the default stack.
//
// Already covered elsewhere, and not repeated here: the chain through type inference, printing,
// parsing, hashing, equality and destruction (tests/conformance/million_node_chain_test.cc), the
// results of CSE, FuseOps, ANF and DCE on it (tests/passes/million_node_chain_test.cc), the
// layout passes (tests/layout/deep_chain_test.cc), FoldScaleAxis (tests/fold_scale_axis/
// chain_test.cc), and the evaluator on the chain and a 200,000-deep let chain
// (tests/eval/interpreter_test.cc). What is new: *every* registered pass, whatever lands in the
// registry, on both shapes, with the evaluator run on each pass's output and checked against the
// known answer; and the let nest through the printer and the parser.
//
// Sizes scale with RELAYPASS_DEPTH_SCALE (tests/depth_scale.h); the sanitizer builds use 0.1.
#include <gtest/gtest.h>
#include <pthread.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "../depth_scale.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/ir/structural.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/relay.h"
#include "relaypass/text/parser.h"
#include "relaypass/text/printer.h"
#include "relaypass/transform/pass_context.h"
#include "relaypass/workloads/workloads.h"
#include "reliability_util.h"

namespace relaypass::reliability {
namespace {

using relaypass::testing::ScaledDepth;

// x: (1, 16) through `n` ops alternating add(y, 1f) and relu, as a let nest:
// let %v0 = add(%x, 1f); let %v1 = nn.relu(%v0); ... ; %v{n-1}.
ir::Function LetNest(int64_t n) {
  relay::Var x = relay::var("x", {1, 16});
  std::vector<relay::Var> vars;
  vars.reserve(n);
  for (int64_t i = 0; i < n; ++i) vars.push_back(relay::var("v" + std::to_string(i)));
  relay::Expr body = vars.back();
  for (int64_t i = n - 1; i >= 0; --i) {
    relay::Expr prev = i == 0 ? relay::Expr(x) : relay::Expr(vars[i - 1]);
    relay::Expr value = i % 2 == 0 ? relay::add(prev, relay::const_(1.0f)) : relay::nn::relu(prev);
    body = ir::MakeLet(vars[i], value, body);
  }
  return relay::function({x}, body);
}

// What both shapes compute on input x: n/2 rounds of relu(y + 1).
std::vector<float> Expected(const std::vector<float>& x, int64_t n) {
  std::vector<float> y = x;
  for (int64_t i = 0; i < n; ++i) {
    for (float& v : y) v = i % 2 == 0 ? v + 1.0f : std::max(v, 0.0f);
  }
  return y;
}

ir::NDArray Input() {
  ir::NDArray x = ir::NDArray::Empty({1, 16}, ir::DataType::Float32());
  for (int i = 0; i < 16; ++i) x.mutable_data<float>()[i] = static_cast<float>(i - 8) * 0.75f;
  return x;
}

// Runs `fn` on a new thread with a 512 KiB stack and waits for it.
void RunOnSmallStack(const std::function<void()>& fn) {
  pthread_attr_t attr;
  ASSERT_EQ(pthread_attr_init(&attr), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attr, size_t{512} << 10), 0);
  pthread_t thread;
  auto body = [](void* arg) -> void* {
    (*static_cast<const std::function<void()>*>(arg))();
    return nullptr;
  };
  ASSERT_EQ(pthread_create(&thread, &attr, body, const_cast<std::function<void()>*>(&fn)), 0);
  pthread_attr_destroy(&attr);
  pthread_join(thread, nullptr);
}

class DepthTest : public ::testing::Test {
 protected:
  // Made on first use and kept for the rest of the suite (ctest runs each test in a process of
  // its own, so a test that needs only the let nest never builds the chain): typing a
  // million-node chain is the slow part.
  static const ir::IRModule& TypedChain() {
    if (!chain_) {
      chain_ =
          new ir::IRModule(ir::InferTypes(ir::IRModule::FromExpr(workloads::Chain(ChainLength()))));
    }
    return *chain_;
  }
  static const ir::IRModule& TypedNest() {
    if (!nest_) {
      nest_ = new ir::IRModule(ir::InferTypes(ir::IRModule::FromExpr(LetNest(NestLength()))));
    }
    return *nest_;
  }
  static int64_t ChainLength() { return ScaledDepth(1000000); }
  static int64_t NestLength() { return ScaledDepth(100000); }

  static void TearDownTestSuite() {
    delete chain_;  // iterative destruction of both graphs
    delete nest_;
    chain_ = nest_ = nullptr;
  }

  // Runs every registered pass on `mod`, evaluates each result on Input() and compares it with
  // the known answer, then drops it (destruction of each pass's output).
  static void EveryPassThenEvaluate(const ir::IRModule& mod, int64_t n, const std::string& what) {
    const ir::NDArray x = Input();
    const std::vector<float> expected =
        Expected(std::vector<float>(x.data<float>(), x.data<float>() + 16), n);
    transform::PassContext ctx({.opt_level = 3});
    for (const NamedPass& p : AllRegisteredPasses()) {
      SCOPED_TRACE(p.name + " on " + what);
      const auto start = std::chrono::steady_clock::now();
      ir::IRModule out;
      if (p.name == "PrintIR") {
        // Prints the whole graph to stderr: keep it out of the test log.
        ::testing::internal::CaptureStderr();
        out = p.pass(mod, ctx);
        EXPECT_GT(::testing::internal::GetCapturedStderr().size(), static_cast<size_t>(n));
      } else {
        out = p.pass(mod, ctx);
      }
      std::vector<ir::NDArray> result = eval::RunMain(out, {x});
      ASSERT_EQ(result.size(), 1u);
      ASSERT_EQ(result[0].shape(), (ir::Shape{1, 16}));
      if (p.name == "ToMixedPrecision") {
        // float16 by design: a million additions overflow its range. Depth is what is tested.
        EXPECT_EQ(result[0].dtype(), ir::DataType::Float(16));
      } else {
        for (int i = 0; i < 16; ++i) EXPECT_EQ(result[0].data<float>()[i], expected[i]) << i;
      }
      out = ir::IRModule();
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::printf("  %-24s %8.2f s\n", p.name.c_str(), seconds);
    }
  }

  static ir::IRModule* chain_;
  static ir::IRModule* nest_;
};

ir::IRModule* DepthTest::chain_ = nullptr;
ir::IRModule* DepthTest::nest_ = nullptr;

TEST_F(DepthTest, EveryRegisteredPassAndTheEvaluatorOnAMillionNodeChain) {
  EveryPassThenEvaluate(TypedChain(), ChainLength(), std::to_string(ChainLength()) + "-node chain");
}

TEST_F(DepthTest, EveryRegisteredPassAndTheEvaluatorOnADeepLetNest) {
  EveryPassThenEvaluate(TypedNest(), NestLength(), std::to_string(NestLength()) + "-deep let nest");
}

TEST_F(DepthTest, LetNestPrintsParsesHashesAndCompares) {
  const std::string text = text::PrettyPrint(TypedNest());
  const std::string last =
      "let %v" + std::to_string(NestLength() - 1) + ": Tensor[(1, 16), float32]";
  EXPECT_NE(text.find(last), std::string::npos);
  ir::IRModule parsed = text::ParseModule(text);
  EXPECT_TRUE(ir::StructuralEqual(parsed, TypedNest()));
  EXPECT_EQ(ir::StructuralHash(parsed), ir::StructuralHash(TypedNest()));
  EXPECT_TRUE(text::PrettyPrint(parsed) == text);
  // With the metadata section and the version header, as relay-opt --emit=astext writes it.
  ir::IRModule from_astext = text::ParseModule(text::AsText(TypedNest()));
  EXPECT_TRUE(ir::StructuralEqual(from_astext, TypedNest()));
}

TEST_F(DepthTest, LetNestEvaluates) {
  eval::Interpreter interp;
  const ir::NDArray x = Input();
  eval::Value out = interp.Call(TypedNest().Lookup("main"), {x});
  const std::vector<float> expected =
      Expected(std::vector<float>(x.data<float>(), x.data<float>() + 16), NestLength());
  for (int i = 0; i < 16; ++i) EXPECT_EQ(out.tensor().data<float>()[i], expected[i]);
  EXPECT_LT(interp.stats().peak_live_values, 8u);
}

// Destruction of graphs that were never typed or shared, built and dropped in a loop: the
// release of each node queues its children instead of recursing.
TEST_F(DepthTest, DestructionOfDeepGraphsIsIterative) {
  for (int round = 0; round < 2; ++round) {
    ir::Function chain = workloads::Chain(ChainLength());
    ir::Function nest = LetNest(NestLength());
    EXPECT_GT(ir::CountNodes(chain->body), static_cast<size_t>(ChainLength()));
    EXPECT_GT(ir::CountNodes(nest->body), static_cast<size_t>(NestLength()));
  }
  // Deep graphs dropped on a thread with a 512 KiB stack are fine too.
  ir::Function chain = workloads::Chain(ChainLength());
  ir::Function nest = LetNest(NestLength());
  RunOnSmallStack([&] {
    chain = ir::Function();
    nest = ir::Function();
  });
  EXPECT_FALSE(chain.defined());
}

}  // namespace
}  // namespace relaypass::reliability
