// IRModule: global functions by name. A module value is immutable from the outside: updates
// return a new module that shares the unchanged functions (copy-on-write).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "relaypass/ir/expr.h"

namespace relaypass::ir {

class IRModule {
 public:
  IRModule();
  /// A module whose `main` is `expr` (wrapped in a function of its free vars if not a function).
  static IRModule FromExpr(const Expr& expr, const std::string& name = "main");

  /// Functions sorted by global name (the printing order).
  std::vector<std::pair<GlobalVar, Function>> functions() const;
  size_t size() const;
  bool Contains(const std::string& name) const;
  /// The global var named `name`; throws InternalError if absent.
  GlobalVar GetGlobalVar(const std::string& name) const;
  /// The function named `name`; throws InternalError if absent.
  Function Lookup(const std::string& name) const;
  Function Lookup(const GlobalVar& gv) const { return Lookup(gv->name_hint); }
  Function operator[](const std::string& name) const { return Lookup(name); }

  /// Adds or replaces the function named gv->name_hint (copy-on-write: other copies of this
  /// module are not affected). Reuses the module's existing GlobalVar of that name.
  void Add(const GlobalVar& gv, const Function& func);
  void Add(const std::string& name, const Function& func);
  /// Add as TVM's API adds (IRModule::Add with relay.ir.WarnIfMalformed): a function that uses a
  /// type variable it does not bind is an InternalError naming the variables ("contains free
  /// type variables"), and the module is left unchanged. Used where users hand functions in (the
  /// parser, the Python API); passes use Add.
  void AddChecked(const GlobalVar& gv, const Function& func);
  void AddChecked(const std::string& name, const Function& func);
  void Remove(const std::string& name);

  /// ADT definitions (TVM's IRModule type_definitions), sorted by name.
  std::vector<std::pair<Type, TypeData>> type_definitions() const;
  bool ContainGlobalTypeVar(const std::string& name) const;
  /// The GlobalTypeVar named `name`; throws InternalError if absent (TVM's message).
  Type GetGlobalTypeVar(const std::string& name) const;
  /// Adds the definition `type` of `var` and numbers its constructors' tags as TVM does (the
  /// name's hash in the top byte, the index below). Throws InternalError if `var` is defined and
  /// `update` is false.
  void AddTypeDef(const Type& var, const TypeData& type, bool update = false);
  TypeData LookupTypeDef(const Type& var) const;
  TypeData LookupTypeDef(const std::string& name) const;
  /// The constructor `cons` of ADT `adt`; throws InternalError if absent.
  Constructor GetConstructor(const std::string& adt, const std::string& cons) const;
  /// The constructor with tag `tag`; throws InternalError if absent.
  Constructor LookupTag(int32_t tag) const;

  /// Type inference bookkeeping. InferTypes marks its result; replacing a function (Add with a
  /// different function) or removing one clears the marks that could have gone stale. A module
  /// whose functions are all marked is exactly InferType's output, unchanged, so InferType
  /// returns it as it is instead of checking it again (TVM re-checks every time: the lever that
  /// makes a pipeline's many required InferType runs free).
  bool AllTypeInferred() const;
  void MarkTypeInferred();
  /// Whether `func` is one of this module's functions and the module is all InferType's output:
  /// checking `func` again would give it back as it is.
  bool IsTypeInferred(const Function& func) const;

  /// True if both handles share the same contents (cheap identity check).
  bool same_as(const IRModule& other) const { return impl_ == other.impl_; }

 private:
  struct Entry {
    GlobalVar gv;
    Function func;
    bool type_inferred = false;  // func is InferTypes' output for this module
  };
  struct TypeDefEntry {
    Type var;  // GlobalTypeVar
    TypeData data;
  };
  struct Impl {
    std::map<std::string, Entry> functions;
    std::map<std::string, TypeDefEntry> type_defs;
    std::map<int32_t, Constructor> tags;
  };
  void Detach();  // copy-on-write
  std::shared_ptr<Impl> impl_;
};

}  // namespace relaypass::ir
