// relay-opt reads a pipe as opt does (`cat model.relay | relay-opt`), and an option given an empty
// value with `--NAME=` keeps it empty instead of taking the next argument as its value.
#include "cli_test_util.h"

namespace relay_opt::testing {
namespace {

const char kModel[] =
    "def @main(%x: Tensor[(2, 2), float32]) {\n"
    "  %0 = add(1f, 2f);\n"
    "  multiply(%x, %0)\n"
    "}\n";

// What relay-opt prints for kModel: parsing type-checks it, so the types are shown.
std::string PrintedModel() {
  const ToolResult r = RunTool({"-"}, kModel);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

TEST(CliStdinTest, APipeIsReadWhenNoInputIsNamed) {
  TempDir dir;
  const std::string file = dir.path("model.relay");
  WriteFile(file, kModel);
  const ToolResult piped = RunShell("cat '" + file + "' | \"$RELAY_OPT\"");
  EXPECT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(piped.out, PrintedModel());
  EXPECT_NE(piped.out.find("multiply(%x, %0)"), std::string::npos) << piped.out;
  // Redirected stdin (a file, not a terminal) is read as well, with options.
  const ToolResult folded = RunTool({"--passes=FoldConstant"}, kModel);
  EXPECT_EQ(folded.exit_code, 0) << folded.err;
  EXPECT_EQ(folded.out, RunTool({"-", "--passes=FoldConstant"}, kModel).out);
  EXPECT_NE(folded.out.find("multiply(%x, 3f"), std::string::npos) << folded.out;
}

TEST(CliStdinTest, ErrorsInPipedTextNameStdin) {
  ExpectError(RunTool({}, "def @main(%x: float32) {\n  add(%x, %y)\n}\n"),
              "relay-opt: error: <stdin>:2:11: undefined variable %y");
}

TEST(CliStdinTest, EmptyStdinOrAnExplicitWorkloadIsTheWorkload) {
  const std::string example = RunTool({"--workload=example"}).out;
  ASSERT_NE(example, "");
  // An empty stdin (/dev/null, an empty file) is no input: the default workload.
  EXPECT_EQ(RunTool({}).out, example);
  EXPECT_EQ(RunShell("\"$RELAY_OPT\" </dev/null").out, example);
  // --workload (or --bind-params, which needs one) names the input: stdin is not read.
  const ToolResult chosen = RunTool({"--workload=example"}, kModel);
  EXPECT_EQ(chosen.exit_code, 0) << chosen.err;
  EXPECT_EQ(chosen.out, example);
  EXPECT_EQ(RunTool({"--bind-params"}, kModel).out, example);
}

TEST(CliStdinTest, LargeInputIsReadWhole) {
  // More than one 1 MiB piece: a chain of 40,000 adds (about 1.1 MB of text).
  std::string text = "def @main(%x: Tensor[(2), float32]) {\n  %0 = add(%x, 1f);\n";
  const int n = 40000;
  for (int i = 1; i < n; ++i) {
    text += "  %" + std::to_string(i) + " = add(%" + std::to_string(i - 1) + ", 1f);\n";
  }
  text += "  %" + std::to_string(n - 1) + "\n}\n";
  ASSERT_GT(text.size(), size_t{1} << 20);
  const ToolResult r = RunTool({"--emit=none", "--op-counts"}, text);
  EXPECT_EQ(r.exit_code, 0) << r.first_err_line();
  EXPECT_NE(r.err.find("\nadd                 40000     40000\n"), std::string::npos) << r.err;
}

TEST(CliEmptyValueTest, EmptyPipelineDoesNotSwallowTheNextFlag) {
  // `--pipeline=""` reaches the program as `--pipeline=`: an empty pipeline, and --verify-each
  // is still a flag (CLI11 alone took it as the pipeline's text).
  const ToolResult r = RunTool({"--pipeline=", "--verify-each", "--emit=none"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err,
            "relay-opt: verify-each: results unchanged by the 0 passes that changed the module\n");
  // Through a shell, as written on a command line.
  const ToolResult shell = RunShell("\"$RELAY_OPT\" --pipeline=\"\" --verify-each --emit=none");
  EXPECT_EQ(shell.exit_code, 0) << shell.err;
  EXPECT_EQ(shell.err, r.err);
  // The positional input after it stays the input.
  TempDir dir;
  const std::string file = dir.path("model.relay");
  WriteFile(file, kModel);
  const ToolResult input = RunTool({"--pipeline=", file});
  EXPECT_EQ(input.exit_code, 0) << input.err;
  EXPECT_EQ(input.out, PrintedModel());
  // Other options alike: an empty --passes runs nothing.
  const ToolResult passes = RunTool({"--passes=", "--op-counts", "--emit=none"});
  EXPECT_EQ(passes.exit_code, 0) << passes.err;
  EXPECT_NE(passes.err.find("total                   7         7"), std::string::npos)
      << passes.err;
}

}  // namespace
}  // namespace relay_opt::testing
