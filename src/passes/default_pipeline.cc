#include "relaypass/passes/default_pipeline.h"

#include "relaypass/transform/registry.h"
#include "relaypass/transform/sequential.h"

namespace relaypass::passes {

namespace {

// OptimizeImpl appends these to the prefix (SplitArgs, for llvm a no-op, is left out).
const std::vector<std::string>& OptimizeSuffixNames() {
  static const std::vector<std::string> names = {"PlanDevices", "FuseOps"};
  return names;
}

}  // namespace

const std::vector<std::string>& BuildPrefixNames() {
  static const std::vector<std::string> names = {
      "RemoveUnusedFunctions",
      "ToBasicBlockNormalForm",
      "QnnLegalize",  // TVM's qnn::transform::Legalize (src/qnn)
      "Legalize",
      "SimplifyInference",
      "EliminateCommonSubexpr",
      "CombineParallelConv2D",
      "CombineParallelDense",
      "CombineParallelBatchMatmul",
      "FoldConstant",
      "FoldScaleAxis",
      "SimplifyExpr",
      "CanonicalizeCast",
      "CanonicalizeOps",
      "FlattenAtrousConv",
      "InferType",
      "AlterOpLayout",
      "SimplifyExprPostAlterOp",
      "FastMath",
      "FoldConstant",
  };
  return names;
}

std::vector<std::string> DefaultPipelineNames() {
  const transform::PassRegistry& registry = transform::PassRegistry::Global();
  std::vector<std::string> names;
  for (const std::string& name : BuildPrefixNames()) {
    if (registry.Find(name)) names.push_back(name);
  }
  for (const std::string& name : OptimizeSuffixNames()) {
    if (registry.Find(name)) names.push_back(name);
  }
  return names;
}

std::vector<std::string> DefaultPipelineMissing() {
  const transform::PassRegistry& registry = transform::PassRegistry::Global();
  std::vector<std::string> missing;
  for (const std::string& name : BuildPrefixNames()) {
    if (!registry.Find(name)) missing.push_back(name);
  }
  for (const std::string& name : OptimizeSuffixNames()) {
    if (!registry.Find(name)) missing.push_back(name);
  }
  return missing;
}

transform::Pass DefaultPipeline() {
  std::vector<transform::Pass> passes;
  for (const std::string& name : DefaultPipelineNames()) {
    passes.push_back(transform::CreatePass(name));
  }
  return transform::Sequential(std::move(passes));
}

}  // namespace relaypass::passes
