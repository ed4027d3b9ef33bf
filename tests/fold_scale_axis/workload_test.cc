// The realistic pipeline on the built-in networks with bound parameters: SimplifyInference,
// FoldConstant, then FoldScaleAxis at opt_level 3. Batch norms become multiply/add by constants;
// FoldScaleAxis folds the multiplies into the convolution weights and the numbers stay the same.
#include <gtest/gtest.h>

#include "relaypass/ir/bind.h"
#include "relaypass/ir/structural.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/passes/fold_constant.h"
#include "relaypass/passes/fold_scale_axis.h"
#include "relaypass/passes/simplify_inference.h"
#include "relaypass/transform/sequential.h"
#include "relaypass/workloads/workloads.h"
#include "test_util.h"

namespace relaypass::passes {
namespace {

using namespace testing;  // NOLINT

struct Folded {
  ir::IRModule bound;       // the network with its parameters bound
  ir::IRModule simplified;  // after SimplifyInference and FoldConstant
  ir::IRModule folded;      // after FoldScaleAxis
};

Folded Fold(const std::string& name, const workloads::WorkloadOptions& options = {}) {
  workloads::Workload w = workloads::GetWorkload(name, options);
  ir::IRModule bound;
  bound.Add("main", ir::BindParamsByName(w.mod.Lookup("main"), w.params));
  bound = ir::InferTypes(bound);
  ir::IRModule simplified =
      RunAtLevel(transform::Sequential({SimplifyInference(), FoldConstant()}), bound, 3);
  size_t hash = ir::StructuralHash(simplified);
  ir::IRModule folded = RunAtLevel(FoldScaleAxis(), simplified, 3);
  EXPECT_EQ(ir::StructuralHash(simplified), hash) << "the input module changed";
  return {bound, simplified, folded};
}

// The outputs are softmax probabilities near 1e-3: a tight absolute tolerance.
constexpr double kRtol = 1e-5;
constexpr double kAtol = 1e-7;

// The multiplies left: one per batch norm whose scale cannot reach a conv or dense.
void ExpectFoldedAndEqual(const Folded& f, size_t multiplies_left) {
  EXPECT_EQ(CountOp(f.folded, "multiply"), multiplies_left)
      << "before: " << CountOp(f.simplified, "multiply");
  EXPECT_LT(multiplies_left, CountOp(f.simplified, "multiply"));
  ExpectSameResults(f.bound, f.folded, 3, kRtol, kAtol);
}

// The final batch norm before global_avg_pool keeps its multiply: nothing there can absorb it.
TEST(FoldScaleAxisWorkloadTest, ResNet18) {
  ExpectFoldedAndEqual(Fold("resnet-18"), 1);
}

TEST(FoldScaleAxisWorkloadTest, ResNet18NHWC) {
  ExpectFoldedAndEqual(Fold("resnet-18", {.layout = "NHWC"}), 1);
}

TEST(FoldScaleAxisWorkloadTest, ResNet50) {
  ExpectFoldedAndEqual(Fold("resnet-50"), 1);
}

// Every batch norm follows a conv, so backward folding takes them all.
TEST(FoldScaleAxisWorkloadTest, MobileNet) {
  ExpectFoldedAndEqual(Fold("mobilenet"), 0);
}

// As in TVM's mobilenet, the first batch norm of the NHWC network normalises axis 1 (its scale is
// (112, 1, 1), along H): it cannot be folded into the conv's output channels.
TEST(FoldScaleAxisWorkloadTest, MobileNetNHWC) {
  ExpectFoldedAndEqual(Fold("mobilenet", {.layout = "NHWC"}), 1);
}

}  // namespace
}  // namespace relaypass::passes
