// Relay types: tensors (static dims or Any), tuples, functions, references (the type of a mutable
// cell, RefType), the incomplete type that type inference solves for, and the types of algebraic
// data types: type variables, global type variables (an ADT's name) and type calls (`List[A]`).
// An ADT's definition, TypeData, is in expr.h (it holds the constructors, which are expressions).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "relaypass/ir/dtype.h"
#include "relaypass/ir/object.h"

namespace relaypass::ir {

enum class TypeKind : uint8_t {
  kTensor,
  kTuple,
  kFunc,
  kIncomplete,
  kRef,
  kTypeVar,
  kGlobalTypeVar,
  kTypeCall,
  kTypeData,
};

struct TypeNode : Object {
  explicit TypeNode(TypeKind k) : kind(k) {}
  const TypeKind kind;
  /// Computed once by each constructor from the children's (types are immutable), so neither
  /// IsComplete nor TypeHash walks a nested type: a tuple type can nest as deep as a graph of
  /// tuples (`%i = (%(i-1),)`), and walking it per node would be quadratic.
  bool complete = false;  // no IncompleteType inside
  size_t hash = 0;        // TypeHash
};
using Type = Ref<TypeNode>;

/// A dimension: a non-negative extent, kAnyDim for `?`, or a symbolic dimension.
using Dim = int64_t;
constexpr Dim kAnyDim = -1;

/// A symbolic dimension is TVM's tir.Var in a shape (`te.size_var("n")`): an extent the type does
/// not know, but the same wherever the same variable appears, so `(n, 3)` stays `(n, 3)` through
/// the relations that copy a dimension. Expressions of them (TVM's tir.Add, Mul, ...) are
/// symbolic dimensions too (ir/dim_expr.h); relations that do not compute TVM's give `?`. Its Dim
/// is kSymbolicDimBase minus its id, far below any value shape arithmetic on
/// `?` or a negative attribute can reach. Both `?` and symbolic dimensions are unknown extents.
constexpr Dim kSymbolicDimBase = -(Dim{1} << 40);
inline bool IsSymbolicDim(Dim d) {
  return d <= kSymbolicDimBase;
}
/// True for a non-negative extent: neither `?` nor symbolic.
inline bool IsKnownDim(Dim d) {
  return d >= 0;
}
/// A new symbolic dimension named `name` (two made with one name are still different ones, as two
/// tir.Vars are). Thread-safe; the names live as long as the process.
Dim NewSymbolicDim(const std::string& name);
/// The name of symbolic dimension `d` ("?" if `d` is not one this process made).
std::string SymbolicDimName(Dim d);
/// A dimension as TVM prints it: the extent, `?`, or the variable's name.
std::string DimText(Dim d);

struct TensorTypeNode : TypeNode {
  static constexpr TypeKind kKind = TypeKind::kTensor;
  TensorTypeNode(std::vector<Dim> s, DataType d);
  std::vector<Dim> shape;
  DataType dtype;
  int ndim() const { return static_cast<int>(shape.size()); }
  bool is_static() const;
};

struct TupleTypeNode : TypeNode {
  static constexpr TypeKind kKind = TypeKind::kTuple;
  explicit TupleTypeNode(std::vector<Type> f);
  std::vector<Type> fields;
};

/// A function type; `type_params` (TypeVars) make it polymorphic: `fn [A](A) -> A`.
struct FuncTypeNode : TypeNode {
  static constexpr TypeKind kKind = TypeKind::kFunc;
  FuncTypeNode(std::vector<Type> a, Type r, std::vector<Type> tp = {});
  std::vector<Type> arg_types;
  Type ret_type;
  std::vector<Type> type_params;
};

/// The type of a reference to a mutable cell holding a `value` (TVM's relay.RefType, printed
/// `ref(T)`).
struct RefTypeNode : TypeNode {
  static constexpr TypeKind kKind = TypeKind::kRef;
  explicit RefTypeNode(Type v);
  Type value;
};

/// An unknown type (`_` in text); each node is a distinct unknown.
struct IncompleteTypeNode : TypeNode {
  static constexpr TypeKind kKind = TypeKind::kIncomplete;
  IncompleteTypeNode();
};

/// TVM's TypeKind (include/tvm/ir/type.h), the kind of a type variable, with TVM's values.
enum class TypeVarKind : int {
  kType = 0,
  kShapeVar = 1,
  kBaseType = 2,
  kConstraint = 4,
  kAdtHandle = 5,
  kTypeData = 6,
};
/// TVM's name of a kind ("Type", "ShapeVar", ...), as its kind checker's errors print them.
const char* TypeVarKindName(TypeVarKind kind);

/// A type variable (TVM's TypeVar): the parameter of a polymorphic function or of an ADT. Two
/// type variables are the same only if they are the same node.
struct TypeVarNode : TypeNode {
  static constexpr TypeKind kKind = TypeKind::kTypeVar;
  TypeVarNode(std::string name, TypeVarKind k);
  std::string name_hint;
  TypeVarKind var_kind;
};

/// The name of an ADT (TVM's GlobalTypeVar, usually of kind kAdtHandle): `List` in `List[A]`.
/// A module maps it to the ADT's TypeData.
struct GlobalTypeVarNode : TypeNode {
  static constexpr TypeKind kKind = TypeKind::kGlobalTypeVar;
  GlobalTypeVarNode(std::string name, TypeVarKind k);
  std::string name_hint;
  TypeVarKind var_kind;
};

/// A type function applied to arguments (TVM's TypeCall): `List[int32]`.
struct TypeCallNode : TypeNode {
  static constexpr TypeKind kKind = TypeKind::kTypeCall;
  TypeCallNode(Type f, std::vector<Type> a);
  Type func;  // a GlobalTypeVar
  std::vector<Type> args;
};

Type TensorType(std::vector<Dim> shape, DataType dtype);
Type ScalarType(DataType dtype);  // rank-0 tensor
Type TupleType(std::vector<Type> fields);
Type FuncType(std::vector<Type> arg_types, Type ret_type, std::vector<Type> type_params = {});
Type IncompleteType();
Type RefType(Type value);
Type TypeVar(std::string name, TypeVarKind kind = TypeVarKind::kType);
Type GlobalTypeVar(std::string name, TypeVarKind kind = TypeVarKind::kAdtHandle);
Type TypeCall(Type func, std::vector<Type> args);

/// True if `t` contains no IncompleteType.
bool IsComplete(const Type& t);
/// Structural equality of types (dims, dtypes, nesting); incomplete types equal only themselves.
bool TypeEqual(const Type& a, const Type& b);
size_t TypeHash(const Type& t);

/// TVM's printed form: `Tensor[(1, 3), float32]`, `float32`, `(T1, T2)`, `fn (A) -> R`,
/// `fn [A](A) -> A`, `ref(T)`, `A` (a type variable), `List[A]` (a type call), `_`.
std::string TypeToString(const Type& t);
/// TypeToString's text appended to `out` (the printer writes a type per node this way).
void AppendTypeText(const Type& t, std::string& out);

}  // namespace relaypass::ir
