#include "relaypass/passes/combine_parallel.h"

namespace relaypass::passes {

using transform::OptionType;
using transform::OptionValue;
using transform::PassOptions;

namespace {

int64_t MinBranches(const PassOptions& options, const char* pass) {
  const int64_t n = options.GetInt("min_num_branches");
  if (n < 0) {
    throw PassError(std::string(pass) + ": min_num_branches must not be negative, got " +
                    std::to_string(n));
  }
  return n;
}

transform::PassOption MinBranchesOption() {
  return {"min_num_branches", OptionType::kInt, OptionValue::Int(3),
          "the fewest branches a group needs to be combined"};
}

}  // namespace

void RegisterCombineParallel(transform::PassRegistry& registry) {
  registry.Register(
      {"CombineParallelConv2D",
       {MinBranchesOption()},
       [](const PassOptions& o) {
         return CombineParallelConv2D(MinBranches(o, "CombineParallelConv2D"));
       },
       "combines parallel conv2d branches on one input into one conv2d and strided_slices"});
  registry.Register(
      {"CombineParallelDense",
       {MinBranchesOption(),
        {"to_batch", OptionType::kBool, OptionValue::Bool(true),
         "combine into nn.batch_matmul (else into one dense)"}},
       [](const PassOptions& o) {
         return CombineParallelDense(MinBranches(o, "CombineParallelDense"), o.GetBool("to_batch"));
       },
       "combines parallel dense branches on one input into one batch_matmul (or dense)"});
  registry.Register({"CombineParallelBatchMatmul",
                     {MinBranchesOption()},
                     [](const PassOptions& o) {
                       return CombineParallelBatchMatmul(
                           MinBranches(o, "CombineParallelBatchMatmul"));
                     },
                     "combines parallel batch_matmul branches on one input into one batch_matmul"});
}

}  // namespace relaypass::passes
