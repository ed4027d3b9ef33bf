// The pass infra tutorial's outputs, produced by relay-opt (expected texts copied from the
// tutorial into tests/data/cli/). Each test turns on once the passes it needs are registered.
#include "cli_test_util.h"

namespace relay_opt::testing {
namespace {

constexpr const char* kTutorialPipeline =
    "--pipeline=FoldConstant,EliminateCommonSubexpr,FuseOps(fuse_opt_level=2)";

void ExpectTutorialText(const ToolResult& r, const std::string& expected_file) {
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(TrimRight(r.out), TrimRight(TestData(expected_file)));
}

TEST(CliTutorialTest, FoldConstant) {
  SKIP_UNLESS_REGISTERED("FoldConstant");
  ExpectTutorialText(RunTool({"--workload=example", "--passes=FoldConstant"}), "fold_constant.txt");
}

TEST(CliTutorialTest, SequentialAtTheDefaultOptLevel) {
  SKIP_UNLESS_REGISTERED("FoldConstant", "EliminateCommonSubexpr", "FuseOps");
  ExpectTutorialText(RunTool({"--workload=example", kTutorialPipeline}), "sequential_o2.txt");
}

TEST(CliTutorialTest, SequentialAtO3) {
  SKIP_UNLESS_REGISTERED("FoldConstant", "EliminateCommonSubexpr", "FuseOps");
  ExpectTutorialText(RunTool({"--workload=example", kTutorialPipeline, "-O3"}),
                     "sequential_o3.txt");
}

TEST(CliTutorialTest, SequentialAtO3WithoutEliminateCommonSubexpr) {
  SKIP_UNLESS_REGISTERED("FoldConstant", "EliminateCommonSubexpr", "FuseOps");
  ExpectTutorialText(RunTool({"--workload=example", kTutorialPipeline, "-O3",
                              "--disabled-pass=EliminateCommonSubexpr"}),
                     "sequential_o3_disabled_cse.txt");
}

}  // namespace
}  // namespace relay_opt::testing
