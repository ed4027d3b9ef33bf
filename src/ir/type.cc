#include "relaypass/ir/type.h"

#include <functional>
#include <vector>

namespace relaypass::ir {

bool TensorTypeNode::is_static() const {
  for (Dim d : shape) {
    if (d == kAnyDim) return false;
  }
  return true;
}

Type TensorType(std::vector<Dim> shape, DataType dtype) {
  return make_ref<TensorTypeNode>(std::move(shape), dtype);
}
Type ScalarType(DataType dtype) {
  return TensorType({}, dtype);
}
Type TupleType(std::vector<Type> fields) {
  return make_ref<TupleTypeNode>(std::move(fields));
}
Type FuncType(std::vector<Type> arg_types, Type ret_type) {
  return make_ref<FuncTypeNode>(std::move(arg_types), std::move(ret_type));
}
Type IncompleteType() {
  return make_ref<IncompleteTypeNode>();
}

// Types nest only as deep as the user writes them (tuples of tuples), never with graph size, so
// plain recursion is fine here.
bool IsComplete(const Type& t) {
  if (!t) return false;
  switch (t->kind) {
    case TypeKind::kTensor:
      return true;
    case TypeKind::kIncomplete:
      return false;
    case TypeKind::kTuple:
      for (const Type& f : t.as<TupleTypeNode>()->fields) {
        if (!IsComplete(f)) return false;
      }
      return true;
    case TypeKind::kFunc: {
      auto* f = t.as<FuncTypeNode>();
      for (const Type& a : f->arg_types) {
        if (!IsComplete(a)) return false;
      }
      return IsComplete(f->ret_type);
    }
  }
  return false;
}

static bool TypeListEqual(const std::vector<Type>& a, const std::vector<Type>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!TypeEqual(a[i], b[i])) return false;
  }
  return true;
}

bool TypeEqual(const Type& a, const Type& b) {
  if (a.same_as(b)) return true;
  if (!a || !b || a->kind != b->kind) return false;
  switch (a->kind) {
    case TypeKind::kTensor: {
      auto* x = a.as<TensorTypeNode>();
      auto* y = b.as<TensorTypeNode>();
      return x->dtype == y->dtype && x->shape == y->shape;
    }
    case TypeKind::kTuple:
      return TypeListEqual(a.as<TupleTypeNode>()->fields, b.as<TupleTypeNode>()->fields);
    case TypeKind::kFunc: {
      auto* x = a.as<FuncTypeNode>();
      auto* y = b.as<FuncTypeNode>();
      return TypeListEqual(x->arg_types, y->arg_types) && TypeEqual(x->ret_type, y->ret_type);
    }
    case TypeKind::kIncomplete:
      return false;
  }
  return false;
}

static size_t Combine(size_t seed, size_t v) {
  return seed ^ (v + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}

size_t TypeHash(const Type& t) {
  if (!t) return 0;
  size_t h = static_cast<size_t>(t->kind) + 1;
  switch (t->kind) {
    case TypeKind::kTensor: {
      auto* x = t.as<TensorTypeNode>();
      h = Combine(h, std::hash<std::string>()(x->dtype.ToString()));
      for (Dim d : x->shape) h = Combine(h, std::hash<int64_t>()(d));
      return h;
    }
    case TypeKind::kTuple:
      for (const Type& f : t.as<TupleTypeNode>()->fields) h = Combine(h, TypeHash(f));
      return h;
    case TypeKind::kFunc: {
      auto* f = t.as<FuncTypeNode>();
      for (const Type& a : f->arg_types) h = Combine(h, TypeHash(a));
      return Combine(h, TypeHash(f->ret_type));
    }
    case TypeKind::kIncomplete:
      return Combine(h, std::hash<const void*>()(t.get()));
  }
  return h;
}

std::string TypeToString(const Type& t) {
  if (!t) return "_";
  switch (t->kind) {
    case TypeKind::kTensor: {
      auto* x = t.as<TensorTypeNode>();
      if (x->shape.empty()) return x->dtype.ToString();
      std::string out = "Tensor[(";
      for (size_t i = 0; i < x->shape.size(); ++i) {
        if (i) out += ", ";
        out += x->shape[i] == kAnyDim ? "?" : std::to_string(x->shape[i]);
      }
      return out + "), " + x->dtype.ToString() + "]";
    }
    case TypeKind::kTuple: {
      auto& fields = t.as<TupleTypeNode>()->fields;
      std::string out = "(";
      for (size_t i = 0; i < fields.size(); ++i) {
        if (i) out += ", ";
        out += TypeToString(fields[i]);
      }
      if (fields.size() == 1) out += ",";
      return out + ")";
    }
    case TypeKind::kFunc: {
      auto* f = t.as<FuncTypeNode>();
      std::string out = "fn (";
      for (size_t i = 0; i < f->arg_types.size(); ++i) {
        if (i) out += ", ";
        out += TypeToString(f->arg_types[i]);
      }
      return out + ") -> " + TypeToString(f->ret_type);
    }
    case TypeKind::kIncomplete:
      return "_";
  }
  return "_";
}

}  // namespace relaypass::ir
