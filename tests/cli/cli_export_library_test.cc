// relay-opt --export-library writes relay.build's result (docs/artifact.md); relay-opt FILE --run
// runs it without the model, with the model's weights inside.
#include <gtest/gtest.h>

#include <filesystem>

#include "cli_test_util.h"
#include "relaypass/eval/allclose.h"
#include "relaypass/tools/npy.h"
#include "run_tool.h"

namespace relay_opt::testing {
namespace {

namespace fs = std::filesystem;

const fs::path kSqueezeNet = fs::path(RELAYPASS_TEST_DATA) / "onnx" / "models" / "squeezenet1_1";

TEST(CliExportLibraryTest, TheExportedModelRunsAloneAndAgreesWithOnnxRuntime) {
  TempDir dir;
  const std::string lib = dir.path("squeezenet.so");
  const ToolResult made = RunTool(
      {(kSqueezeNet / "model.onnx").string(), "-O3", "--export-library=" + lib, "--emit=none"});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  const ToolResult run =
      RunTool({lib, "--run", "--input=input=" + (kSqueezeNet / "input.npy").string(),
               "--output=" + dir.path("out.npy"), "--emit=none"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  // output.npy is ONNX Runtime's answer on input.npy (tests/data/onnx/models/README.md).
  const relaypass::eval::CloseResult r =
      relaypass::eval::AllClose(relaypass::tools::ReadNpy(dir.path("out.npy")),
                                relaypass::tools::ReadNpy((kSqueezeNet / "output.npy").string()),
                                relaypass::eval::Tolerance{1e-4, 1e-5});
  EXPECT_TRUE(r.ok) << r.message;
  // The module inside is the optimized one: fused functions, no parameters but the input.
  const ToolResult text = RunTool({lib});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("Primitive=1"), std::string::npos);
  EXPECT_NE(text.out.find("def @main(%input: Tensor[(1, 3, 224, 224), float32]"),
            std::string::npos);
}

TEST(CliExportLibraryTest, ADamagedFileIsAnErrorNamingIt) {
  TempDir dir;
  const std::string lib = dir.path("lib.so");
  ASSERT_EQ(RunTool({"--workload=chain-4", "--export-library=" + lib, "--emit=none"}).exit_code, 0);
  std::string bytes = ReadFile(lib);
  WriteFile(dir.path("cut.so"), bytes.substr(0, bytes.size() / 2));
  ExpectError(RunTool({dir.path("cut.so"), "--run", "--random-inputs"}),
              "relay-opt: error: " + dir.path("cut.so") + ": byte ");
}

}  // namespace
}  // namespace relay_opt::testing
