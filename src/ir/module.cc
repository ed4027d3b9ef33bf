#include "relaypass/ir/module.h"

#include "relaypass/ir/visitor.h"

namespace relaypass::ir {

IRModule::IRModule() : impl_(std::make_shared<Impl>()) {}

IRModule IRModule::FromExpr(const Expr& expr, const std::string& name) {
  IRModule mod;
  Function func;
  if (auto* f = expr.as<FunctionNode>()) {
    func = Function(f);
  } else {
    func = MakeFunction(FreeVars(expr), expr);
  }
  mod.Add(name, func);
  return mod;
}

std::vector<std::pair<GlobalVar, Function>> IRModule::functions() const {
  std::vector<std::pair<GlobalVar, Function>> out;
  out.reserve(impl_->functions.size());
  for (const auto& [name, entry] : impl_->functions) out.emplace_back(entry.gv, entry.func);
  return out;
}

size_t IRModule::size() const {
  return impl_->functions.size();
}

bool IRModule::Contains(const std::string& name) const {
  return impl_->functions.count(name) != 0;
}

GlobalVar IRModule::GetGlobalVar(const std::string& name) const {
  auto it = impl_->functions.find(name);
  if (it == impl_->functions.end()) throw InternalError("module has no function @" + name);
  return it->second.gv;
}

Function IRModule::Lookup(const std::string& name) const {
  auto it = impl_->functions.find(name);
  if (it == impl_->functions.end()) throw InternalError("module has no function @" + name);
  return it->second.func;
}

void IRModule::Detach() {
  if (impl_.use_count() > 1) impl_ = std::make_shared<Impl>(*impl_);
}

void IRModule::Add(const GlobalVar& gv, const Function& func) {
  Detach();
  auto it = impl_->functions.find(gv->name_hint);
  if (it != impl_->functions.end()) {
    if (it->second.func.same_as(func)) return;
    it->second.func = func;
    it->second.type_inferred = false;
  } else {
    impl_->functions.emplace(gv->name_hint, Entry{gv, func});
  }
}

void IRModule::Add(const std::string& name, const Function& func) {
  auto it = impl_->functions.find(name);
  Add(it != impl_->functions.end() ? it->second.gv : MakeGlobalVar(name), func);
}

void IRModule::Remove(const std::string& name) {
  Detach();
  impl_->functions.erase(name);
  // A caller of the removed function is no longer well typed.
  for (auto& [n, entry] : impl_->functions) entry.type_inferred = false;
}

bool IRModule::AllTypeInferred() const {
  if (impl_->functions.empty()) return false;
  for (const auto& [name, entry] : impl_->functions) {
    if (!entry.type_inferred) return false;
  }
  return true;
}

bool IRModule::IsTypeInferred(const Function& func) const {
  if (!AllTypeInferred()) return false;
  for (const auto& [name, entry] : impl_->functions) {
    if (entry.func.same_as(func)) return true;
  }
  return false;
}

void IRModule::MarkTypeInferred() {
  Detach();
  for (auto& [name, entry] : impl_->functions) entry.type_inferred = true;
}

}  // namespace relaypass::ir
