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

// Complete types (the common case, and every deep one: IsComplete is O(1)) return at once; only
// types still holding unknowns are rebuilt.
Type TypeSolver::Resolve(const Type& t) {
  if (!t) return t;
  // Most tuple and function types are complete: returned as they are, nothing allocated.
  if ((t->kind == TypeKind::kTuple || t->kind == TypeKind::kFunc) && IsComplete(t)) return t;
  switch (t->kind) {
    case TypeKind::kTensor:
      return t;
    case TypeKind::kIncomplete: {
      int root = Find(HoleIndex(t.as<IncompleteTypeNode>()));
      Type& bound = Binding(root);
      if (!bound) return holes_[root];
      Type resolved = Resolve(bound);
      bound = resolved;  // path compression for bindings
      return resolved;
    }
    case TypeKind::kTuple: {
      auto* tuple = t.as<TupleTypeNode>();
      std::vector<Type> fields;
      bool changed = false;
      for (const Type& f : tuple->fields) {
        fields.push_back(Resolve(f));
        changed |= !fields.back().same_as(f);
      }
      return changed ? TupleType(std::move(fields)) : t;
    }
    case TypeKind::kFunc: {
      auto* fn = t.as<FuncTypeNode>();
      std::vector<Type> args;
      bool changed = false;
      for (const Type& a : fn->arg_types) {
        args.push_back(Resolve(a));
        changed |= !args.back().same_as(a);
      }
      Type ret = Resolve(fn->ret_type);
      changed |= !ret.same_as(fn->ret_type);
      return changed ? FuncType(std::move(args), ret) : t;
    }
  }
  return t;
}

bool TypeSolver::Unify(const Type& a, const Type& b, std::string* why) {
  return UnifyResolved(Resolve(a), Resolve(b), why);
}

bool TypeSolver::UnifyResolved(const Type& a0, const Type& b0, std::string* why) {
  // An explicit worklist of pairs, not recursion: types nest as deep as the graph (a chain of
  // 100,000 one-field tuples has a type 100,000 deep).
  std::vector<std::pair<Type, Type>> work;
  work.emplace_back(a0, b0);
  bool first = true;
  while (!work.empty()) {
    Type a = std::move(work.back().first);
    Type b = std::move(work.back().second);
    work.pop_back();
    if (!first) {
      a = Resolve(a);
      b = Resolve(b);
    }
    first = false;
    if (a.same_as(b)) continue;
    auto* ha = a.as<IncompleteTypeNode>();
    auto* hb = b.as<IncompleteTypeNode>();
    if (ha && hb) {
      parent_[Find(HoleIndex(ha))] = Find(HoleIndex(hb));
      continue;
    }
    if (ha) {
      Binding(Find(HoleIndex(ha))) = b;
      continue;
    }
    if (hb) {
      Binding(Find(HoleIndex(hb))) = a;
      continue;
    }
    auto mismatch = [&] {
      if (why) *why = TypeToString(a) + " and " + TypeToString(b) + " do not match";
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
        work.emplace_back(x->ret_type, y->ret_type);
        for (size_t i = x->arg_types.size(); i-- > 0;) {
          work.emplace_back(x->arg_types[i], y->arg_types[i]);
        }
        break;
      }
      case TypeKind::kIncomplete:
        break;
    }
  }
  return true;
}

}  // namespace relaypass::ir
