#include "relaypass/ir/module.h"

#include <functional>

#include "relaypass/ir/type_vars.h"
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

namespace {

void CheckNoFreeTypeVars(const std::string& name, const Function& func) {
  std::vector<Type> free = FreeTypeVars(func);
  if (free.empty()) return;
  std::string names;
  for (const Type& t : free) {
    names += (names.empty() ? "" : ", ") + static_cast<const TypeVarNode*>(t.get())->name_hint;
  }
  const std::string where = func->span.defined() ? func->span.ToString() + ": " : "";
  throw InternalError(where + "Function @" + name + " contains free type variables: [" + names +
                      "] (a type variable must be a type parameter of an enclosing function or "
                      "function type, as in fn [" +
                      static_cast<const TypeVarNode*>(free[0].get())->name_hint + "](...))");
}

}  // namespace

void IRModule::AddChecked(const GlobalVar& gv, const Function& func) {
  CheckNoFreeTypeVars(gv->name_hint, func);
  Add(gv, func);
}

void IRModule::AddChecked(const std::string& name, const Function& func) {
  CheckNoFreeTypeVars(name, func);
  Add(name, func);
}

void IRModule::Remove(const std::string& name) {
  Detach();
  impl_->functions.erase(name);
  // A caller of the removed function is no longer well typed.
  for (auto& [n, entry] : impl_->functions) entry.type_inferred = false;
}

std::vector<std::pair<Type, TypeData>> IRModule::type_definitions() const {
  std::vector<std::pair<Type, TypeData>> out;
  for (const auto& [name, entry] : impl_->type_defs) out.emplace_back(entry.var, entry.data);
  return out;
}

bool IRModule::ContainGlobalTypeVar(const std::string& name) const {
  return impl_->type_defs.count(name) != 0;
}

Type IRModule::GetGlobalTypeVar(const std::string& name) const {
  auto it = impl_->type_defs.find(name);
  if (it == impl_->type_defs.end()) {
    throw InternalError("Cannot find global type var " + name + " in the Module");
  }
  return it->second.var;
}

namespace {
const std::string& GlobalTypeVarName(const Type& var) {
  auto* gtv = var.as<GlobalTypeVarNode>();
  if (!gtv) throw InternalError("a type definition's name must be a GlobalTypeVar");
  return gtv->name_hint;
}
}  // namespace

void IRModule::AddTypeDef(const Type& var, const TypeData& type, bool update) {
  const std::string& name = GlobalTypeVarName(var);
  if (!type) throw InternalError("AddTypeDef: null TypeData");
  if (!update && impl_->type_defs.count(name)) {
    throw InternalError("Duplicate global type definition name " + name);
  }
  Detach();
  impl_->type_defs[name] = TypeDefEntry{var, type};
  // TVM's tags: the name's hash in the most significant byte, the constructor's index below.
  int32_t prefix = static_cast<int32_t>((std::hash<std::string>()(name) & 0xff) << 24);
  for (size_t i = 0; i < type->constructors.size(); ++i) {
    const Constructor& c = type->constructors[i];
    int32_t tag = prefix | static_cast<int32_t>(i);
    // Tags are the module's numbering of a constructor it was given (as TVM's, which sets it on
    // the shared node).
    const_cast<ConstructorNode*>(c.get())->tag = tag;
    impl_->tags[tag] = c;
  }
}

TypeData IRModule::LookupTypeDef(const Type& var) const {
  return LookupTypeDef(GlobalTypeVarName(var));
}

TypeData IRModule::LookupTypeDef(const std::string& name) const {
  auto it = impl_->type_defs.find(name);
  if (it == impl_->type_defs.end()) {
    throw InternalError("There is no definition of " + name);
  }
  return it->second.data;
}

Constructor IRModule::GetConstructor(const std::string& adt, const std::string& cons) const {
  TypeData data = LookupTypeDef(adt);
  for (const Constructor& c : data->constructors) {
    if (c->name_hint == cons) return c;
  }
  throw InternalError(adt + " does not contain constructor " + cons);
}

Constructor IRModule::LookupTag(int32_t tag) const {
  auto it = impl_->tags.find(tag);
  if (it == impl_->tags.end()) {
    throw InternalError("There is no constructor with the tag " + std::to_string(tag));
  }
  return it->second;
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
