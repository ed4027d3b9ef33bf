// Every error of relay-opt is one diagnostic, `relay-opt: error: ...` with the location when
// there is one, exit status 1 and nothing on stdout.
#include "cli_test_util.h"

namespace relay_opt::testing {
namespace {

TEST(CliErrorsTest, ParseErrorNamesFileLineAndColumn) {
  TempDir dir;
  const std::string file = dir.path("bad.relay");
  WriteFile(file, "def @main(%x: Tensor[(1, 4), float32]) {\n  add(%x, %y)\n}\n");
  const ToolResult r = RunTool({file});
  ExpectError(r, "relay-opt: error: " + file + ":2:11: undefined variable %y");
  // Then the source line and a caret under the column.
  EXPECT_NE(r.err.find("\n  add(%x, %y)\n          ^"), std::string::npos) << r.err;
}

TEST(CliErrorsTest, ParseErrorOnStdinIsReportedAsStdin) {
  const ToolResult r = RunTool({"-"}, "def @main(%x: Tensor[(1, 4), float32]) {\n  add(%x, \n}\n");
  ExpectError(r, "relay-opt: error: <stdin>:3:1: expected an expression");
}

TEST(CliErrorsTest, TypeErrorNamesTheLocation) {
  TempDir dir;
  const std::string file = dir.path("ill_typed.relay");
  WriteFile(file, "def @main(%x: Tensor[(1, 4), float32]) {\n  nn.conv2d(%x, %x)\n}\n");
  ExpectError(RunTool({file}), "relay-opt: error: " + file + ":2:3: nn.conv2d");
}

TEST(CliErrorsTest, MissingInputFile) {
  ExpectError(RunTool({"/nonexistent/model.relay"}),
              "relay-opt: error: cannot open input file '/nonexistent/model.relay'");
}

TEST(CliErrorsTest, UnknownPassSuggestsTheClosestName) {
  ExpectError(RunTool({"--passes=InferTyp"}),
              "relay-opt: error: --passes: unknown pass \"InferTyp\"; did you mean \"InferType\"?");
  ExpectError(RunTool({"--pipeline=InferType,NoSuchPass"}),
              "relay-opt: error: --pipeline: unknown pass \"NoSuchPass\"");
}

TEST(CliErrorsTest, UnknownPassOption) {
  ExpectError(RunTool({"--pipeline=PrintIR(verbose=True)"}),
              "relay-opt: error: --pipeline: pass \"PrintIR\" has no option \"verbose\"");
}

TEST(CliErrorsTest, PipelineSyntaxError) {
  const ToolResult r = RunTool({"--pipeline=InferType,(x)"});
  ExpectError(r, "relay-opt: error: --pipeline: ");
  EXPECT_NE(r.first_err_line().find("column"), std::string::npos) << r.err;
}

TEST(CliErrorsTest, BadOptionValues) {
  ExpectError(RunTool({"--emit=svg"}),
              "relay-opt: error: --emit: svg not in {text,astext,dot,none}");
  ExpectError(RunTool({"-O9"}), "relay-opt: error: --opt-level: Value 9 not in range 0 to 4");
  ExpectError(RunTool({"--opt-level=two"}), "relay-opt: error: --opt-level");
  ExpectError(RunTool({"--layout=NCWH"}), "relay-opt: error: --layout: NCWH not in {NCHW,NHWC}");
  ExpectError(RunTool({"--batch-size=0"}), "relay-opt: error: --batch-size");
  ExpectError(RunTool({"--verify-each", "--verify-tolerance=tight"}),
              "relay-opt: error: --verify-tolerance: expected RTOL[,ATOL]");
}

TEST(CliErrorsTest, UnknownCommandLineOption) {
  ExpectError(RunTool({"--frobnicate"}), "relay-opt: error: unknown option '--frobnicate'");
  // A mistyped option gets the closest one.
  ExpectError(RunTool({"--print-changd"}),
              "relay-opt: error: unknown option '--print-changd'; did you mean '--print-changed'?");
  ExpectError(RunTool({"--verify-eac", "--emit=none"}),
              "relay-opt: error: unknown option '--verify-eac'; did you mean '--verify-each'?");
  ExpectError(RunTool({"--time-pases=1"}),
              "relay-opt: error: unknown option '--time-pases'; did you mean '--time-passes'?");
}

TEST(CliErrorsTest, UnknownConfigKeyListsTheValidOnes) {
  const ToolResult r = RunTool({"--config=relay.FuseOps.maxdepth=3"});
  ExpectError(r,
              "relay-opt: error: --config: unknown PassContext config option "
              "\"relay.FuseOps.maxdepth\"");
  EXPECT_NE(r.first_err_line().find("relay.FuseOps.max_depth"), std::string::npos) << r.err;
}

TEST(CliErrorsTest, WrongConfigType) {
  ExpectError(RunTool({"--config=relay.FuseOps.max_depth=\"deep\""}),
              "relay-opt: error: --config: PassContext config option \"relay.FuseOps.max_depth\" "
              "expects int");
  ExpectError(RunTool({"--config=relay.FuseOps.link_params=maybe"}),
              "relay-opt: error: --config: relay.FuseOps.link_params: cannot read 'maybe'");
  ExpectError(RunTool({"--config=relay.FuseOps.max_depth"}),
              "relay-opt: error: --config: expected KEY=VALUE, got 'relay.FuseOps.max_depth'");
}

TEST(CliErrorsTest, UnknownWorkloadListsTheKnownOnes) {
  const ToolResult r = RunTool({"--workload=resnet"});
  ExpectError(r, "relay-opt: error: unknown workload 'resnet'");
  EXPECT_NE(r.first_err_line().find("mobilenet"), std::string::npos) << r.err;
}

TEST(CliErrorsTest, ConflictingOptions) {
  TempDir dir;
  const std::string file = dir.path("m.relay");
  WriteFile(file, "def @main(%x: Tensor[(1, 4), float32]) {\n  %x\n}\n");
  ExpectError(RunTool({file, "--workload=example"}), "relay-opt: error: input excludes --workload");
  ExpectError(RunTool({file, "--bind-params"}), "relay-opt: error: ");
  ExpectError(RunTool({"--passes=InferType", "--pipeline=InferType"}),
              "relay-opt: error: --passes excludes --pipeline");
  ExpectError(RunTool({"--output=out.npy"}), "relay-opt: error: --output requires --run");
  ExpectError(RunTool({"--input=x=x.npy"}),
              "relay-opt: error: --input applies to --run, --verify-each and --bisect-verify");
}

TEST(CliErrorsTest, BadRunInputs) {
  TempDir dir;
  ExpectError(RunTool({"--workload=chain-2", "--run", "--input=y=" + dir.path("y.npy")}),
              "relay-opt: error: --input: main has no parameter %y (parameters: %x)");
  ExpectError(RunTool({"--workload=chain-2", "--run", "--input=x"}),
              "relay-opt: error: --input: expected NAME=FILE.npy, got 'x'");
  const std::string bad = dir.path("bad.npy");
  WriteFile(bad, "not numpy");
  ExpectError(RunTool({"--workload=chain-2", "--run", "--input=x=" + bad}),
              "relay-opt: error: " + bad + ": not a valid .npy file");
}

TEST(CliErrorsTest, UnwritableOutputLeavesStdoutEmpty) {
  ExpectError(RunTool({"-o", "/nonexistent/dir/out.relay"}),
              "relay-opt: error: cannot open output file '/nonexistent/dir/out.relay'");
  ExpectError(RunTool({"--passes=InferType", "--time-trace=/nonexistent/dir/t.json"}),
              "relay-opt: error: cannot open trace file '/nonexistent/dir/t.json'");
}

}  // namespace
}  // namespace relay_opt::testing
