#include "relaypass/passes/flatten_atrous_conv.h"

namespace relaypass::passes {

transform::Pass FlattenAtrousConv() {
  // The pattern starts at nn.space_to_batch_nd, an operator relaypass does not have.
  return transform::CreateFunctionPass([](const ir::Function& func, const ir::IRModule&,
                                          const transform::PassContext&) { return func; },
                                       0, "FlattenAtrousConv", {"InferType"});
}

void RegisterFlattenAtrousConv(transform::PassRegistry& registry) {
  registry.Register({"FlattenAtrousConv",
                     {},
                     [](const transform::PassOptions&) { return FlattenAtrousConv(); },
                     "folds space_to_batch_nd/conv2d/batch_to_space_nd into a dilated conv2d "
                     "(relaypass has no such ops: unchanged)"});
}

}  // namespace relaypass::passes
