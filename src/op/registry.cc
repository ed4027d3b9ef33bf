#include "relaypass/op/registry.h"

#include "families.h"
#include "relaypass/support/error.h"

namespace relaypass::op {

OpRegistry& OpRegistry::Global() {
  // Built once, on first use; C++ guarantees thread-safe initialisation of this static.
  static OpRegistry* registry = [] {
    auto* r = new OpRegistry();
    RegisterTensorOps(*r);
    RegisterNNOps(*r);
    RegisterTransformOps(*r);
    RegisterReduceOps(*r);
    RegisterIndexingOps(*r);
    RegisterImageOps(*r);
    RegisterFastMathOps(*r);
    RegisterStackOp(*r);
    return r;
  }();
  return *registry;
}

OpDef& OpRegistry::Register(const std::string& name) {
  if (ops_.count(name)) throw InternalError("operator " + name + " registered twice");
  auto def = std::make_unique<OpDef>();
  def->name = name;
  OpDef& ref = *def;
  ir::Op node = ir::make_ref<ir::OpNode>(name, def.get());
  ops_.emplace(name, Entry{std::move(def), std::move(node)});
  return ref;
}

const OpDef* OpRegistry::Find(const std::string& name) const {
  auto it = ops_.find(name);
  return it == ops_.end() ? nullptr : it->second.def.get();
}

ir::Op OpRegistry::GetOp(const std::string& name) const {
  auto it = ops_.find(name);
  return it == ops_.end() ? ir::Op() : it->second.node;
}

std::vector<std::string> OpRegistry::ListNames() const {
  std::vector<std::string> out;
  for (const auto& [name, entry] : ops_) out.push_back(name);
  return out;
}

ir::Op GetOp(const std::string& name) {
  ir::Op op = OpRegistry::Global().GetOp(name);
  if (!op) throw TypeError("unknown operator " + name);
  return op;
}

}  // namespace relaypass::op
