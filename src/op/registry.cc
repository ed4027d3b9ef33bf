#include "relaypass/op/registry.h"

#include "families.h"

namespace relaypass::op {

void RegisterBuiltinOps(ir::OpRegistry& registry) {
  op::OpRegistry r(registry);
  op::RegisterTensorOps(r);
  op::RegisterNNOps(r);
  op::RegisterTransformOps(r);
  op::RegisterReshapeLikeOp(r);
  op::RegisterRandomOps(r);
  op::RegisterReduceOps(r);
  op::RegisterIndexingOps(r);
  op::RegisterImageOps(r);
  op::RegisterFastMathOps(r);
  op::RegisterStackOp(r);
  op::RegisterAnnotationOps(r);
  op::RegisterDebugOp(r);
  op::RegisterSparseOps(r);
  op::RegisterRangeOps(r);
  op::RegisterUniqueOps(r);
  op::RegisterAdvIndexOp(r);
  op::RegisterStridedSetOp(r);
  op::RegisterSignalOps(r);
  op::RegisterVisionOps(r);
  op::RegisterDeformableConvOp(r);
  op::RegisterDynOps(r);
}

OpRegistry& OpRegistry::Global() {
  static OpRegistry registry(ir::OpRegistry::Global());
  return registry;
}

namespace {
const char kOpDefTag = 0;  // its address marks op::OpDef records (ir::OpDef::derived_tag)
}  // namespace

OpDef::OpDef() {
  derived_tag = &kOpDefTag;
}

OpDef& OpRegistry::Register(const std::string& name) {
  auto def = std::make_unique<OpDef>();
  def->name = name;
  OpDef& ref = *def;
  registry_.Register(std::move(def));
  return ref;
}

const OpDef* OpRegistry::Find(const std::string& name) const {
  return Def(registry_.Find(name));
}

const OpDef* Def(const ir::OpDef* def) {
  return def && def->derived_tag == &kOpDefTag ? static_cast<const OpDef*>(def) : nullptr;
}

const OpDef* Def(const ir::OpNode* op) {
  return op ? Def(op->def) : nullptr;
}

}  // namespace relaypass::op
