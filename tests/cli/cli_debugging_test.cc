// relay-opt's debugging options, each against its mlir-opt / opt counterpart (docs/cli.md,
// "Debugging"): IR dumps on failure, as diffs and filtered by function; crash reproducers;
// opt-bisect; automatic bisection for a numerical change; the reducer; split input files;
// --version, suggestions, kebab-case pass names and --dump-pass-pipeline. Failures come from
// the example plugin's test passes (examples/plugin/).
#include <regex>

#include "cli_test_util.h"

namespace relay_opt::testing {
namespace {

std::string PluginPath() {
  return std::string(RELAYPASS_BINARY_DIR) + "/examples/plugin/libexample_plugin.so";
}
std::string LoadPlugin() {
  return "--load-pass-plugin=" + PluginPath();
}

size_t Count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

bool Contains(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

// Two functions, so that --filter-print-funcs has something to filter.
constexpr const char* kTwoFunctions =
    "def @helper(%a: Tensor[(2), float32]) { add(%a, 1f) }\n"
    "def @main(%x: Tensor[(2), float32]) { %0 = add(1f, 1f); @helper(multiply(%x, %0)) }\n";

// --- IR dumps -------------------------------------------------------------------------------

TEST(CliDebuggingTest, PrintIrAfterFailurePrintsTheFailingPassInput) {
  TempDir dir;
  const std::string trace = dir.path("trace.json");
  const ToolResult r =
      RunTool({LoadPlugin(), "--pipeline=FoldConstant,ExampleFail(message=\"no\")",
               "--print-ir-after-failure", "--time-passes", "--time-trace=" + trace});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  // Only the innermost failing pass, not the Sequential around it; the module it started from
  // (FoldConstant already folded the constants: no multiply left).
  EXPECT_EQ(Count(r.err, "// *** IR Dump After ExampleFail Failed ***\ndef @main("), 1u) << r.err;
  EXPECT_EQ(Count(r.err, "IR Dump"), 1u) << r.err;
  EXPECT_FALSE(Contains(r.err, "multiply(")) << r.err;
  // The timing tree and the trace are still written, the failing pass in them.
  EXPECT_TRUE(std::regex_search(r.err, std::regex(R"(\n\tExampleFail: \d+us)"))) << r.err;
  EXPECT_TRUE(Contains(ReadFile(trace), "\"name\": \"ExampleFail\"")) << ReadFile(trace);
  EXPECT_TRUE(Contains(ReadFile(trace), "\"status\": \"failed\""));
  EXPECT_TRUE(Contains(r.err, "relay-opt: error: ExampleFail: no\n")) << r.err;
}

TEST(CliDebuggingTest, PrintChangedDiffShowsUnifiedDiffsAndUnchangedNotes) {
  const ToolResult r = RunTool({"--pipeline=FoldConstant,EliminateCommonSubexpr", "-O3",
                                "--print-changed=diff", "--emit=none"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Contains(r.err,
                       "// *** IR Dump After EliminateCommonSubexpr (diff) ***\n"
                       "--- before EliminateCommonSubexpr\n"
                       "+++ after EliminateCommonSubexpr\n"
                       "@@ -2,7 +2,6 @@\n"))
      << r.err;
  EXPECT_TRUE(Contains(r.err,
                       "\n-  add(%2, %3) /* ty=Tensor[(1, 64, 54, 54), float32] */\n"
                       "+  add(%2, %2) /* ty=Tensor[(1, 64, 54, 54), float32] */\n"))
      << r.err;
  // The InferTypes nested in the passes changed nothing: one line each.
  EXPECT_EQ(Count(r.err, "// *** IR Dump After InferType omitted because no change ***\n"), 2u)
      << r.err;
  // The plain form still prints whole modules, and nothing for unchanged passes.
  const ToolResult plain = RunTool(
      {"--pipeline=FoldConstant,EliminateCommonSubexpr", "-O3", "--print-changed", "--emit=none"});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(Count(plain.err, "// *** IR Dump After EliminateCommonSubexpr ***\ndef @main("), 1u);
  EXPECT_FALSE(Contains(plain.err, "omitted")) << plain.err;
  ExpectError(RunTool({"--print-changed=quiet"}),
              "relay-opt: error: --print-changed: expected no value or 'diff', got 'quiet'");
}

TEST(CliDebuggingTest, FilterPrintFuncsAppliesToEveryDump) {
  TempDir dir;
  const std::string file = dir.path("two.relay");
  WriteFile(file, kTwoFunctions);
  const ToolResult after =
      RunTool({file, "--pipeline=FoldConstant", "--print-ir-after=all",
               "--print-ir-before=FoldConstant", "--filter-print-funcs=helper", "--emit=none"});
  ASSERT_EQ(after.exit_code, 0) << after.err;
  EXPECT_EQ(Count(after.err, "def @helper("), 3u) << after.err;
  EXPECT_FALSE(Contains(after.err, "def @main(")) << after.err;
  const ToolResult diff = RunTool({file, "--pipeline=FoldConstant", "--print-changed=diff",
                                   "--filter-print-funcs=main", "--emit=none"});
  ASSERT_EQ(diff.exit_code, 0) << diff.err;
  EXPECT_TRUE(Contains(diff.err, "+  %0 = multiply(%x, 2f /* ty=float32 */)")) << diff.err;
  EXPECT_FALSE(Contains(diff.err, "@helper(%a")) << diff.err;
  const ToolResult failure = RunTool({LoadPlugin(), file, "--pipeline=ExampleFail",
                                      "--print-ir-after-failure", "--filter-print-funcs=helper"});
  EXPECT_EQ(failure.exit_code, 1);
  EXPECT_TRUE(Contains(failure.err, "// *** IR Dump After ExampleFail Failed ***\ndef @helper("))
      << failure.err;
  EXPECT_FALSE(Contains(failure.err, "def @main(")) << failure.err;
}

// --- reproducers ----------------------------------------------------------------------------

TEST(CliDebuggingTest, ReproducerReplaysAFailingPipelineWithItsContext) {
  TempDir dir;
  const std::string repro = dir.path("repro.relay");
  const ToolResult r = RunTool(
      {LoadPlugin(), "--workload=chain-4",
       "--pipeline=fold-constant,FuseOps(fuse_opt_level=1),ExampleFail(message=\"bad module\")",
       "-O3", "--disabled-pass=EliminateCommonSubexpr", "--required-pass=FoldConstant",
       "--config=relay.FuseOps.max_depth=5", "--reproducer=" + repro});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Contains(r.err, "relay-opt: note: reproducer written to " + repro)) << r.err;
  const std::string text = ReadFile(repro);
  for (const std::string& line :
       {std::string("// reason: ExampleFail: bad module"),
        "// relay-opt-reproducer-arg: " + LoadPlugin(),
        std::string(
            "// relay-opt-reproducer-arg: --pipeline=FoldConstant,FuseOps(fuse_opt_level=1),"
            "ExampleFail(message=\"bad module\")"),
        std::string("// relay-opt-reproducer-arg: --opt-level=3"),
        std::string("// relay-opt-reproducer-arg: --required-pass=FoldConstant"),
        std::string("// relay-opt-reproducer-arg: --disabled-pass=EliminateCommonSubexpr"),
        std::string("// relay-opt-reproducer-arg: --config=relay.FuseOps.max_depth=5"),
        std::string("#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(1, 16), float32]")}) {
    EXPECT_TRUE(Contains(text, line + "\n") || Contains(text, line)) << line << "\n" << text;
  }
  // Replaying fails the same way, from any directory.
  const ToolResult replay = RunShell("cd / && \"$RELAY_OPT\" --run-reproducer '" + repro + "'");
  EXPECT_EQ(replay.exit_code, 1);
  EXPECT_EQ(replay.out, "");
  EXPECT_TRUE(Contains(replay.err, "relay-opt: note: replaying " + repro)) << replay.err;
  EXPECT_TRUE(Contains(replay.err, "relay-opt: error: ExampleFail: bad module\n")) << replay.err;
  // More options after the reproducer apply to the replay.
  const ToolResult more = RunTool({"--run-reproducer=" + repro, "--print-ir-after-failure"});
  EXPECT_TRUE(Contains(more.err, "// *** IR Dump After ExampleFail Failed ***")) << more.err;
  // The file is Relay text: read as input, it is the module the pipeline started from.
  const ToolResult read = RunTool({repro});
  EXPECT_EQ(read.exit_code, 0) << read.err;
  EXPECT_EQ(read.out, RunTool({"-"}, RunTool({"--workload=chain-4", "--emit=astext"}).out).out);
  ExpectError(RunTool({"--run-reproducer=" + std::string(RELAYPASS_TEST_DATA) + "/cli/../cli"}),
              "relay-opt: error: cannot read input file");
}

TEST(CliDebuggingTest, ReproducerIsWrittenOnACrashSignal) {
  TempDir dir;
  const std::string repro = dir.path("crash.relay");
  const ToolResult r = RunTool(
      {LoadPlugin(), "--pipeline=FoldConstant,ExampleCrash", "-O1", "--reproducer=" + repro});
  EXPECT_EQ(r.exit_code, -1) << "killed by SIGABRT";
  EXPECT_TRUE(
      Contains(r.err, "relay-opt: crashed with signal SIGABRT; reproducer written to " + repro))
      << r.err;
  const std::string text = ReadFile(repro);
  EXPECT_TRUE(Contains(text, "// reason: crashed with signal SIGABRT\n")) << text;
  EXPECT_TRUE(
      Contains(text, "// relay-opt-reproducer-arg: --pipeline=FoldConstant,ExampleCrash\n"));
  EXPECT_TRUE(Contains(text, "// relay-opt-reproducer-arg: --opt-level=1\n"));
  // The replay crashes again.
  const ToolResult replay = RunTool({"--run-reproducer", repro});
  EXPECT_EQ(replay.exit_code, -1) << replay.err;
  // A successful run writes nothing.
  const std::string ok = dir.path("ok.relay");
  EXPECT_EQ(RunTool({"--pipeline=FoldConstant", "--reproducer=" + ok}).exit_code, 0);
  EXPECT_EQ(RunShell("test -e '" + ok + "'").exit_code, 1);
}

// --- bisection ------------------------------------------------------------------------------

TEST(CliDebuggingTest, OptBisectLimitRunsTheFirstNPasses) {
  const ToolResult r = RunTool(
      {"--pipeline=FoldConstant,FuseOps,EliminateCommonSubexpr", "-O3", "--opt-bisect-limit=2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err,
            "BISECT: running pass (1) FoldConstant on module\n"
            "BISECT: running pass (2) InferType on module\n"
            "BISECT: NOT running pass (3) InferType on module\n"
            "BISECT: NOT running pass (4) FuseOps on module\n"
            "BISECT: NOT running pass (5) InferType on module\n"
            "BISECT: NOT running pass (6) EliminateCommonSubexpr on module\n");
  // The output is FoldConstant's alone.
  EXPECT_EQ(r.out, RunTool({"--passes=FoldConstant"}).out);
  const ToolResult none = RunTool({"--pipeline=FoldConstant", "--opt-bisect-limit=0"});
  EXPECT_EQ(none.out, RunTool({}).out);
}

TEST(CliDebuggingTest, BisectVerifyFindsTheFirstPassThatChangesTheResults) {
  const ToolResult r =
      RunTool({LoadPlugin(), "--pipeline=FoldConstant,EliminateCommonSubexpr,ExampleNudge,FuseOps",
               "-O3", "--bisect-verify"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(Contains(r.err,
                       "relay-opt: error: bisect-verify: pass (6) \"ExampleNudge\" of 10 is the "
                       "first after which the results of @main differ from the input's: "))
      << r.err;
  EXPECT_TRUE(Contains(r.err,
                       "--opt-bisect-limit=5 keeps the results, --opt-bisect-limit=6 "
                       "changes them"))
      << r.err;
  const ToolResult clean = RunTool({"--pipeline=FoldConstant,FuseOps", "-O3", "--bisect-verify"});
  EXPECT_EQ(clean.exit_code, 0) << clean.err;
  EXPECT_TRUE(Contains(clean.err,
                       "relay-opt: bisect-verify: results of all 5 passes match the "
                       "input's (1 pipeline run)"))
      << clean.err;
  ExpectError(RunTool({"--bisect-verify"}),
              "relay-opt: error: --bisect-verify needs --pipeline or --passes");
}

// --- the reducer ----------------------------------------------------------------------------

TEST(CliDebuggingTest, ReduceShrinksAModuleWhileThePipelineFailsTheSameWay) {
  TempDir dir;
  const std::string out = dir.path("reduced.relay");
  const std::vector<std::string> args = {
      LoadPlugin(),
      "--workload=resnet-18",
      "--pipeline=FoldConstant,ExampleFail(when_op=\"nn.softmax\")",
      "--reduce",
      "-o",
      out};
  const ToolResult r = RunTool(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Contains(r.err, "relay-opt: reduce: keeping PassError in pass \"ExampleFail\""))
      << r.err;
  const std::string reduced = ReadFile(out);
  EXPECT_EQ(reduced,
            "#[version = \"0.0.5\"]\n"
            "def @main(%reduced1: Tensor[(1, 1000), float32] /* ty=Tensor[(1, 1000), float32] */) "
            "-> Tensor[(1, 1000), float32] {\n"
            "  nn.softmax(%reduced1) /* ty=Tensor[(1, 1000), float32] */\n"
            "}\n");
  // Deterministic; and the reduced module still fails the same way.
  EXPECT_EQ(RunTool(args).exit_code, 0);
  EXPECT_EQ(ReadFile(out), reduced);
  const ToolResult check =
      RunTool({LoadPlugin(), out, "--pipeline=FoldConstant,ExampleFail(when_op=\"nn.softmax\")"});
  EXPECT_EQ(check.exit_code, 1);
  // A pipeline that succeeds has nothing to reduce.
  ExpectError(RunTool({"--pipeline=FoldConstant", "--reduce"}),
              "relay-opt: error: --reduce: the check does not hold for the input");
}

TEST(CliDebuggingTest, ReduceKeepsAVerifyEachFailure) {
  const ToolResult r = RunTool({LoadPlugin(), "--workload=example",
                                "--pipeline=FoldConstant,ExampleNudge(amount=0.5)", "--reduce",
                                "--reduce-check=verify"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Contains(r.err, "relay-opt: reduce: keeping verify in pass \"ExampleNudge\""))
      << r.err;
  // Everything goes: main returns a parameter, and the nudge still changes it.
  EXPECT_TRUE(Contains(r.out, "def @main(%reduced0: Tensor[(1, 64, 54, 54), float32]")) << r.out;
  EXPECT_TRUE(Contains(r.out, "  %reduced0\n}")) << r.out;
  EXPECT_FALSE(Contains(r.out, "nn.conv2d")) << r.out;
}

// --- input, names, pipeline -----------------------------------------------------------------

TEST(CliDebuggingTest, SplitInputFileProcessesEachChunk) {
  TempDir dir;
  const std::string file = dir.path("split.relay");
  WriteFile(file,
            "def @main(%x: Tensor[(2), float32]) { add(%x, %x) }\n"
            "// -----\n"
            "def @main(%y: Tensor[(2), float32]) { multiply(%y, add(1f, 1f)) }\n");
  const ToolResult r = RunTool({file, "--split-input-file", "--pipeline=FoldConstant"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "def @main(%x: Tensor[(2), float32] /* ty=Tensor[(2), float32] */) -> Tensor[(2), "
            "float32] {\n  add(%x, %x) /* ty=Tensor[(2), float32] */\n}\n"
            "// -----\n"
            "def @main(%y: Tensor[(2), float32] /* ty=Tensor[(2), float32] */) -> Tensor[(2), "
            "float32] {\n  multiply(%y, 2f /* ty=float32 */) /* ty=Tensor[(2), float32] */\n}\n");
  // An error in one chunk names its line in the whole file; the other chunks still run.
  WriteFile(file,
            "def @main(%x: Tensor[(2), float32]) { add(%x, %z) }\n"
            "// -----\n"
            "def @main(%y: Tensor[(2), float32]) { %y }\n"
            "// -----\n"
            "def @main(%y: Tensor[(2), float32]) { multiply(%y, %w) }\n");
  const ToolResult bad = RunTool({file, "--split-input-file"});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_EQ(bad.out, "");
  EXPECT_TRUE(Contains(bad.err, "relay-opt: error: " + file + ":1:47: undefined variable %z"))
      << bad.err;
  EXPECT_TRUE(Contains(bad.err, "relay-opt: error: " + file + ":5:52: undefined variable %w"))
      << bad.err;
  ExpectError(RunTool({"--split-input-file"}),
              "relay-opt: error: --split-input-file needs a Relay text INPUT");
}

TEST(CliDebuggingTest, VersionSuggestionsAndKebabCaseNames) {
  const ToolResult version = RunTool({"--version"});
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_EQ(version.out.rfind("relay-opt (relaypass) 0.13.0", 0), 0u) << version.out;
  // Kebab-case pass names are read as the registered names, with a note.
  const ToolResult kebab = RunTool({"--pipeline=fold-constant,fuse-ops", "-O3"});
  ASSERT_EQ(kebab.exit_code, 0) << kebab.err;
  EXPECT_EQ(kebab.err,
            "relay-opt: note: --pipeline: read 'fold-constant' as 'FoldConstant'\n"
            "relay-opt: note: --pipeline: read 'fuse-ops' as 'FuseOps'\n");
  EXPECT_EQ(kebab.out, RunTool({"--pipeline=FoldConstant,FuseOps", "-O3"}).out);
  const ToolResult passes = RunTool({"--passes=eliminate_common_subexpr", "--emit=none"});
  EXPECT_EQ(passes.err,
            "relay-opt: note: --passes: read 'eliminate_common_subexpr' as "
            "'EliminateCommonSubexpr'\n");
  // A name that is no pass in any spelling still gets the registry's suggestion.
  ExpectError(RunTool({"--pipeline=fold-constan"}),
              "relay-opt: error: --pipeline: unknown pass \"fold-constan\"; did you mean "
              "\"FoldConstant\"?");
}

TEST(CliDebuggingTest, DumpPassPipelineShowsResolvedOptionsAndGating) {
  const ToolResult r =
      RunTool({"--pipeline=FoldConstant,EliminateCommonSubexpr,FuseOps",
               "--disabled-pass=FoldConstant", "--dump-pass-pipeline", "--emit=none"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err,
            "// --pipeline at opt_level 2\n"
            "sequential\n"
            "  FoldConstant(fold_qnn=False)  // skipped: disabled\n"
            "  EliminateCommonSubexpr  // skipped: opt_level 3 > 2\n"
            "  FuseOps(fuse_opt_level=-1)\n");
  const ToolResult direct = RunTool(
      {"--passes=InferType,FuseOps(fuse_opt_level=2)", "--dump-pass-pipeline", "--emit=none"});
  EXPECT_EQ(direct.err,
            "// --passes: each called directly (no opt_level gating)\n"
            "InferType\n"
            "FuseOps(fuse_opt_level=2)\n");
}

// --- plugins --------------------------------------------------------------------------------

TEST(CliDebuggingTest, PluginRegistersPassesAndAnInstrument) {
  const ToolResult list = RunTool({LoadPlugin(), "--list-passes"});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  for (const char* name : {"ExampleCountCalls", "ExampleFail", "ExampleNudge", "ExampleCrash"}) {
    EXPECT_TRUE(Contains(list.out, std::string("  ") + name + " ")) << name;
  }
  EXPECT_FALSE(Contains(RunTool({"--list-passes"}).out, "ExampleCountCalls"));
  const ToolResult r = RunTool(
      {LoadPlugin(), "--pipeline=FoldConstant,ExampleCountCalls(verbose=True)", "--emit=none"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err,
            "example-plugin: @main has 5 calls and 2 parameters\n"
            "example-plugin: 4 passes ran\n");  // the Sequential counts too
  ExpectError(RunTool({"--load-pass-plugin=/nonexistent/libnothing.so"}),
              "relay-opt: error: --load-pass-plugin: cannot load pass plugin "
              "'/nonexistent/libnothing.so': ");
  ExpectError(RunTool({"--load-pass-plugin=libm.so.6"}),
              "relay-opt: error: --load-pass-plugin: pass plugin 'libm.so.6' is not a relaypass "
              "plugin: it does not define relaypass_plugin_abi_version");
}

}  // namespace
}  // namespace relay_opt::testing
