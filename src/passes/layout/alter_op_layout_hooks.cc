// The process-wide table of AlterOpLayout hooks (TVM keeps them as the op attribute
// FTVMAlterOpLayout, with a priority level per registration): an OpHookTable.
#include <utility>

#include "relaypass/passes/alter_op_layout.h"

namespace relaypass::passes {

namespace {

OpHookTable<AlterOpLayoutFunc>& Table() {
  static OpHookTable<AlterOpLayoutFunc> table("RegisterAlterOpLayout", "FTVMAlterOpLayout");
  return table;
}

}  // namespace

AlterOpLayoutHook RegisterAlterOpLayout(const std::string& op_name, AlterOpLayoutFunc hook,
                                        int level) {
  return Table().Register(op_name, std::move(hook), level);
}

AlterOpLayoutFunc GetAlterOpLayout(const std::string& op_name) {
  return Table().Get(op_name);
}

}  // namespace relaypass::passes
