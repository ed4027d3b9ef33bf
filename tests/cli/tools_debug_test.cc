// The library pieces behind relay-opt's debugging options, used from C++ directly: unified
// diffs, split input, closest names, opt-bisect, the reducer.
#include <gtest/gtest.h>

#include <sstream>

#include "relaypass/ir/visitor.h"
#include "relaypass/support/closest_name.h"
#include "relaypass/support/error.h"
#include "relaypass/text/parser.h"
#include "relaypass/text/printer.h"
#include "relaypass/tools/module_stats.h"
#include "relaypass/tools/opt_bisect.h"
#include "relaypass/tools/reducer.h"
#include "relaypass/tools/split_input.h"
#include "relaypass/tools/text_diff.h"
#include "relaypass/transform.h"

namespace relaypass::tools {
namespace {

TEST(UnifiedDiffTest, HunksWithContextAsDiffU) {
  EXPECT_EQ(UnifiedDiff("a\nb\nc\n", "a\nb\nc\n", "x", "y"), "");
  EXPECT_EQ(UnifiedDiff("a\nb\nc\nd\ne\nf\ng\nh\n", "a\nb\nc\nD\ne\nf\ng\nh\n", "old", "new"),
            "--- old\n+++ new\n@@ -1,7 +1,7 @@\n a\n b\n c\n-d\n+D\n e\n f\n g\n");
  // Insertions and deletions; an empty old side names the line before it.
  EXPECT_EQ(UnifiedDiff("", "x\n", "a", "b"), "--- a\n+++ b\n@@ -0,0 +1,1 @@\n+x\n");
  EXPECT_EQ(UnifiedDiff("x\ny\n", "y\n", "a", "b"), "--- a\n+++ b\n@@ -1,2 +1,1 @@\n-x\n y\n");
  // Two changes far apart are two hunks.
  std::string before;
  for (int i = 0; i < 20; ++i) before += std::to_string(i) + "\n";
  std::string after = before;
  after.replace(after.find("2\n"), 2, "two\n");
  after.replace(after.find("17\n"), 3, "seventeen\n");
  const std::string diff = UnifiedDiff(before, after, "a", "b");
  EXPECT_NE(diff.find("@@ -1,6 +1,6 @@\n 0\n 1\n-2\n+two\n 3\n 4\n 5\n"), std::string::npos)
      << diff;
  EXPECT_NE(diff.find("@@ -15,6 +15,6 @@\n 14\n 15\n 16\n-17\n+seventeen\n 18\n 19\n"),
            std::string::npos)
      << diff;
  // Past the edit bound the middle is one replacement: still a correct diff.
  const std::string bounded = UnifiedDiff("1\n2\n3\n", "4\n5\n6\n", "a", "b", {.max_edits = 1});
  EXPECT_EQ(bounded, "--- a\n+++ b\n@@ -1,3 +1,3 @@\n-1\n-2\n-3\n+4\n+5\n+6\n");
}

TEST(SplitInputTest, ChunksKeepTheirLineNumbers) {
  const std::vector<InputChunk> chunks = SplitInputFile("a\n// -----\nb\nc\n// -----  \r\nd");
  ASSERT_EQ(chunks.size(), 3u);
  EXPECT_EQ(chunks[0].text, "a\n");
  EXPECT_EQ(chunks[1].text, "\n\nb\nc\n");
  EXPECT_EQ(chunks[1].first_line, 3);
  EXPECT_EQ(chunks[2].text, "\n\n\n\n\nd");
  EXPECT_EQ(SplitInputFile("no separators\n").size(), 1u);
  EXPECT_EQ(SplitInputFile("// ------\n").size(), 1u) << "only the exact marker splits";
}

TEST(ClosestNameTest, SuggestsANearOption) {
  EXPECT_EQ(support::ClosestName("--print-changd", {"--print-changed", "--print-ir-after"}),
            "--print-changed");
  EXPECT_EQ(support::ClosestName("--frobnicate", {"--print-changed"}), "");
}

ir::IRModule Example() {
  return text::ParseModule(
      "def @unused(%a: Tensor[(2), float32]) { negative(%a) }\n"
      "def @main(%x: Tensor[(2), float32], %y: Tensor[(2), float32]) {\n"
      "  %0 = add(%x, %y);\n"
      "  %1 = exp(%0);\n"
      "  %2 = nn.relu(%1);\n"
      "  multiply(%2, %2)\n"
      "}\n");
}

bool CallsOp(const ir::IRModule& mod, const std::string& name) {
  bool found = false;
  for (const auto& [gv, func] : mod.functions()) {
    ir::post_order_visit(func, [&](const ir::Expr& e) {
      if (e->kind == ir::ExprKind::kOp && e.downcast<ir::OpNode>()->name == name) found = true;
    });
  }
  return found;
}

TEST(ReducerTest, ShrinksToWhatTheCheckNeeds) {
  std::vector<std::string> log;
  const ReduceResult result = ReduceModule(
      Example(), [](const ir::IRModule& mod) { return CallsOp(mod, "exp"); },
      {.max_checks = 100, .log = [&](const std::string& note) { log.push_back(note); }});
  EXPECT_EQ(text::PrettyPrint(result.module),
            "def @main(%reduced3: Tensor[(2), float32] /* ty=Tensor[(2), float32] */) -> "
            "Tensor[(2), float32] {\n"
            "  exp(%reduced3) /* ty=Tensor[(2), float32] */\n"
            "}\n");
  EXPECT_EQ(log.front(), "dropped function @unused");
  EXPECT_LT(result.nodes_after, result.nodes_before);
  EXPECT_FALSE(result.budget_exhausted);
  // Bounded: with one check it stops there.
  const ReduceResult one =
      ReduceModule(Example(), [](const ir::IRModule&) { return true; }, {.max_checks = 1});
  EXPECT_EQ(one.checks, 1);
  EXPECT_TRUE(one.budget_exhausted);
}

TEST(OptBisectTest, NumbersPassesAndSkipsPastTheLimit) {
  std::ostringstream out;
  auto bisect = std::make_shared<OptBisectInstrument>(
      OptBisectOptions{.limit = 1, .containers = {"sequential"}, .out = &out});
  transform::PassContextScope scope(
      transform::PassContext({.opt_level = 3, .instruments = {bisect}}));
  const ir::IRModule mod = transform::ParsePipeline("InferType,FoldConstant")(Example());
  EXPECT_EQ(out.str(),
            "BISECT: running pass (1) InferType on module\n"
            "BISECT: NOT running pass (2) FoldConstant on module\n");
  EXPECT_EQ(bisect->count(), 2);
  EXPECT_EQ(bisect->pass_name(2), "FoldConstant");
}

}  // namespace
}  // namespace relaypass::tools
