// Input shapes that were quadratic or crashed (issue 19, class 3), at 100,000 (and 1,000,000
// where memory allows) through the parser, type inference and the evaluator, as relay-opt runs
// them: wide functions (100,000 parameters: the parser's duplicate check compared every pair),
// a 1,000,000-long tuple chain, a chain of closures each calling the one before (the evaluator
// recomputed every closure's free variables through the rest of the chain: 41 s at 10,000), and
// global functions calling each other (type inference recursed once per global: a 12,000-long
// chain overflowed the stack).
//
// Each shape must finish within a time budget that linear code meets with a wide margin on a
// loaded machine and quadratic code misses by far (the budgets and the old times are in
// docs/reliability.md). Sizes scale with RELAYPASS_DEPTH_SCALE (tests/depth_scale.h).
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "../depth_scale.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/ir/module.h"
#include "relaypass/text/parser.h"
#include "relaypass/text/printer.h"
#include "relaypass/transform/registry.h"

namespace relaypass::reliability {
namespace {

using relaypass::testing::ScaledDepth;

constexpr const char* kT = "Tensor[(1, 4), float32]";

double Seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Parses and type checks `text` (ParseModule infers types, as TVM's parser does).
ir::IRModule ParseTyped(const std::string& text) {
  return text::ParseModule(text);
}

// main's result on x = [1, 2, 3, 4], flattened.
std::vector<float> RunOnIota(const ir::IRModule& mod) {
  ir::NDArray x = ir::NDArray::Empty({1, 4}, ir::DataType::Float32());
  for (int i = 0; i < 4; ++i) x.mutable_data<float>()[i] = static_cast<float>(i + 1);
  const std::vector<ir::NDArray> out = eval::RunMain(mod, {x});
  EXPECT_EQ(out.size(), 1u);
  if (out.empty()) return {};
  const float* data = out[0].data<float>();
  return std::vector<float>(data, data + out[0].size());
}

TEST(ScalingTest, WideFunction) {
  const int64_t n = ScaledDepth(100'000);
  std::string text = "def @main(";
  for (int64_t i = 0; i < n; ++i) {
    text += (i ? ", %p" : "%p") + std::to_string(i) + ": " + kT;
  }
  text += ") {\n  add(%p0, %p" + std::to_string(n - 1) + ")\n}\n";
  const auto start = std::chrono::steady_clock::now();
  ir::IRModule mod = ParseTyped(text);
  EXPECT_EQ(mod.Lookup("main")->params.size(), static_cast<size_t>(n));
  EXPECT_LT(Seconds(start), 30.0) << n << " parameters";  // was over 100 s at 100,000
  // A duplicate among them is still found (the last one repeats the first).
  std::string dup = text;
  dup.replace(dup.find("%p" + std::to_string(n - 1) + ": "), 2 + std::to_string(n - 1).size(),
              "%p0");
  EXPECT_THROW(ParseTyped(dup), ParseError);
}

TEST(ScalingTest, TupleChain) {
  const int64_t n = ScaledDepth(1'000'000);
  std::string text = "def @main(%x: " + std::string(kT) + ") {\n  %0 = (%x,);\n";
  for (int64_t i = 1; i < n; ++i) {
    text += "  %" + std::to_string(i) + " = (%" + std::to_string(i - 1) + ",);\n";
  }
  text += "  %" + std::to_string(n - 1) + "\n}\n";
  const auto start = std::chrono::steady_clock::now();
  ir::IRModule mod = ParseTyped(text);
  EXPECT_LT(Seconds(start), 60.0) << n << " tuples";
  EXPECT_TRUE(mod.Lookup("main")->checked_type);
}

// %i = fn (%yi) { %(i-1)(%yi) }: each closure calls the one before; the last is called on x.
std::string ClosureChain(int64_t n) {
  std::string text =
      "def @main(%x: " + std::string(kT) + ") {\n  %0 = fn (%y0: " + kT + ") { add(%y0, %x) };\n";
  for (int64_t i = 1; i < n; ++i) {
    const std::string y = "%y" + std::to_string(i);
    text += "  %" + std::to_string(i) + " = fn (" + y + ": " + kT + ") { %" +
            std::to_string(i - 1) + "(" + y + ") };\n";
  }
  return text + "  %" + std::to_string(n - 1) + "(%x)\n}\n";
}

TEST(ScalingTest, ClosureChainTypeChecks) {
  const int64_t n = ScaledDepth(100'000);
  const auto start = std::chrono::steady_clock::now();
  ir::IRModule mod = ParseTyped(ClosureChain(n));
  EXPECT_LT(Seconds(start), 60.0) << n << " closures";
  EXPECT_TRUE(mod.Lookup("main")->checked_type);
}

TEST(ScalingTest, PrintingNestsNoDeeperThanTheParserReads) {
  // The printer writes each closure inside the next one's body (as TVM's does), so a chain of
  // closures nests as deep as it is long; beyond the parser's 10,000 levels it is an error, not
  // a stack overflow (100,000 crashed).
  EXPECT_THROW(text::PrettyPrint(ParseTyped(ClosureChain(100'000))), Error);
  EXPECT_THROW(text::PrettyPrint(ParseTyped(ClosureChain(10'001))), Error);
}

TEST(ScalingTest, PrintingNestedClosuresIsLinearInTheOutput) {
  // Each level used to copy the text of the levels below it: cubic, 81 s for 4,000 levels. The
  // printer now links nested text (text/rope.h): about 0.4 s for these 48 MB of output.
  const int64_t n = ScaledDepth(4'000);
  const ir::IRModule mod = ParseTyped(ClosureChain(n));
  const auto start = std::chrono::steady_clock::now();
  const std::string printed = text::PrettyPrint(mod);
  EXPECT_LT(Seconds(start), 30.0) << n << " nested closures";
  EXPECT_EQ(text::PrettyPrint(ParseTyped(printed)), printed);
}

TEST(ScalingTest, EvaluatorOnClosureChain) {
  // 50,000 nested calls (each closure calls the one before): deep, and below any call-depth
  // limit the evaluator is given. Was 41 s at 10,000.
  const int64_t n = ScaledDepth(50'000);
  ir::IRModule mod = ParseTyped(ClosureChain(n));
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(RunOnIota(mod), (std::vector<float>{2, 4, 6, 8}));  // x + x
  EXPECT_LT(Seconds(start), 60.0) << n << " closures";
}

// @fi calls @f(i-1); @f0 is x + x; main calls the last. `annotated`: full signatures.
std::string GlobalChain(int64_t n, bool annotated) {
  const std::string ret = annotated ? std::string(" -> ") + kT : "";
  std::string text = "def @f0(%x: " + std::string(kT) + ")" + ret + " {\n  add(%x, %x)\n}\n";
  for (int64_t i = 1; i < n; ++i) {
    text += "def @f" + std::to_string(i) + "(%x: " + kT + ")" + ret + " {\n  @f" +
            std::to_string(i - 1) + "(%x)\n}\n";
  }
  return text + "def @main(%x: " + kT + ") {\n  @f" + std::to_string(n - 1) + "(%x)\n}\n";
}

TEST(ScalingTest, GlobalCallChainTypeChecks) {
  const int64_t n = ScaledDepth(100'000);
  for (bool annotated : {true, false}) {
    const auto start = std::chrono::steady_clock::now();
    ir::IRModule mod = ParseTyped(GlobalChain(n, annotated));  // crashed at 12,000
    EXPECT_LT(Seconds(start), 60.0) << n << " globals";
    EXPECT_TRUE(mod.Lookup("f0")->checked_type);
  }
}

TEST(ScalingTest, GlobalCallChainDefinedInReverseOrder) {
  // Callers before callees in the text: inference still goes callee first, without recursion.
  const int64_t n = ScaledDepth(100'000);
  std::string text =
      "def @main(%x: " + std::string(kT) + ") {\n  @f" + std::to_string(n - 1) + "(%x)\n}\n";
  for (int64_t i = n - 1; i >= 1; --i) {
    text += "def @f" + std::to_string(i) + "(%x: " + kT + ") {\n  @f" + std::to_string(i - 1) +
            "(%x)\n}\n";
  }
  text += "def @f0(%x: " + std::string(kT) + ") {\n  nn.relu(%x)\n}\n";
  ir::IRModule mod = ParseTyped(text);
  EXPECT_TRUE(mod.Lookup("main")->checked_type);
}

TEST(ScalingTest, EvaluatorOnGlobalCallChain) {
  const int64_t n = ScaledDepth(50'000);
  ir::IRModule mod = ParseTyped(GlobalChain(n, true));
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(RunOnIota(mod), (std::vector<float>{2, 4, 6, 8}));
  EXPECT_LT(Seconds(start), 60.0) << n << " globals";
}

// Runs `pass` on `mod` within a time budget.
void RunPassWithin(const char* pass, const ir::IRModule& mod, const std::string& what) {
  const auto start = std::chrono::steady_clock::now();
  EXPECT_NO_THROW(transform::CreatePass(pass)(mod)) << pass << " on " << what;
  EXPECT_LT(Seconds(start), 30.0) << pass << " on " << what;
}

TEST(ScalingTest, PassesOnTheShapes) {
  // SimplifyExpr re-types each function it rewrites: a deep tuple type was compared with its
  // old self level by level at every node (O(N^2); the type solver also recursed once per
  // level and crashed at 100,000), and every callee of a global chain was inferred again for
  // each function (O(N^2)).
  const int64_t tuples = ScaledDepth(100'000);
  std::string source = "def @main(%x: " + std::string(kT) + ") {\n  %0 = (%x,);\n";
  for (int64_t i = 1; i < tuples; ++i) {
    source += "  %" + std::to_string(i) + " = (%" + std::to_string(i - 1) + ",);\n";
  }
  source += "  %" + std::to_string(tuples - 1) + "\n}\n";
  const ir::IRModule tuple_chain = ParseTyped(source);
  const ir::IRModule global_chain = ParseTyped(GlobalChain(ScaledDepth(20'000), false));
  for (const char* pass : {"SimplifyExpr", "InferType", "FuseOps", "FoldConstant"}) {
    RunPassWithin(pass, tuple_chain, "a tuple chain");
    RunPassWithin(pass, global_chain, "a global call chain");
  }
}

TEST(ScalingTest, MutuallyRecursiveGlobalsStillNeedSignatures) {
  // The walk keeps the rule of the recursive version: a function called back while it is being
  // inferred needs its full signature.
  EXPECT_THROW(ParseTyped("def @a(%x: float32) { @b(%x) }\n"
                          "def @b(%x: float32) { @a(%x) }\n"),
               TypeError);
  ir::IRModule mod = ParseTyped(
      "def @a(%x: float32) -> float32 { @b(%x) }\n"
      "def @b(%x: float32) -> float32 { @a(%x) }\n");
  EXPECT_TRUE(mod.Lookup("a")->checked_type);
}

}  // namespace
}  // namespace relaypass::reliability
