#include "type_solver.h"

#include <utility>

namespace relaypass::ir {

Type TypeSolver::NewHole() {
  Type hole = IncompleteType();
  HoleIndex(hole.as<IncompleteTypeNode>());
  return hole;
}

int TypeSolver::HoleIndex(const IncompleteTypeNode* hole) {
  auto [index, inserted] = index_.emplace(hole, static_cast<int>(parent_.size()));
  if (inserted) {
    parent_.push_back(*index);
    bindings_.emplace_back();
    holes_.emplace_back(hole);
  }
  return *index;
}

int TypeSolver::Find(int i) {
  while (parent_[i] != i) {
    parent_[i] = parent_[parent_[i]];
    i = parent_[i];
  }
  return i;
}

namespace {

// Types Resolve returns as they are: tensors, and complete tuple, function and reference types
// (IsComplete is O(1), so every deep complete type returns at once, nothing allocated).
bool IsSettled(const Type& t) {
  return !t || t->kind == TypeKind::kTensor || (t->kind != TypeKind::kIncomplete && IsComplete(t));
}

// The parts of a tuple, function or reference type, in the order Resolve rebuilds them: a tuple's
// fields; a function's argument types, then its result type; a reference's value type.
size_t NumParts(const Type& t) {
  if (auto* tuple = t.as<TupleTypeNode>()) return tuple->fields.size();
  if (auto* fn = t.as<FuncTypeNode>()) return fn->arg_types.size() + 1;
  if (t.as<RefTypeNode>()) return 1;
  if (auto* call = t.as<TypeCallNode>()) return call->args.size();
  return 0;
}

const Type& Part(const Type& t, size_t i) {
  if (auto* tuple = t.as<TupleTypeNode>()) return tuple->fields[i];
  if (auto* ref = t.as<RefTypeNode>()) return ref->value;
  if (auto* call = t.as<TypeCallNode>()) return call->args[i];
  auto* fn = t.as<FuncTypeNode>();
  return i < fn->arg_types.size() ? fn->arg_types[i] : fn->ret_type;
}

// `t` rebuilt from its resolved parts (itself when no part changed).
Type Rebuild(const Type& t, std::vector<Type>&& parts) {
  bool changed = false;
  for (size_t i = 0; i < parts.size(); ++i) changed |= !parts[i].same_as(Part(t, i));
  if (!changed) return t;
  if (t->kind == TypeKind::kTuple) return TupleType(std::move(parts));
  if (t->kind == TypeKind::kRef) return RefType(std::move(parts[0]));
  if (t->kind == TypeKind::kTypeCall) return TypeCall(t.as<TypeCallNode>()->func, std::move(parts));
  Type ret = std::move(parts.back());
  parts.pop_back();
  return FuncType(std::move(parts), ret, t.as<FuncTypeNode>()->type_params);
}

}  // namespace

// Iterative: types nest as deep as the program.
Type SubstituteTypeVars(const Type& t, const std::unordered_map<const TypeNode*, Type>& map) {
  if (map.empty() || !t) return t;
  auto parts_of = [](const TypeNode* n) -> std::vector<const Type*> {
    std::vector<const Type*> parts;
    switch (n->kind) {
      case TypeKind::kTuple:
        for (const Type& f : static_cast<const TupleTypeNode*>(n)->fields) parts.push_back(&f);
        break;
      case TypeKind::kFunc: {
        auto* fn = static_cast<const FuncTypeNode*>(n);
        for (const Type& a : fn->arg_types) parts.push_back(&a);
        parts.push_back(&fn->ret_type);
        break;
      }
      case TypeKind::kRef:
        parts.push_back(&static_cast<const RefTypeNode*>(n)->value);
        break;
      case TypeKind::kTypeCall:
        for (const Type& a : static_cast<const TypeCallNode*>(n)->args) parts.push_back(&a);
        break;
      default:
        break;
    }
    return parts;
  };
  struct Frame {
    const TypeNode* node;
    std::vector<const Type*> parts;
    std::vector<Type> done;
  };
  std::vector<Frame> stack;
  Type result;
  auto enter = [&](const Type& x) -> bool {  // true if x was finished at once
    if (!x) {
      result = x;
      return true;
    }
    if (x->kind == TypeKind::kTypeVar) {
      auto it = map.find(x.get());
      result = it == map.end() ? x : it->second;
      return true;
    }
    std::vector<const Type*> parts = parts_of(x.get());
    if (parts.empty()) {
      result = x;
      return true;
    }
    stack.push_back({x.get(), std::move(parts), {}});
    return false;
  };
  if (enter(t)) return result;
  while (true) {
    Frame& top = stack.back();
    if (top.done.size() < top.parts.size()) {
      if (enter(*top.parts[top.done.size()])) stack.back().done.push_back(result);
      continue;
    }
    bool changed = false;
    for (size_t i = 0; i < top.parts.size(); ++i) changed |= !top.done[i].same_as(*top.parts[i]);
    const TypeNode* n = top.node;
    Type built;
    if (!changed) {
      built = Type(n);
    } else if (n->kind == TypeKind::kTuple) {
      built = TupleType(std::move(top.done));
    } else if (n->kind == TypeKind::kRef) {
      built = RefType(std::move(top.done[0]));
    } else if (n->kind == TypeKind::kTypeCall) {
      built = TypeCall(static_cast<const TypeCallNode*>(n)->func, std::move(top.done));
    } else {
      Type ret = std::move(top.done.back());
      top.done.pop_back();
      built = FuncType(std::move(top.done), std::move(ret),
                       static_cast<const FuncTypeNode*>(n)->type_params);
    }
    stack.pop_back();
    if (stack.empty()) return built;
    stack.back().done.push_back(std::move(built));
  }
}

// An explicit stack, not recursion: a type still holding unknowns can nest as deep as the graph,
// and a chain of holes bound to holes is as long as the program makes it.
Type TypeSolver::Resolve(const Type& t) {
  if (IsSettled(t)) return t;
  struct Frame {
    Type type;
    int root;  // the hole's class for a hole, else -1
    size_t next = 0;
    std::vector<Type> parts;
  };
  std::vector<Frame> stack;
  Type result;
  // Pushes a frame for `x`, or (for what needs no frame) leaves its resolution in `result`.
  auto enter = [&](const Type& x) {
    if (IsSettled(x)) {
      result = x;
      return false;
    }
    int root = -1;
    if (auto* hole = x.as<IncompleteTypeNode>()) {
      root = Find(HoleIndex(hole));
      if (!Binding(root)) {
        result = holes_[root];
        return false;
      }
    }
    stack.push_back(Frame{x, root, 0, {}});
    return true;
  };
  bool have_result = !enter(t);
  while (!stack.empty()) {
    Frame& frame = stack.back();
    if (have_result) {
      frame.parts.push_back(std::move(result));
      have_result = false;
    }
    size_t num_parts = frame.root >= 0 ? 1 : NumParts(frame.type);
    if (frame.next < num_parts) {
      Type part = frame.root >= 0 ? Binding(frame.root) : Part(frame.type, frame.next);
      ++frame.next;
      have_result = !enter(part);  // may reallocate the stack: `frame` is not used after this
      continue;
    }
    if (frame.root >= 0) {
      result = std::move(frame.parts[0]);
      Binding(frame.root) = result;  // path compression for bindings
    } else {
      result = Rebuild(frame.type, std::move(frame.parts));
    }
    stack.pop_back();
    have_result = true;
  }
  return result;
}

bool TypeSolver::Occurs(int root, const Type& t) {
  if (IsSettled(t)) return false;  // the common case: bound to a tensor type
  std::vector<Type> work{t};
  support::PointerSet seen;  // types are DAGs: each shared part is walked once
  while (!work.empty()) {
    Type x = std::move(work.back());
    work.pop_back();
    if (IsSettled(x) || !seen.insert(x.get())) continue;
    if (auto* hole = x.as<IncompleteTypeNode>()) {
      int r = Find(HoleIndex(hole));
      if (r == root) return true;
      if (Binding(r)) work.push_back(Binding(r));
      continue;
    }
    for (size_t i = 0; i < NumParts(x); ++i) work.push_back(Part(x, i));
  }
  return false;
}

void TypeSolver::UnboundHoles(const Type& t, std::vector<int>* out) {
  if (IsSettled(t)) return;
  std::vector<Type> work{t};
  support::PointerSet seen;
  while (!work.empty()) {
    Type x = std::move(work.back());
    work.pop_back();
    if (IsSettled(x) || !seen.insert(x.get())) continue;
    if (auto* hole = x.as<IncompleteTypeNode>()) {
      const int r = Find(HoleIndex(hole));
      if (Binding(r)) {
        work.push_back(Binding(r));
      } else {
        out->push_back(r);
      }
      continue;
    }
    for (size_t i = 0; i < NumParts(x); ++i) work.push_back(Part(x, i));
  }
}

bool TypeSolver::BindHole(const IncompleteTypeNode* hole, const Type& type, std::string* why) {
  int root = Find(HoleIndex(hole));
  // TVM's occurs check: a hole bound to a type that contains it would be an infinite type (a
  // function returning itself), which nothing can resolve.
  if (Occurs(root, type)) {
    if (why)
      *why = "the type " + TypeToString(holes_[root]) + " occurs in " + TypeToString(type) +
             ", which would make it infinite";
    return false;
  }
  Binding(root) = type;
  changed_.push_back(root);
  return true;
}

Type TypeSolver::ResolveTop(Type t) {
  while (auto* hole = t.as<IncompleteTypeNode>()) {
    int root = Find(HoleIndex(hole));
    if (!Binding(root)) return holes_[root];
    t = Binding(root);
  }
  return t;
}

bool TypeSolver::Unify(const Type& a0, const Type& b0, std::string* why) {
  // An explicit worklist of pairs, not recursion: types nest as deep as the graph (a chain of
  // 100,000 one-field tuples has a type 100,000 deep).
  // The first pair is taken without the worklist, which then allocates only when a tuple or
  // function type has parts to unify (most calls unify two tensor types).
  std::vector<std::pair<Type, Type>> work;
  Type next_a = a0, next_b = b0;
  for (bool first = true; first || !work.empty(); first = false) {
    if (!first) {
      next_a = std::move(work.back().first);
      next_b = std::move(work.back().second);
      work.pop_back();
    }
    // Only the top of each side is resolved: the walk reaches the parts itself, and resolving
    // them in full at every level would make unifying a deep type quadratic.
    Type a = ResolveTop(std::move(next_a));
    Type b = ResolveTop(std::move(next_b));
    if (a.same_as(b)) continue;
    auto* ha = a.as<IncompleteTypeNode>();
    auto* hb = b.as<IncompleteTypeNode>();
    if (ha && hb) {
      const int ra = Find(HoleIndex(ha));
      const int rb = Find(HoleIndex(hb));
      if (ra != rb) {
        parent_[ra] = rb;
        changed_.push_back(ra);
      }
      continue;
    }
    if (ha) {
      if (!BindHole(ha, b, why)) return false;
      continue;
    }
    if (hb) {
      if (!BindHole(hb, a, why)) return false;
      continue;
    }
    auto mismatch = [&] {
      if (why)
        *why = TypeToString(Resolve(a)) + " and " + TypeToString(Resolve(b)) + " do not match";
      return false;
    };
    if (a->kind != b->kind) return mismatch();
    switch (a->kind) {
      case TypeKind::kTensor: {
        auto* x = a.as<TensorTypeNode>();
        auto* y = b.as<TensorTypeNode>();
        if (x->dtype != y->dtype || x->shape.size() != y->shape.size()) return mismatch();
        for (size_t i = 0; i < x->shape.size(); ++i) {
          if (x->shape[i] != y->shape[i] && x->shape[i] != kAnyDim && y->shape[i] != kAnyDim) {
            return mismatch();
          }
        }
        break;
      }
      case TypeKind::kTuple: {
        auto& fa = a.as<TupleTypeNode>()->fields;
        auto& fb = b.as<TupleTypeNode>()->fields;
        if (fa.size() != fb.size()) return mismatch();
        // Pushed last field first: the first field is unified first, as before.
        for (size_t i = fa.size(); i-- > 0;) work.emplace_back(fa[i], fb[i]);
        break;
      }
      case TypeKind::kFunc: {
        auto* x = a.as<FuncTypeNode>();
        auto* y = b.as<FuncTypeNode>();
        if (x->arg_types.size() != y->arg_types.size()) return mismatch();
        if (!x->type_params.empty() || !y->type_params.empty()) {
          // As TVM's unifier: the type parameters they share are paired, the extra ones of the
          // more polymorphic side become unknowns (a polymorphic function passed where a
          // monomorphic one is expected is instantiated).
          if (x->type_params.size() < y->type_params.size()) std::swap(x, y);
          std::unordered_map<const TypeNode*, Type> subst;
          for (size_t i = 0; i < x->type_params.size(); ++i) {
            subst[x->type_params[i].get()] =
                i < y->type_params.size() ? y->type_params[i] : NewHole();
          }
          work.emplace_back(SubstituteTypeVars(x->ret_type, subst), y->ret_type);
          for (size_t i = x->arg_types.size(); i-- > 0;) {
            work.emplace_back(SubstituteTypeVars(x->arg_types[i], subst), y->arg_types[i]);
          }
          break;
        }
        work.emplace_back(x->ret_type, y->ret_type);
        for (size_t i = x->arg_types.size(); i-- > 0;) {
          work.emplace_back(x->arg_types[i], y->arg_types[i]);
        }
        break;
      }
      case TypeKind::kRef:
        work.emplace_back(a.as<RefTypeNode>()->value, b.as<RefTypeNode>()->value);
        break;
      case TypeKind::kTypeCall: {
        auto* x = a.as<TypeCallNode>();
        auto* y = b.as<TypeCallNode>();
        if (x->args.size() != y->args.size() || !TypeEqual(x->func, y->func)) return mismatch();
        for (size_t i = x->args.size(); i-- > 0;) work.emplace_back(x->args[i], y->args[i]);
        break;
      }
      case TypeKind::kGlobalTypeVar:
        if (!TypeEqual(a, b)) return mismatch();
        break;
      case TypeKind::kTypeVar:   // distinct type variables (the same one was same_as above)
      case TypeKind::kTypeData:  // definitions are not value types
        return mismatch();
      case TypeKind::kIncomplete:
        break;
    }
  }
  return true;
}

}  // namespace relaypass::ir
