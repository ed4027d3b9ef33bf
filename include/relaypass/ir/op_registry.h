// The operator registry of the IR core (TVM keeps `Op` and its registry in tvm/ir): the generic
// record of an operator that type inference and the passes read (arity, attrs schema, type
// relation, fusion pattern, flags). It knows no particular operator: the layers above add
// installers that fill it (the library's operators: op::RegisterBuiltinOps, installed by
// src/builtins) and extend the record with their own fields (kernel, layout rules) by deriving
// from OpDef.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "relaypass/ir/attrs.h"
#include "relaypass/ir/expr.h"
#include "relaypass/ir/type.h"

namespace relaypass::ir {

/// TVM's TOpPattern values; the order matters (fusion compares them).
enum class OpPattern : int {
  kElemWise = 0,
  kBroadcast = 1,
  kInjective = 2,
  kCommReduce = 3,
  kOutEWiseFusable = 4,
  kTuple = 7,
  kOpaque = 8,
};

/// What a type relation sees of one call: the argument types then the result type, each either
/// known (possibly partially) or an IncompleteType. A relation reads them through Resolve and
/// states facts with Assign; it returns false if it cannot decide yet (it will be re-run when more
/// is known) and true once everything it relates is settled.
class TypeRelationCall {
 public:
  virtual ~TypeRelationCall() = default;
  virtual size_t num_args() const = 0;
  /// The current knowledge of type `index` (index num_args() is the result).
  virtual Type Resolve(size_t index) const = 0;
  Type arg(size_t i) const { return Resolve(i); }
  Type result() const { return Resolve(num_args()); }
  /// Unifies type `index` with `type` (fills unknowns; a conflict is a TypeError).
  virtual void Assign(size_t index, const Type& type) = 0;
  void AssignResult(const Type& type) { Assign(num_args(), type); }
  virtual const Attrs& attrs() const = 0;
  virtual const std::string& op_name() const = 0;
  /// The expression of argument `index` where the caller has it (type inference does), else
  /// null: for relations whose result depends on a constant argument's value (TVM's arange reads
  /// the constants it also keeps in its attrs).
  virtual const Expr* arg_expr(size_t /*index*/) const { return nullptr; }
  /// Throws a TypeError that names the op and carries the call's location.
  [[noreturn]] void Fail(const std::string& message) const {
    ThrowTypeError(message);
    __builtin_unreachable();  // ThrowTypeError always throws
  }

 protected:
  virtual void ThrowTypeError(const std::string& message) const = 0;
};

using TypeRelation = std::function<bool(TypeRelationCall& call)>;

/// What the IR core knows of an operator. Polymorphic so that a layer above can register a
/// derived record and recover it with dynamic_cast.
struct OpDef {
  OpDef() = default;
  OpDef(const OpDef&) = delete;
  OpDef& operator=(const OpDef&) = delete;
  virtual ~OpDef() = default;

  std::string name;
  /// Number of arguments; -1 for variadic.
  int num_inputs = -1;
  /// The attrs type; null for ops without attrs.
  const AttrsSchema* attrs_schema = nullptr;
  TypeRelation type_relation;
  OpPattern pattern = OpPattern::kOpaque;
  bool is_reshape_op = false;  // TVM's TReshapeOp (reshape, expand_dims, squeeze, ...)
  bool stateful = false;       // TVM's TOpIsStateful
  std::string description;
  /// Set by a layer that registers records derived from OpDef (op::OpDef) to an address of its
  /// own, so that it tells its records apart in constant time (a dynamic_cast per call was a
  /// visible share of FoldConstant).
  const void* derived_tag = nullptr;
};

class OpRegistry {
 public:
  /// The process-wide registry, made on first use (thread-safe) and filled by the installers.
  static OpRegistry& Global();
  /// Adds a function that registers operators into Global() (support/registry_installers.h).
  static void AddInstaller(void (*install)(OpRegistry&));

  /// Registers `def` under def->name; throws if the name is empty or taken. The returned def may
  /// be filled in further only during registration.
  OpDef& Register(std::unique_ptr<OpDef> def);
  const OpDef* Find(const std::string& name) const;
  /// The unique Op node for `name`, or null if no such op.
  Op GetOp(const std::string& name) const;
  std::vector<std::string> ListNames() const;

 private:
  OpRegistry() = default;
  struct Entry {
    std::unique_ptr<OpDef> def;
    Op node;
  };
  std::map<std::string, Entry> ops_;
};

/// The Op node for a registered name; throws TypeError(UnknownOperatorMessage(name)) otherwise.
Op GetOp(const std::string& name);

/// "unknown operator NAME"; when no operator is registered at all, also how to link the library's
/// operators in (a program linked by hand with the static library and without
/// --undefined=relaypass_builtin_registrations).
std::string UnknownOperatorMessage(const std::string& name);

}  // namespace relaypass::ir
