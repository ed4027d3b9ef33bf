// Relay types: tensors (static dims or Any), tuples, functions, references (the type of a mutable
// cell, RefType), and the incomplete type that type inference solves for.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "relaypass/ir/dtype.h"
#include "relaypass/ir/object.h"

namespace relaypass::ir {

enum class TypeKind : uint8_t { kTensor, kTuple, kFunc, kIncomplete, kRef };

struct TypeNode : Object {
  explicit TypeNode(TypeKind k) : kind(k) {}
  const TypeKind kind;
  // Computed once by each constructor from the children's (types are immutable), so neither
  // IsComplete nor TypeHash walks a nested type: a tuple type can nest as deep as a graph of
  // tuples (`%i = (%(i-1),)`), and walking it per node would be quadratic.
  bool complete = false;  // no IncompleteType inside
  size_t hash = 0;        // TypeHash
};
using Type = Ref<TypeNode>;

// A dimension: a non-negative extent, or kAnyDim for `?`.
using Dim = int64_t;
constexpr Dim kAnyDim = -1;

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

struct FuncTypeNode : TypeNode {
  static constexpr TypeKind kKind = TypeKind::kFunc;
  FuncTypeNode(std::vector<Type> a, Type r);
  std::vector<Type> arg_types;
  Type ret_type;
};

// The type of a reference to a mutable cell holding a `value` (TVM's relay.RefType, printed
// `ref(T)`).
struct RefTypeNode : TypeNode {
  static constexpr TypeKind kKind = TypeKind::kRef;
  explicit RefTypeNode(Type v);
  Type value;
};

// An unknown type (`_` in text); each node is a distinct unknown.
struct IncompleteTypeNode : TypeNode {
  static constexpr TypeKind kKind = TypeKind::kIncomplete;
  IncompleteTypeNode();
};

Type TensorType(std::vector<Dim> shape, DataType dtype);
Type ScalarType(DataType dtype);  // rank-0 tensor
Type TupleType(std::vector<Type> fields);
Type FuncType(std::vector<Type> arg_types, Type ret_type);
Type IncompleteType();
Type RefType(Type value);

// True if `t` contains no IncompleteType.
bool IsComplete(const Type& t);
// Structural equality of types (dims, dtypes, nesting); incomplete types equal only themselves.
bool TypeEqual(const Type& a, const Type& b);
size_t TypeHash(const Type& t);

// TVM's printed form: `Tensor[(1, 3), float32]`, `float32`, `(T1, T2)`, `fn (A) -> R`, `ref(T)`,
// `_`.
std::string TypeToString(const Type& t);
// TypeToString's text appended to `out` (the printer writes a type per node this way).
void AppendTypeText(const Type& t, std::string& out);

}  // namespace relaypass::ir
