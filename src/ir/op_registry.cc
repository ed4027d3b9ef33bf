#include "relaypass/ir/op_registry.h"

#include "relaypass/support/error.h"
#include "relaypass/support/registry_installers.h"

namespace relaypass::ir {

namespace {
support::RegistryInstallers<OpRegistry>& Installers() {
  static auto* installers = new support::RegistryInstallers<OpRegistry>();  // never destroyed
  return *installers;
}
}  // namespace

OpRegistry& OpRegistry::Global() {
  // Built once, on first use; C++ guarantees thread-safe initialisation of this static.
  static OpRegistry* registry = [] {
    auto* r = new OpRegistry();
    Installers().InstallInto(*r);
    return r;
  }();
  return *registry;
}

void OpRegistry::AddInstaller(void (*install)(OpRegistry&)) {
  Installers().Add(install);
}

OpDef& OpRegistry::Register(std::unique_ptr<OpDef> def) {
  if (!def || def->name.empty()) throw InternalError("operator registered without a name");
  const std::string name = def->name;
  if (ops_.count(name)) throw InternalError("operator " + name + " registered twice");
  OpDef& ref = *def;
  Op node = make_ref<OpNode>(name, def.get());
  ops_.emplace(name, Entry{std::move(def), std::move(node)});
  return ref;
}

const OpDef* OpRegistry::Find(const std::string& name) const {
  auto it = ops_.find(name);
  return it == ops_.end() ? nullptr : it->second.def.get();
}

Op OpRegistry::GetOp(const std::string& name) const {
  auto it = ops_.find(name);
  return it == ops_.end() ? Op() : it->second.node;
}

std::vector<std::string> OpRegistry::ListNames() const {
  std::vector<std::string> out;
  for (const auto& [name, entry] : ops_) out.push_back(name);
  return out;
}

Op GetOp(const std::string& name) {
  Op op = OpRegistry::Global().GetOp(name);
  if (!op) throw TypeError(UnknownOperatorMessage(name));
  return op;
}

std::string UnknownOperatorMessage(const std::string& name) {
  std::string message = "unknown operator " + name;
  if (OpRegistry::Global().ListNames().empty()) {
    message +=
        " (no operator is registered: a program linked with librelaypass.a needs "
        "-Wl,--undefined=relaypass_builtin_registrations, which the CMake target "
        "relaypass::relaypass and relaypass.pc add)";
  }
  return message;
}

}  // namespace relaypass::ir
