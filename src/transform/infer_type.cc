#include "relaypass/transform/infer_type.h"

#include "relaypass/ir/type_infer.h"

namespace relaypass::transform {

Pass InferType() {
  static const Pass pass = CreateModulePass(
      [](const ir::IRModule& mod, const PassContext&) { return ir::InferTypes(mod); }, 0,
      "InferType");
  return pass;
}

}  // namespace relaypass::transform
