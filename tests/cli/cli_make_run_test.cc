// What `make run` does, checked: resnet-18 with bound parameters through the default pipeline at
// -O3 writes the optimized module and a picture that Graphviz renders to SVG.
#include "cli_test_util.h"

namespace relay_opt::testing {
namespace {

void ExpectRenderedSvg(const std::string& svg_path) {
  const std::string svg = ReadFile(svg_path);
  EXPECT_GT(svg.size(), 10000u) << svg_path;
  EXPECT_NE(svg.find("<svg"), std::string::npos) << svg_path;
  EXPECT_NE(svg.find("nn.conv2d"), std::string::npos) << svg_path;
}

// relay-opt reads the optimized module it wrote (the fused reshape-only function's
// `relay.reshape_only=1` included). The print(mod) form has no #[metadata] section, so the
// constants come back as zeros of their printed types (warned about) and the module prints back
// to the same text.
void ExpectReadsBack(const std::string& path) {
  const ToolResult r = RunTool({path});
  ASSERT_EQ(r.exit_code, 0) << r.first_err_line();
  EXPECT_EQ(r.out, ReadFile(path));
  EXPECT_NE(r.out.find("relay.reshape_only=1"), std::string::npos);
  EXPECT_NE(r.err.find(": no metadata for meta[relay.Constant][0]; using zeros"), std::string::npos)
      << r.first_err_line();
}

TEST(CliMakeRunTest, ResnetThroughTheDefaultPipelineRendersToSvg) {
  TempDir dir;
  const std::string relay = dir.path("resnet-18.opt.relay"), dot = dir.path("resnet-18.opt.dot");
  const ToolResult r =
      RunTool({"--workload=resnet-18", "--bind-params", "--pipeline=default", "-O3",
               "--time-passes", "--op-counts", "-o", relay, "--dot=" + dot});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind("sequential: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("\nnn.conv2d "), std::string::npos) << r.err;
  EXPECT_EQ(ReadFile(relay).rfind("def @main(%data: Tensor[(1, 3, 224, 224), float32]", 0), 0u);
  const std::string dot_text = ReadFile(dot);
  EXPECT_EQ(dot_text.rfind("digraph \"resnet-18\" {", 0), 0u);
  ExpectReadsBack(relay);
  if (RunShell("command -v dot >/dev/null").exit_code != 0) {
    GTEST_SKIP() << "Graphviz's dot is not installed (make run installs it)";
  }
  const std::string svg = dir.path("resnet-18.opt.svg");
  const ToolResult render = RunShell("dot -Tsvg '" + dot + "' -o '" + svg + "'");
  ASSERT_EQ(render.exit_code, 0) << render.err;
  ExpectRenderedSvg(svg);
}

TEST(CliMakeRunTest, MakeRunOutputsWhenPresent) {
  const std::string svg = std::string(RELAYPASS_BINARY_DIR) + "/resnet-18.opt.svg";
  if (ReadFile(svg).empty()) GTEST_SKIP() << "make run has not been run in this build directory";
  ExpectRenderedSvg(svg);
  const std::string relay = ReadFile(std::string(RELAYPASS_BINARY_DIR) + "/resnet-18.opt.relay");
  EXPECT_EQ(relay.rfind("def @main(%data: ", 0), 0u);
  ExpectReadsBack(std::string(RELAYPASS_BINARY_DIR) + "/resnet-18.opt.relay");
}

// With its #[metadata] section (--emit=astext) the optimized module reads back exactly: the
// text it prints again is the same, byte for byte.
TEST(CliMakeRunTest, OptimizedResnetWithMetadataReadsBackExactly) {
  TempDir dir;
  const std::string relay = dir.path("resnet-18.opt.relay");
  const ToolResult r = RunTool({"--workload=resnet-18", "--bind-params", "--pipeline=default",
                                "-O3", "--emit=astext", "-o", relay});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const ToolResult again = RunTool({relay, "--emit=astext"});
  ASSERT_EQ(again.exit_code, 0) << again.first_err_line();
  EXPECT_EQ(again.err, "");
  EXPECT_TRUE(again.out == ReadFile(relay)) << "the re-printed module differs";
}

}  // namespace
}  // namespace relay_opt::testing
