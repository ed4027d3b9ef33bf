// relay-opt --run and --verify-each use the model's own weights: an ONNX model's initializers
// and a workload's parameters, with or without --bind-params. A parameter without a value is an
// error unless --random-inputs asks for seeded random values, which stderr then says.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "cli_test_util.h"
#include "relaypass/eval/allclose.h"
#include "relaypass/tools/npy.h"
#include "run_tool.h"

namespace relay_opt::testing {
namespace {

namespace fs = std::filesystem;

const fs::path kSqueezeNet = fs::path(RELAYPASS_TEST_DATA) / "onnx" / "models" / "squeezenet1_1";

// The model's answer: output.npy is ONNX Runtime's on input.npy (tests/data/onnx/models).
void ExpectOnnxRuntimesAnswer(const std::string& npy) {
  const relaypass::ir::NDArray got = relaypass::tools::ReadNpy(npy);
  const relaypass::ir::NDArray want = relaypass::tools::ReadNpy((kSqueezeNet / "output.npy"));
  const relaypass::eval::CloseResult r =
      relaypass::eval::AllClose(got, want, relaypass::eval::Tolerance{1e-4, 1e-5});
  EXPECT_TRUE(r.ok) << r.message;
}

TEST(CliModelWeightsTest, OnnxRunUsesTheInitializersWithoutBindParams) {
  TempDir dir;
  for (const char* pipeline : {"--pipeline=", "--pipeline=default"}) {
    SCOPED_TRACE(pipeline);
    const ToolResult r = RunTool({(kSqueezeNet / "model.onnx").string(), pipeline, "-O3", "--run",
                                  "--input=input=" + (kSqueezeNet / "input.npy").string(),
                                  "--output=" + dir.path("out.npy"), "--emit=none"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err.find("random"), std::string::npos) << r.err;
    ExpectOnnxRuntimesAnswer(dir.path("out.npy"));
  }
}

TEST(CliModelWeightsTest, VerifyEachRunsOnTheInitializers) {
  const ToolResult r =
      RunTool({(kSqueezeNet / "model.onnx").string(), "--pipeline=default", "-O3", "--verify-each",
               "--input=input=" + (kSqueezeNet / "input.npy").string(), "--emit=none"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;
}

TEST(CliModelWeightsTest, AParameterWithoutAValueIsAnError) {
  // squeezenet's graph input has no value from the model.
  const ToolResult onnx = RunTool({(kSqueezeNet / "model.onnx").string(), "--run"});
  EXPECT_EQ(onnx.exit_code, 1);
  EXPECT_EQ(onnx.out, "");
  EXPECT_EQ(onnx.first_err_line(),
            "relay-opt: error: --run: main's parameter %input has no value from the model: give "
            "each with --input=NAME=FILE.npy, or --random-inputs for seeded random values (which "
            "are not the model's answer)");
  const ToolResult text = RunTool({"--run"}, "def @main(%a: float32, %b: float32) { add(%a, %b) }");
  EXPECT_EQ(text.exit_code, 1);
  EXPECT_NE(text.first_err_line().find("main's parameters %a, %b have no value"), std::string::npos)
      << text.err;
}

TEST(CliModelWeightsTest, RandomInputsOnlyWhenAskedAndSaidOnStderr) {
  // The workload's weights are its own; only %data is random, and stderr names it.
  const ToolResult r =
      RunTool({"--workload=resnet-18", "--run", "--random-inputs", "--seed=3", "--emit=none"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err,
            "relay-opt: note: --random-inputs: seeded random values (--seed=3) for %data; the "
            "outputs are not the model's answer\n");
  // With --bind-params the same weights are constants: the same result, bit for bit (checksum).
  const ToolResult bound = RunTool({"--workload=resnet-18", "--bind-params", "--run",
                                    "--random-inputs", "--seed=3", "--emit=none"});
  ASSERT_EQ(bound.exit_code, 0) << bound.err;
  EXPECT_EQ(bound.out, r.out);
  ExpectError(RunTool({"--workload=chain-2", "--random-inputs"}),
              "relay-opt: error: --random-inputs applies to --run");
}

}  // namespace
}  // namespace relay_opt::testing
