// relay-opt's options, one by one, on the tutorial's example and small workloads.
#include <regex>

#include "cli_test_util.h"
#include "relaypass/ir/ndarray.h"
#include "relaypass/op/registry.h"
#include "relaypass/tools/npy.h"

namespace relay_opt::testing {
namespace {

size_t Count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

std::string ExampleText() {
  const ToolResult r = RunTool({"--workload=example"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

// --- input --------------------------------------------------------------------------------

TEST(CliInputTest, DefaultIsTheTutorialExample) {
  const ToolResult r = RunTool({});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, ExampleText());
  EXPECT_EQ(r.out.rfind("def @main(%x: Tensor[(1, 64, 56, 56), float32], %weight:", 0), 0u);
  EXPECT_NE(r.out.find("%2 = multiply(%0, 2f);"), std::string::npos) << r.out;
}

TEST(CliInputTest, ReadsAFileAndStdin) {
  TempDir dir;
  const std::string file = dir.path("example.relay");
  WriteFile(file, RunTool({"--emit=astext"}).out);
  const ToolResult from_file = RunTool({file});
  const ToolResult from_stdin = RunTool({"-"}, ReadFile(file));
  EXPECT_EQ(from_file.exit_code, 0) << from_file.err;
  EXPECT_EQ(from_stdin.exit_code, 0) << from_stdin.err;
  EXPECT_EQ(from_file.out, from_stdin.out);
  // Parsing type-checks: the printed module carries types.
  EXPECT_NE(from_file.out.find("/* ty=Tensor[(1, 64, 54, 54), float32] */"), std::string::npos);
}

TEST(CliInputTest, ChainWorkload) {
  const ToolResult r = RunTool({"--workload=chain-4"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(TrimRight(r.out),
            "def @main(%x: Tensor[(1, 16), float32]) {\n"
            "  %0 = add(%x, 1f);\n"
            "  %1 = nn.relu(%0);\n"
            "  %2 = add(%1, 1f);\n"
            "  nn.relu(%2)\n"
            "}");
}

TEST(CliInputTest, LayoutAndBatchSize) {
  const ToolResult nhwc = RunTool({"--workload=resnet-18", "--layout=NHWC", "--emit=text"});
  EXPECT_EQ(nhwc.exit_code, 0) << nhwc.err;
  EXPECT_EQ(nhwc.out.rfind("def @main(%data: Tensor[(1, 224, 224, 3), float32]", 0), 0u);
  const ToolResult batch = RunTool({"--workload=mobilenet", "--batch-size=2"});
  EXPECT_EQ(batch.exit_code, 0) << batch.err;
  EXPECT_EQ(batch.out.rfind("def @main(%data: Tensor[(2, 3, 224, 224), float32]", 0), 0u);
}

TEST(CliInputTest, BindParamsLeavesOnlyTheData) {
  const ToolResult r = RunTool({"--workload=resnet-18", "--bind-params"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::string first_line = r.out.substr(0, r.out.find('\n'));
  EXPECT_EQ(first_line,
            "def @main(%data: Tensor[(1, 3, 224, 224), float32] /* ty=Tensor[(1, 3, 224, 224), "
            "float32] */) -> Tensor[(1, 1000), float32] {");
  EXPECT_NE(r.out.find("meta[relay.Constant][0] /* ty=Tensor[(3), float32] */"), std::string::npos);
}

// --- passes and the context ---------------------------------------------------------------

TEST(CliPassesTest, PassesAreCalledDirectlyWithoutGating) {
  SKIP_UNLESS_REGISTERED("FoldConstant");
  // FoldConstant is level 2; a direct call ignores -O0 (as pass(mod) does).
  const ToolResult r = RunTool({"--passes=FoldConstant", "-O0"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(TrimRight(r.out), TrimRight(TestData("fold_constant.txt")));
}

TEST(CliPassesTest, PipelineIsGatedByOptLevel) {
  SKIP_UNLESS_REGISTERED("FoldConstant");
  const ToolResult skipped = RunTool({"--pipeline=FoldConstant", "-O1"});
  EXPECT_EQ(skipped.exit_code, 0) << skipped.err;
  EXPECT_EQ(skipped.out, ExampleText());
  const ToolResult run = RunTool({"--pipeline=FoldConstant", "--opt-level=2"});
  EXPECT_EQ(TrimRight(run.out), TrimRight(TestData("fold_constant.txt")));
}

TEST(CliPassesTest, RequiredAndDisabledPasses) {
  SKIP_UNLESS_REGISTERED("FoldConstant");
  const ToolResult required =
      RunTool({"--pipeline=FoldConstant", "-O1", "--required-pass=FoldConstant"});
  EXPECT_EQ(TrimRight(required.out), TrimRight(TestData("fold_constant.txt")));
  // Disabled beats required.
  const ToolResult disabled = RunTool({"--pipeline=FoldConstant", "--required-pass=FoldConstant",
                                       "--disabled-pass=InferType,FoldConstant"});
  EXPECT_EQ(disabled.out, ExampleText());
}

TEST(CliPassesTest, UnknownNamesInPassListsAreWarnedAbout) {
  const ToolResult r = RunTool({"--pipeline=InferType", "--disabled-pass=FoldKonstant"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.first_err_line(),
            "relay-opt: warning: --disabled-pass: no registered pass is named 'FoldKonstant'");
}

TEST(CliPassesTest, ConfigIsAccepted) {
  const ToolResult r =
      RunTool({"--config=relay.FuseOps.max_depth=8", "--config", "relay.FuseOps.link_params=True",
               "--passes=InferType", "--emit=none"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST(CliPassesTest, DefaultPipelineIsDocumentedInHelpAndListPasses) {
  const ToolResult list = RunTool({"--list-passes"});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  const size_t at = list.out.find("Default pipeline (--pipeline=default):\n  ");
  ASSERT_NE(at, std::string::npos) << list.out;
  const size_t start = list.out.find("  ", at + 10) + 2;
  const std::string names = list.out.substr(start, list.out.find('\n', start) - start);
  const ToolResult help = RunTool({"--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("then FuseOps:\n  " + names + "\n"), std::string::npos) << help.out;
  // It is the relay.build prefix restricted to the registered passes: InferType is in it.
  EXPECT_NE(("," + names + ",").find(",InferType,"), std::string::npos) << names;
}

TEST(CliPassesTest, DefaultPipelineRunsOnResnet) {
  const ToolResult r = RunTool({"--workload=resnet-18", "--bind-params", "--pipeline=default",
                                "-O3", "--time-passes", "--emit=none"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.rfind("sequential: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("\tInferType: "), std::string::npos) << r.err;
}

// --- instruments --------------------------------------------------------------------------

TEST(CliInstrumentTest, PrintIrBeforeAndAfter) {
  const ToolResult r = RunTool({"--pipeline=InferType", "--print-ir-before=InferType",
                                "--print-ir-after=all", "--emit=none"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.rfind("// *** IR Dump Before InferType ***\ndef @main(%x: ", 0), 0u) << r.err;
  EXPECT_EQ(Count(r.err, "// *** IR Dump After InferType ***\n"), 1u) << r.err;
  EXPECT_EQ(Count(r.err, "sequential"), 0u) << "containers are not printed for 'all'";
  const ToolResult named =
      RunTool({"--pipeline=InferType", "--print-ir-after=sequential", "--emit=none"});
  EXPECT_EQ(named.first_err_line(), "// *** IR Dump After sequential ***");
}

TEST(CliInstrumentTest, PrintChangedSkipsPassesThatChangedNothing) {
  // The first InferType fills main's return type; the second finds nothing to do.
  const ToolResult r =
      RunTool({"--pipeline=InferType,InferType", "--print-changed", "--emit=none"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Count(r.err, "// *** IR Dump After InferType ***"), 1u) << r.err;
}

TEST(CliInstrumentTest, TimePassesPrintsTheTimingTree) {
  const ToolResult r = RunTool({"--pipeline=InferType,PrintIR", "--time-passes", "--emit=none"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::regex top(R"(sequential: \d+us \[\d+us\] \(100\.00%; 100\.00%\))");
  EXPECT_TRUE(std::regex_search(r.err, top)) << r.err;
  EXPECT_TRUE(std::regex_search(r.err, std::regex(R"(\n\tInferType: \d+us \[\d+us\])"))) << r.err;
  EXPECT_TRUE(std::regex_search(r.err, std::regex(R"(\n\tPrintIR: \d+us)"))) << r.err;
}

TEST(CliInstrumentTest, TimeTraceWritesChromeTraceJson) {
  TempDir dir;
  const std::string trace = dir.path("trace.json");
  const ToolResult r = RunTool({"--pipeline=InferType,PrintIR", "-O0", "--disabled-pass=PrintIR",
                                "--time-trace=" + trace, "--emit=none"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string json = ReadFile(trace);
  EXPECT_EQ(json.rfind("{\"traceEvents\": [", 0), 0u) << json;
  EXPECT_NE(json.find("{\"name\": \"sequential\", \"cat\": \"pass\", \"ph\": \"X\""),
            std::string::npos);
  EXPECT_NE(json.find("\"status\": \"ok\", \"opt_level\": 0, \"depth\": 1, \"nodes_before\": 15, "
                      "\"nodes_after\": 15, \"changed\": true"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"skip_reason\": \"disabled\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"displayTimeUnit\": \"ms\"}"), std::string::npos);
  const ToolResult check = RunShell(
      "command -v python3 >/dev/null || exit 77; python3 -m json.tool '" + trace + "' >/dev/null");
  if (check.exit_code != 77) {
    EXPECT_EQ(check.exit_code, 0) << check.err;
  }
}

TEST(CliInstrumentTest, OpCountsTable) {
  const ToolResult r = RunTool({"--pipeline=InferType", "--op-counts", "--emit=none"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err,
            "operator           before     after\n"
            "add                     5         5\n"
            "multiply                1         1\n"
            "nn.conv2d               1         1\n"
            "-----------------------------------\n"
            "total                   7         7\n"
            "fused functions         0         0\n"
            "constants               2         2\n");
}

TEST(CliInstrumentTest, VerifyEachPassesWhenResultsAreKept) {
  SKIP_UNLESS_REGISTERED("FoldConstant");
  const ToolResult r = RunTool({"--pipeline=FoldConstant", "--verify-each", "--emit=none"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.first_err_line(),
            "relay-opt: verify-each: results unchanged by the 1 pass that changed the module");
}

// --- output -------------------------------------------------------------------------------

TEST(CliOutputTest, EmitForms) {
  const ToolResult astext = RunTool({"--emit=astext"});
  EXPECT_EQ(astext.out.rfind("#[version = \"0.0.5\"]\ndef @main(", 0), 0u);
  EXPECT_NE(astext.out.find("#[metadata]"), std::string::npos);
  const ToolResult dot = RunTool({"--emit=dot"});
  EXPECT_EQ(dot.out.rfind("digraph \"example\" {\n", 0), 0u) << dot.out;
  EXPECT_NE(dot.out.find("label=\"nn.conv2d\""), std::string::npos) << dot.out;
  const ToolResult none = RunTool({"--emit=none"});
  EXPECT_EQ(none.exit_code, 0);
  EXPECT_EQ(none.out, "");
}

TEST(CliOutputTest, OutputFileAndDotFile) {
  TempDir dir;
  const ToolResult r = RunTool({"-o", dir.path("m.relay"), "--dot=" + dir.path("m.dot")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(ReadFile(dir.path("m.relay")), ExampleText());
  EXPECT_EQ(ReadFile(dir.path("m.dot")), RunTool({"--emit=dot"}).out);
}

// --- running ------------------------------------------------------------------------------

TEST(CliRunTest, RunReportsEachOutput) {
  const ToolResult r = RunTool({"--workload=chain-4", "--run", "--random-inputs", "--emit=none"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::regex line(
      R"(output\[0\]: shape=\(1, 16\) dtype=float32 min=\S+ max=\S+ mean=\S+ checksum=[0-9a-f]{16}\n)");
  EXPECT_TRUE(std::regex_match(r.out, line)) << r.out;
  EXPECT_EQ(RunTool({"--workload=chain-4", "--run", "--random-inputs", "--emit=none"}).out, r.out)
      << "seeded";
  EXPECT_NE(
      RunTool({"--workload=chain-4", "--run", "--random-inputs", "--emit=none", "--seed=7"}).out,
      r.out);
}

TEST(CliRunTest, InputsAndOutputAreNpy) {
  TempDir dir;
  const std::string x = dir.path("x.npy"), y = dir.path("y.npy");
  relaypass::tools::WriteNpy(
      x, relaypass::ir::NDArray::Empty({1, 16}, relaypass::ir::DataType::Float32()));
  // relu(add(relu(add(0, 1)), 1)) == 2 everywhere.
  const ToolResult r =
      RunTool({"--workload=chain-4", "--run", "--input=x=" + x, "--output=" + y, "--emit=none"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, r.out.find(" checksum")),
            "output[0]: shape=(1, 16) dtype=float32 min=2 max=2 mean=2");
  const relaypass::ir::NDArray out = relaypass::tools::ReadNpy(y);
  ASSERT_EQ(out.shape(), (relaypass::ir::Shape{1, 16}));
  for (int i = 0; i < 16; ++i) EXPECT_EQ(out.data<float>()[i], 2.0f);
  // A shape that does not fit the parameter is refused.
  relaypass::tools::WriteNpy(
      x, relaypass::ir::NDArray::Empty({16}, relaypass::ir::DataType::Float32()));
  ExpectError(RunTool({"--workload=chain-4", "--run", "--input=x=" + x}),
              "relay-opt: error: --input: " + x +
                  " holds shape=(16,) dtype=float32, but %x is "
                  "Tensor[(1, 16), float32]");
}

TEST(CliRunTest, RunAfterPassesUsesTheSameInputs) {
  SKIP_UNLESS_REGISTERED("FoldConstant");
  const ToolResult before = RunTool({"--run", "--random-inputs", "--emit=none"});
  const ToolResult after =
      RunTool({"--run", "--random-inputs", "--emit=none", "--passes=FoldConstant"});
  EXPECT_EQ(before.exit_code, 0) << before.err;
  EXPECT_EQ(before.out.substr(0, before.out.find(" min=")),
            "output[0]: shape=(1, 64, 54, 54) dtype=float32");
  EXPECT_EQ(before.out, after.out);
}

TEST(CliListTest, ListPassesShowsPassesConfigAndWorkloads) {
  const ToolResult r = RunTool({"--list-passes"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  for (const std::string& name : relaypass::transform::PassRegistry::Global().Names()) {
    EXPECT_NE(r.out.find("\n  " + name + " "), std::string::npos) << name;
  }
  EXPECT_NE(r.out.find("  relay.FuseOps.max_depth: int = 256"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Workloads (--workload):\n  example, chain-N, resnet-18"),
            std::string::npos);
  EXPECT_TRUE(std::regex_search(
      r.out, std::regex(R"(\n  SimplifyInference +opt_level=0  required=\[InferType\])")))
      << r.out;
}

TEST(CliListTest, ListOpsShowsEveryOperatorWithPatternAndAttributes) {
  const ToolResult r = RunTool({"--list-ops"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  for (const std::string& name : relaypass::op::OpRegistry::Global().ListNames()) {
    EXPECT_NE(r.out.find("\n  " + name + " "), std::string::npos) << name;
  }
  EXPECT_TRUE(std::regex_search(
      r.out, std::regex(R"(\n  nn\.conv2d +2 +OutEWiseFusable +layout\+convert)")))
      << r.out;
  EXPECT_NE(r.out.find("      repeats (required), axis=None\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("      indices_or_sections (required), axis=0\n"), std::string::npos)
      << r.out;
}

}  // namespace
}  // namespace relay_opt::testing
