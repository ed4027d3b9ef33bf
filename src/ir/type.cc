#include "relaypass/ir/type.h"

#include <charconv>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace relaypass::ir {

namespace {

size_t Combine(size_t seed, size_t v) {
  return seed ^ (v + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}

size_t ChildHash(const Type& t) {
  return t ? t->hash : 0;
}
bool ChildComplete(const Type& t) {
  return t && t->complete;
}

}  // namespace

TensorTypeNode::TensorTypeNode(std::vector<Dim> s, DataType d)
    : TypeNode(kKind), shape(std::move(s)), dtype(d) {
  complete = true;
  hash = static_cast<size_t>(kind) + 1;
  hash = Combine(hash, (static_cast<size_t>(dtype.code()) << 24) |
                           (static_cast<size_t>(dtype.bits()) << 16) |
                           static_cast<size_t>(dtype.lanes()));
  for (Dim dim : shape) hash = Combine(hash, std::hash<int64_t>()(dim));
}

TupleTypeNode::TupleTypeNode(std::vector<Type> f) : TypeNode(kKind), fields(std::move(f)) {
  complete = true;
  hash = static_cast<size_t>(kind) + 1;
  for (const Type& field : fields) {
    complete = complete && ChildComplete(field);
    hash = Combine(hash, ChildHash(field));
  }
}

FuncTypeNode::FuncTypeNode(std::vector<Type> a, Type r, std::vector<Type> tp)
    : TypeNode(kKind), arg_types(std::move(a)), ret_type(std::move(r)), type_params(std::move(tp)) {
  complete = ChildComplete(ret_type);
  hash = static_cast<size_t>(kind) + 1;
  for (const Type& arg : arg_types) {
    complete = complete && ChildComplete(arg);
    hash = Combine(hash, ChildHash(arg));
  }
  hash = Combine(hash, ChildHash(ret_type));
  for (const Type& p : type_params) hash = Combine(hash, ChildHash(p));
}

const char* TypeVarKindName(TypeVarKind kind) {
  switch (kind) {
    case TypeVarKind::kType:
      return "Type";
    case TypeVarKind::kShapeVar:
      return "ShapeVar";
    case TypeVarKind::kBaseType:
      return "BaseType";
    case TypeVarKind::kConstraint:
      return "Constraint";
    case TypeVarKind::kAdtHandle:
      return "AdtHandle";
    case TypeVarKind::kTypeData:
      return "TypeData";
  }
  return "?";
}

// Type variables are equal only to themselves (TypeEqual), but structural equality pairs a
// function's type parameters with another's (TVM's DefEqual): the hash leaves the identity out,
// so that two parses of one polymorphic function hash alike (StructuralHash uses this hash).
TypeVarNode::TypeVarNode(std::string name, TypeVarKind k)
    : TypeNode(kKind), name_hint(std::move(name)), var_kind(k) {
  complete = true;
  hash = Combine(static_cast<size_t>(kind) + 1, static_cast<size_t>(var_kind));
}

// Global type variables name a module's ADT: two with one name are the same ADT (a parsed
// module and the Python one built by name agree), so the name is the hash.
GlobalTypeVarNode::GlobalTypeVarNode(std::string name, TypeVarKind k)
    : TypeNode(kKind), name_hint(std::move(name)), var_kind(k) {
  complete = true;
  hash = Combine(static_cast<size_t>(kind) + 1, std::hash<std::string>()(name_hint));
}

TypeCallNode::TypeCallNode(Type f, std::vector<Type> a)
    : TypeNode(kKind), func(std::move(f)), args(std::move(a)) {
  complete = ChildComplete(func);
  hash = Combine(static_cast<size_t>(kind) + 1, ChildHash(func));
  for (const Type& arg : args) {
    complete = complete && ChildComplete(arg);
    hash = Combine(hash, ChildHash(arg));
  }
}

RefTypeNode::RefTypeNode(Type v) : TypeNode(kKind), value(std::move(v)) {
  complete = ChildComplete(value);
  hash = Combine(static_cast<size_t>(kind) + 1, ChildHash(value));
}

IncompleteTypeNode::IncompleteTypeNode() : TypeNode(kKind) {
  hash = Combine(static_cast<size_t>(kind) + 1, std::hash<const void*>()(this));
}

bool TensorTypeNode::is_static() const {
  for (Dim d : shape) {
    if (!IsKnownDim(d)) return false;
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
Type FuncType(std::vector<Type> arg_types, Type ret_type, std::vector<Type> type_params) {
  return make_ref<FuncTypeNode>(std::move(arg_types), std::move(ret_type), std::move(type_params));
}
Type TypeVar(std::string name, TypeVarKind kind) {
  return make_ref<TypeVarNode>(std::move(name), kind);
}
Type GlobalTypeVar(std::string name, TypeVarKind kind) {
  return make_ref<GlobalTypeVarNode>(std::move(name), kind);
}
Type TypeCall(Type func, std::vector<Type> args) {
  return make_ref<TypeCallNode>(std::move(func), std::move(args));
}
Type IncompleteType() {
  return make_ref<IncompleteTypeNode>();
}
Type RefType(Type value) {
  return make_ref<RefTypeNode>(std::move(value));
}

bool IsComplete(const Type& t) {
  return t && t->complete;
}

size_t TypeHash(const Type& t) {
  return ChildHash(t);
}

namespace {

// Whether x and y can be equal judging by themselves alone: the same node, or two tensor types
// that are equal, or two tuple or function types whose parts must still be compared (`descend`).
bool HeadsEqual(const TypeNode* x, const TypeNode* y, bool* descend) {
  *descend = false;
  if (x == y) return true;
  if (!x || !y || x->kind != y->kind || x->hash != y->hash) return false;
  switch (x->kind) {
    case TypeKind::kTensor: {
      auto* tx = static_cast<const TensorTypeNode*>(x);
      auto* ty = static_cast<const TensorTypeNode*>(y);
      return tx->dtype == ty->dtype && tx->shape == ty->shape;
    }
    case TypeKind::kTuple:
    case TypeKind::kFunc:
    case TypeKind::kRef:
    case TypeKind::kTypeCall:
      *descend = true;
      return true;
    case TypeKind::kIncomplete:
    case TypeKind::kTypeVar:
    case TypeKind::kTypeData:
      return false;  // distinct unknowns / variables / definitions: only the same node
    case TypeKind::kGlobalTypeVar:
      return static_cast<const GlobalTypeVarNode*>(x)->name_hint ==
             static_cast<const GlobalTypeVarNode*>(y)->name_hint;
  }
  return false;
}

}  // namespace

// Iterative: types can nest as deep as a graph of tuples. The common case (the same node, or two
// tensor types) is decided without the work stack, which would allocate on every call.
bool TypeEqual(const Type& a, const Type& b) {
  bool descend = false;
  if (!HeadsEqual(a.get(), b.get(), &descend)) return false;
  if (!descend) return true;
  std::vector<std::pair<const TypeNode*, const TypeNode*>> stack = {{a.get(), b.get()}};
  auto push_list = [&](const std::vector<Type>& x, const std::vector<Type>& y) {
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i) stack.emplace_back(x[i].get(), y[i].get());
    return true;
  };
  while (!stack.empty()) {
    auto [x, y] = stack.back();
    stack.pop_back();
    if (!HeadsEqual(x, y, &descend)) return false;
    if (!descend) continue;
    if (x->kind == TypeKind::kTuple) {
      if (!push_list(static_cast<const TupleTypeNode*>(x)->fields,
                     static_cast<const TupleTypeNode*>(y)->fields)) {
        return false;
      }
    } else if (x->kind == TypeKind::kRef) {
      stack.emplace_back(static_cast<const RefTypeNode*>(x)->value.get(),
                         static_cast<const RefTypeNode*>(y)->value.get());
    } else if (x->kind == TypeKind::kTypeCall) {
      auto* cx = static_cast<const TypeCallNode*>(x);
      auto* cy = static_cast<const TypeCallNode*>(y);
      if (!push_list(cx->args, cy->args)) return false;
      stack.emplace_back(cx->func.get(), cy->func.get());
    } else {
      auto* fx = static_cast<const FuncTypeNode*>(x);
      auto* fy = static_cast<const FuncTypeNode*>(y);
      if (!push_list(fx->arg_types, fy->arg_types)) return false;
      if (!push_list(fx->type_params, fy->type_params)) return false;
      stack.emplace_back(fx->ret_type.get(), fy->ret_type.get());
    }
  }
  return true;
}

namespace {

void AppendTensorType(const TensorTypeNode* x, std::string& out) {
  if (x->shape.empty()) {
    x->dtype.AppendTo(out);
    return;
  }
  out += "Tensor[(";
  char digits[24];
  for (size_t i = 0; i < x->shape.size(); ++i) {
    if (i) out += ", ";
    if (x->shape[i] < 0) {
      out += DimText(x->shape[i]);
    } else {
      auto [end, ec] = std::to_chars(digits, digits + sizeof digits, x->shape[i]);
      out.append(digits, end);
    }
  }
  out += "), ";
  x->dtype.AppendTo(out);
  out += ']';
}

}  // namespace

std::string TypeToString(const Type& t) {
  std::string out;
  AppendTypeText(t, out);
  return out;
}

// Iterative: a work stack of types to print and literal text, so deep types need no deep stack.
void AppendTypeText(const Type& t, std::string& out) {
  // The common case, a tensor type, needs no work stack.
  if (t && t->kind == TypeKind::kTensor) {
    AppendTensorType(static_cast<const TensorTypeNode*>(t.get()), out);
    return;
  }
  struct Item {
    const TypeNode* type;  // null: append `text`
    const char* text;
  };
  std::vector<Item> stack = {{t.get(), nullptr}};
  auto push_list = [&](const std::vector<Type>& items) {
    for (size_t i = items.size(); i-- > 0;) {
      stack.push_back({items[i].get(), nullptr});
      if (i) stack.push_back({nullptr, ", "});
    }
  };
  while (!stack.empty()) {
    Item item = stack.back();
    stack.pop_back();
    if (item.text) {
      out += item.text;
      continue;
    }
    const TypeNode* node = item.type;
    if (!node) {
      out += "_";
      continue;
    }
    switch (node->kind) {
      case TypeKind::kTensor:
        AppendTensorType(static_cast<const TensorTypeNode*>(node), out);
        break;
      case TypeKind::kTuple: {
        const auto& fields = static_cast<const TupleTypeNode*>(node)->fields;
        out += "(";
        stack.push_back({nullptr, fields.size() == 1 ? ",)" : ")"});
        push_list(fields);
        break;
      }
      case TypeKind::kFunc: {
        auto* f = static_cast<const FuncTypeNode*>(node);
        out += "fn ";
        if (!f->type_params.empty()) {
          // TVM: `fn [A, B](A) -> B`; the arguments' parenthesis follows the bracket directly.
          out += "[";
          for (size_t i = 0; i < f->type_params.size(); ++i) {
            if (i) out += ", ";
            AppendTypeText(f->type_params[i], out);
          }
          out += "]";
        }
        out += "(";
        stack.push_back({f->ret_type.get(), nullptr});
        stack.push_back({nullptr, ") -> "});
        push_list(f->arg_types);
        break;
      }
      case TypeKind::kRef:
        out += "ref(";
        stack.push_back({nullptr, ")"});
        stack.push_back({static_cast<const RefTypeNode*>(node)->value.get(), nullptr});
        break;
      case TypeKind::kIncomplete:
        out += "_";
        break;
      case TypeKind::kTypeVar:
        out += static_cast<const TypeVarNode*>(node)->name_hint;
        break;
      case TypeKind::kGlobalTypeVar:
        out += static_cast<const GlobalTypeVarNode*>(node)->name_hint;
        break;
      case TypeKind::kTypeCall: {
        auto* call = static_cast<const TypeCallNode*>(node);
        stack.push_back({nullptr, "]"});
        push_list(call->args);
        stack.push_back({nullptr, "["});
        stack.push_back({call->func.get(), nullptr});
        break;
      }
      case TypeKind::kTypeData:
        // In a type position a definition stands for its ADT (the definition itself is printed
        // by the module printer).
        out += "TypeData";
        break;
    }
  }
}

}  // namespace relaypass::ir
