// `relay-opt FILE --emit=astext | relay-opt - --emit=astext` is a fixed point for every
// workload: what the tool writes, it reads back to the same module.
#include "cli_test_util.h"

namespace relay_opt::testing {
namespace {

class CliFixedPointTest : public ::testing::TestWithParam<const char*> {};

TEST_P(CliFixedPointTest, AstextThroughStdinIsAFixedPoint) {
  TempDir dir;
  const std::string file = dir.path("workload.relay");
  const ToolResult made =
      RunTool({std::string("--workload=") + GetParam(), "--emit=astext", "-o", file});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  const ToolResult first = RunTool({file, "--emit=astext"});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const ToolResult second = RunTool({"-", "--emit=astext"}, first.out);
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_EQ(first.out, second.out);
  EXPECT_EQ(first.out.rfind("#[version = \"0.0.5\"]\n", 0), 0u);
}

INSTANTIATE_TEST_SUITE_P(Workloads, CliFixedPointTest,
                         ::testing::Values("example", "chain-100", "resnet-18", "mobilenet"),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (c == '-') c = '_';
                           }
                           return name;
                         });

TEST(CliFixedPointTest, ThroughAShellPipe) {
  TempDir dir;
  const std::string file = dir.path("example.relay");
  ASSERT_EQ(RunTool({"--emit=astext", "-o", file}).exit_code, 0);
  const ToolResult piped =
      RunShell("\"$RELAY_OPT\" '" + file + "' --emit=astext | \"$RELAY_OPT\" - --emit=astext");
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(piped.out, RunTool({file, "--emit=astext"}).out);
}

TEST(CliFixedPointTest, BoundParametersRoundTripThroughMetadata) {
  TempDir dir;
  const std::string file = dir.path("chain.relay");
  ASSERT_EQ(RunTool({"--workload=example", "--bind-params", "--emit=astext", "-o", file}).exit_code,
            0);
  const ToolResult first = RunTool({file, "--emit=astext"});
  const ToolResult second = RunTool({"-", "--emit=astext"}, first.out);
  EXPECT_EQ(first.exit_code, 0) << first.err;
  EXPECT_EQ(first.out, second.out);
}

}  // namespace
}  // namespace relay_opt::testing
