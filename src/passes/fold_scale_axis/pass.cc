// The FoldScaleAxis passes and their registration.
#include "backward.h"
#include "forward.h"
#include "relaypass/passes/fold_constant.h"
#include "relaypass/passes/fold_scale_axis.h"
#include "relaypass/transform/sequential.h"

namespace relaypass::passes {

ir::Function BackwardFoldScaleAxisFunction(const ir::Function& func) {
  return fold_scale_axis::BackwardFold(func).downcast<ir::FunctionNode>();
}

ir::Function ForwardFoldScaleAxisFunction(const ir::Function& func) {
  return fold_scale_axis::ForwardFold(func).downcast<ir::FunctionNode>();
}

transform::Pass BackwardFoldScaleAxis() {
  return transform::CreateFunctionPass(
      [](const ir::Function& func, const ir::IRModule&, const transform::PassContext&) {
        return BackwardFoldScaleAxisFunction(func);
      },
      3, "BackwardFoldScaleAxis", {"InferType"});
}

transform::Pass ForwardFoldScaleAxis() {
  return transform::CreateFunctionPass(
      [](const ir::Function& func, const ir::IRModule&, const transform::PassContext&) {
        return ForwardFoldScaleAxisFunction(func);
      },
      3, "ForwardFoldScaleAxis", {"InferType"});
}

transform::Pass FoldScaleAxis() {
  return transform::Sequential({BackwardFoldScaleAxis(), ForwardFoldScaleAxis(), FoldConstant()},
                               "FoldScaleAxis");
}

void RegisterFoldScaleAxis(transform::PassRegistry& registry) {
  registry.Register({"FoldScaleAxis",
                     {},
                     [](const transform::PassOptions&) { return FoldScaleAxis(); },
                     "folds per-channel scaling into conv2d/dense weights, both directions"});
  registry.Register({"BackwardFoldScaleAxis",
                     {},
                     [](const transform::PassOptions&) { return BackwardFoldScaleAxis(); },
                     "pushes a scale of a conv2d/dense result into its weight"});
  registry.Register({"ForwardFoldScaleAxis",
                     {},
                     [](const transform::PassOptions&) { return ForwardFoldScaleAxis(); },
                     "pulls a scale of a conv2d/dense input into its weight"});
}

}  // namespace relaypass::passes
