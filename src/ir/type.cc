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

FuncTypeNode::FuncTypeNode(std::vector<Type> a, Type r)
    : TypeNode(kKind), arg_types(std::move(a)), ret_type(std::move(r)) {
  complete = ChildComplete(ret_type);
  hash = static_cast<size_t>(kind) + 1;
  for (const Type& arg : arg_types) {
    complete = complete && ChildComplete(arg);
    hash = Combine(hash, ChildHash(arg));
  }
  hash = Combine(hash, ChildHash(ret_type));
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
Type FuncType(std::vector<Type> arg_types, Type ret_type) {
  return make_ref<FuncTypeNode>(std::move(arg_types), std::move(ret_type));
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
      *descend = true;
      return true;
    case TypeKind::kIncomplete:
      return false;  // distinct unknowns
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
    } else {
      auto* fx = static_cast<const FuncTypeNode*>(x);
      auto* fy = static_cast<const FuncTypeNode*>(y);
      if (!push_list(fx->arg_types, fy->arg_types)) return false;
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
        out += "fn (";
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
    }
  }
}

}  // namespace relaypass::ir
