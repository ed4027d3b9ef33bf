// The real networks committed under tests/data/onnx/models/<name>/ (torchvision models exported
// by scripts/export-models.py with calibrated random weights; output.npy is ONNX Runtime's
// answer, written by scripts/ort-reference.js): each imports, runs on the evaluator before and
// after the default pipeline at -O3 (relay-opt's --pipeline=default), and agrees with ONNX
// Runtime within rtol 1e-4 / atol 1e-5. No PyTorch or ONNX Runtime is needed here.
#include <gtest/gtest.h>

#include <filesystem>

#include "pipeline.h"
#include "relaypass/eval/allclose.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/frontend/onnx.h"
#include "relaypass/tools/npy.h"
#include "relaypass/transform.h"

namespace relaypass::frontend {
namespace {

namespace fs = std::filesystem;

void ExpectAgrees(const ir::NDArray& got, const ir::NDArray& want, const std::string& where) {
  eval::CloseResult r = eval::AllClose(got, want, eval::Tolerance{1e-4, 1e-5});
  EXPECT_TRUE(r.ok) << where << ": " << r.message;
}

TEST(OnnxModelsTest, CommittedModelsAgreeWithOnnxRuntime) {
  const fs::path root = fs::path(RELAYPASS_TEST_DATA) / "onnx" / "models";
  if (!fs::exists(root)) GTEST_SKIP() << "no committed models";
  int checked = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(root)) {
    const fs::path dir = entry.path();
    if (!fs::exists(dir / "model.onnx")) continue;
    SCOPED_TRACE(dir.filename().string());
    const OnnxModel model = FromOnnxFile((dir / "model.onnx").string());
    ASSERT_EQ(model.input_names.size(), 1u);
    const ir::NDArray input = tools::ReadNpy((dir / "input.npy").string());
    const ir::NDArray want = tools::ReadNpy((dir / "output.npy").string());
    const std::vector<ir::NDArray> before = eval::RunMain(model.mod, {input});
    ASSERT_EQ(before.size(), 1u);
    ExpectAgrees(before[0], want, "before the pipeline");

    std::vector<transform::Pass> passes;
    for (const std::string& name : relay_opt::DefaultPipelineNames()) {
      passes.push_back(transform::CreatePass(name));
    }
    transform::PassContextOptions options;
    options.opt_level = 3;
    const transform::PassContext ctx(std::move(options));
    ir::IRModule optimized;
    {
      transform::PassContextScope scope(ctx);
      optimized = transform::Sequential(std::move(passes))(model.mod);
    }
    const std::vector<ir::NDArray> after = eval::RunMain(optimized, {input});
    ASSERT_EQ(after.size(), 1u);
    ExpectAgrees(after[0], want, "after --pipeline=default -O3");
    ++checked;
  }
  EXPECT_GE(checked, 1);
}

}  // namespace
}  // namespace relaypass::frontend
