#include "relaypass/ir/structural.h"

#include <cstring>
#include <functional>
#include <string_view>
#include <unordered_map>

#include "relaypass/ir/visitor.h"
#include "relaypass/support/pointer_map.h"

namespace relaypass::ir {

namespace {

size_t Combine(size_t seed, size_t v) {
  return seed ^ (v + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}

bool ConstantsEqual(const ConstantNode* a, const ConstantNode* b) {
  return a->data.BitwiseEqual(b->data);
}

// Compares two graphs pair by pair with an explicit stack. The node map must be a bijection, so
// sharing in one graph must be mirrored in the other (constants aside, as in TVM); bound variables
// are paired at their binding site (function parameters, let variables), which is visited before
// their uses.
class EqualChecker {
 public:
  bool Run(const Expr& a, const Expr& b) {
    stack_.push_back({a.get(), b.get()});
    while (!stack_.empty()) {
      auto [x, y] = stack_.back();
      stack_.pop_back();
      if (!Step(x, y)) return false;
    }
    return true;
  }

 private:
  bool Step(const ExprNode* x, const ExprNode* y) {
    if (!x || !y) return x == y;
    // Constants compare by value wherever they are, shared or not: TVM's ConstantNode is no
    // graph node (its SEqualReduce does not MarkGraphNode), so the bijection leaves it out.
    if (x->kind == ExprKind::kConstant && y->kind == ExprKind::kConstant) {
      return CompareLocal(x, y);
    }
    const ExprNode** ax = forward_.find(x);
    const ExprNode** by = backward_.find(y);
    if (ax || by) return ax && by && *ax == y && *by == x;
    if (x->kind != y->kind) return false;
    if (x->kind == ExprKind::kVar) {
      // An unpaired var is free in both graphs: only the same variable is equal to itself (the
      // same node, or a typed copy of it: TVM compares the Id its copies share).
      if (static_cast<const VarNode*>(x)->vid != static_cast<const VarNode*>(y)->vid) return false;
      if (!VirtualDeviceEqual(static_cast<const VarNode*>(x)->virtual_device,
                              static_cast<const VarNode*>(y)->virtual_device)) {
        return false;
      }
    }
    forward_[x] = y;
    backward_[y] = x;
    return CompareLocal(x, y);
  }

  void Push(const Expr& a, const Expr& b) { stack_.push_back({a.get(), b.get()}); }

  // Types compare as TypeEqual, except that type variables bound by functions are paired at
  // their binding site (as TVM's structural equality does), so a reparsed `fn [A](%x: A)`
  // equals the original.
  bool TypesEqual(const Type& a, const Type& b) {
    if (a ? b && TypeEqual(a, b) : !b) return true;
    if (!a || !b) return false;
    std::vector<std::pair<const TypeNode*, const TypeNode*>> stack = {{a.get(), b.get()}};
    auto push_list = [&](const std::vector<Type>& x, const std::vector<Type>& y) {
      if (x.size() != y.size()) return false;
      for (size_t i = 0; i < x.size(); ++i) stack.emplace_back(x[i].get(), y[i].get());
      return true;
    };
    while (!stack.empty()) {
      auto [x, y] = stack.back();
      stack.pop_back();
      if (x == y) continue;
      if (!x || !y || x->kind != y->kind) return false;
      switch (x->kind) {
        case TypeKind::kTypeVar: {
          const TypeNode** mapped = type_forward_.find(x);
          if (!mapped || *mapped != y) return false;
          break;
        }
        case TypeKind::kTuple:
          if (!push_list(static_cast<const TupleTypeNode*>(x)->fields,
                         static_cast<const TupleTypeNode*>(y)->fields)) {
            return false;
          }
          break;
        case TypeKind::kFunc: {
          // A polymorphic function type binds its type parameters (TVM: DefEqual).
          auto* fx = static_cast<const FuncTypeNode*>(x);
          auto* fy = static_cast<const FuncTypeNode*>(y);
          if (!BindTypeParams(fx->type_params, fy->type_params)) return false;
          if (!push_list(fx->arg_types, fy->arg_types)) return false;
          stack.emplace_back(fx->ret_type.get(), fy->ret_type.get());
          break;
        }
        case TypeKind::kRef:
          stack.emplace_back(static_cast<const RefTypeNode*>(x)->value.get(),
                             static_cast<const RefTypeNode*>(y)->value.get());
          break;
        case TypeKind::kTypeCall: {
          auto* cx = static_cast<const TypeCallNode*>(x);
          auto* cy = static_cast<const TypeCallNode*>(y);
          if (!push_list(cx->args, cy->args)) return false;
          stack.emplace_back(cx->func.get(), cy->func.get());
          break;
        }
        default:
          if (!TypeEqual(Type(x), Type(y))) return false;
      }
    }
    return true;
  }

  bool BindTypeParams(const std::vector<Type>& a, const std::vector<Type>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      auto* x = a[i].as<TypeVarNode>();
      auto* y = b[i].as<TypeVarNode>();
      if (!x || !y) return false;
      if (x->var_kind != y->var_kind) return false;
      type_forward_[x] = y;
    }
    return true;
  }

  // Pairs two binders; their annotations must agree.
  bool Bind(const Var& a, const Var& b) {
    if (forward_.contains(a.get()) || backward_.contains(b.get())) {
      return forward_[a.get()] == b.get() && backward_[b.get()] == a.get();
    }
    // TVM's VarNode::SEqualReduce compares the virtual devices too (and does not hash them).
    if (!TypesEqual(a->type_annotation, b->type_annotation) ||
        !VirtualDeviceEqual(a->virtual_device, b->virtual_device)) {
      return false;
    }
    forward_[a.get()] = b.get();
    backward_[b.get()] = a.get();
    return true;
  }

  bool CompareLocal(const ExprNode* x, const ExprNode* y) {
    switch (x->kind) {
      case ExprKind::kVar:
        return true;
      case ExprKind::kGlobalVar:
        return static_cast<const GlobalVarNode*>(x)->name_hint ==
               static_cast<const GlobalVarNode*>(y)->name_hint;
      case ExprKind::kConstant:
        return ConstantsEqual(static_cast<const ConstantNode*>(x),
                              static_cast<const ConstantNode*>(y));
      case ExprKind::kOp:
        return static_cast<const OpNode*>(x)->name == static_cast<const OpNode*>(y)->name;
      case ExprKind::kCall: {
        auto* a = static_cast<const CallNode*>(x);
        auto* b = static_cast<const CallNode*>(y);
        if (a->args.size() != b->args.size() || !AttrsEqual(a->attrs, b->attrs)) return false;
        for (size_t i = a->args.size(); i-- > 0;) Push(a->args[i], b->args[i]);
        Push(a->op, b->op);
        return true;
      }
      case ExprKind::kTuple: {
        auto& fa = static_cast<const TupleNode*>(x)->fields;
        auto& fb = static_cast<const TupleNode*>(y)->fields;
        if (fa.size() != fb.size()) return false;
        for (size_t i = fa.size(); i-- > 0;) Push(fa[i], fb[i]);
        return true;
      }
      case ExprKind::kTupleGetItem: {
        auto* a = static_cast<const TupleGetItemNode*>(x);
        auto* b = static_cast<const TupleGetItemNode*>(y);
        if (a->index != b->index) return false;
        Push(a->tuple, b->tuple);
        return true;
      }
      case ExprKind::kFunction: {
        auto* a = static_cast<const FunctionNode*>(x);
        auto* b = static_cast<const FunctionNode*>(y);
        if (a->params.size() != b->params.size() || !(a->attrs == b->attrs)) return false;
        if (!BindTypeParams(a->type_params, b->type_params)) return false;
        if (!TypesEqual(a->ret_type, b->ret_type)) return false;
        for (size_t i = 0; i < a->params.size(); ++i) {
          if (!Bind(a->params[i], b->params[i])) return false;
        }
        Push(a->body, b->body);
        return true;
      }
      case ExprKind::kLet: {
        auto* a = static_cast<const LetNode*>(x);
        auto* b = static_cast<const LetNode*>(y);
        if (!Bind(a->var, b->var)) return false;
        Push(a->body, b->body);
        Push(a->value, b->value);
        return true;
      }
      case ExprKind::kIf: {
        auto* a = static_cast<const IfNode*>(x);
        auto* b = static_cast<const IfNode*>(y);
        Push(a->false_branch, b->false_branch);
        Push(a->true_branch, b->true_branch);
        Push(a->cond, b->cond);
        return true;
      }
      case ExprKind::kRefCreate:
        Push(static_cast<const RefCreateNode*>(x)->value,
             static_cast<const RefCreateNode*>(y)->value);
        return true;
      case ExprKind::kRefRead:
        Push(static_cast<const RefReadNode*>(x)->ref, static_cast<const RefReadNode*>(y)->ref);
        return true;
      case ExprKind::kRefWrite: {
        auto* a = static_cast<const RefWriteNode*>(x);
        auto* b = static_cast<const RefWriteNode*>(y);
        Push(a->value, b->value);
        Push(a->ref, b->ref);
        return true;
      }
      case ExprKind::kConstructor: {
        auto* a = static_cast<const ConstructorNode*>(x);
        auto* b = static_cast<const ConstructorNode*>(y);
        return a->name_hint == b->name_hint && TypeEqual(a->belong_to, b->belong_to);
      }
      case ExprKind::kMatch: {
        auto* a = static_cast<const MatchNode*>(x);
        auto* b = static_cast<const MatchNode*>(y);
        if (a->complete != b->complete || a->clauses.size() != b->clauses.size()) return false;
        for (size_t i = 0; i < a->clauses.size(); ++i) {
          if (!PatternsEqual(a->clauses[i]->lhs, b->clauses[i]->lhs)) return false;
        }
        for (size_t i = a->clauses.size(); i-- > 0;) {
          Push(a->clauses[i]->rhs, b->clauses[i]->rhs);
        }
        Push(a->data, b->data);
        return true;
      }
    }
    return false;
  }

  // Same shape, same constructors; pattern variables are paired as binders.
  bool PatternsEqual(const Pattern& a, const Pattern& b) {
    std::vector<std::pair<const PatternNode*, const PatternNode*>> stack = {{a.get(), b.get()}};
    while (!stack.empty()) {
      auto [x, y] = stack.back();
      stack.pop_back();
      if (!x || !y) {
        if (x != y) return false;
        continue;
      }
      if (x->kind != y->kind) return false;
      const std::vector<Pattern>* xs = nullptr;
      const std::vector<Pattern>* ys = nullptr;
      switch (x->kind) {
        case PatternKind::kWildcard:
          break;
        case PatternKind::kVar:
          if (!Bind(static_cast<const PatternVarNode*>(x)->var,
                    static_cast<const PatternVarNode*>(y)->var)) {
            return false;
          }
          break;
        case PatternKind::kConstructor: {
          auto* cx = static_cast<const PatternConstructorNode*>(x);
          auto* cy = static_cast<const PatternConstructorNode*>(y);
          if (!Step(cx->constructor.get(), cy->constructor.get())) return false;
          xs = &cx->patterns;
          ys = &cy->patterns;
          break;
        }
        case PatternKind::kTuple:
          xs = &static_cast<const PatternTupleNode*>(x)->patterns;
          ys = &static_cast<const PatternTupleNode*>(y)->patterns;
          break;
      }
      if (xs) {
        if (xs->size() != ys->size()) return false;
        for (size_t i = xs->size(); i-- > 0;) stack.emplace_back((*xs)[i].get(), (*ys)[i].get());
      }
    }
    return true;
  }

  std::vector<std::pair<const ExprNode*, const ExprNode*>> stack_;
  support::PointerMap<const ExprNode*> forward_;
  support::PointerMap<const ExprNode*> backward_;
  support::PointerMap<const TypeNode*> type_forward_;
};

size_t HashConstant(const ConstantNode* c) {
  size_t h = std::hash<std::string>()(c->data.dtype().ToString());
  for (int64_t d : c->data.shape()) h = Combine(h, std::hash<int64_t>()(d));
  std::string_view bytes(static_cast<const char*>(c->data.raw_data()), c->data.nbytes());
  return Combine(h, std::hash<std::string_view>()(bytes));
}

}  // namespace

bool StructuralEqual(const Expr& a, const Expr& b) {
  return EqualChecker().Run(a, b);
}

bool StructuralEqual(const IRModule& a, const IRModule& b) {
  auto ta = a.type_definitions();
  auto tb = b.type_definitions();
  if (ta.size() != tb.size()) return false;
  for (size_t i = 0; i < ta.size(); ++i) {
    const TypeData& x = ta[i].second;
    const TypeData& y = tb[i].second;
    if (!TypeEqual(x->header, y->header) || x->type_vars.size() != y->type_vars.size() ||
        x->constructors.size() != y->constructors.size()) {
      return false;
    }
    for (size_t j = 0; j < x->constructors.size(); ++j) {
      if (x->constructors[j]->name_hint != y->constructors[j]->name_hint ||
          x->constructors[j]->inputs.size() != y->constructors[j]->inputs.size()) {
        return false;
      }
    }
  }
  auto fa = a.functions();
  auto fb = b.functions();
  if (fa.size() != fb.size()) return false;
  for (size_t i = 0; i < fa.size(); ++i) {
    if (fa[i].first->name_hint != fb[i].first->name_hint) return false;
    if (!StructuralEqual(Expr(fa[i].second), Expr(fb[i].second))) return false;
  }
  return true;
}

size_t StructuralHash(const Expr& root) {
  // Post-order, so each node's hash combines its children's. Variables hash by the order in
  // which they are first met (binders come before their uses), which makes the hash invariant
  // under renaming.
  support::PointerMap<size_t> memo;
  size_t var_counter = 0;
  size_t result = 0;
  post_order_visit(root, [&](const Expr& e) {
    size_t h = static_cast<size_t>(e->kind) * 0x100000001b3ULL + 17;
    auto child = [&](const Expr& c) { h = Combine(h, c ? memo.at(c.get()) : 0); };
    switch (e->kind) {
      case ExprKind::kVar: {
        auto* v = e.as<VarNode>();
        h = Combine(h, var_counter++);
        h = Combine(h, TypeHash(v->type_annotation));
        break;
      }
      case ExprKind::kGlobalVar:
        h = Combine(h, std::hash<std::string>()(e.as<GlobalVarNode>()->name_hint));
        break;
      case ExprKind::kConstant:
        h = Combine(h, HashConstant(e.as<ConstantNode>()));
        break;
      case ExprKind::kOp:
        h = Combine(h, std::hash<std::string>()(e.as<OpNode>()->name));
        break;
      case ExprKind::kCall: {
        auto* c = e.as<CallNode>();
        child(c->op);
        for (const Expr& a : c->args) child(a);
        h = Combine(h, AttrsHash(c->attrs));
        break;
      }
      case ExprKind::kTuple:
        for (const Expr& f : e.as<TupleNode>()->fields) child(f);
        break;
      case ExprKind::kTupleGetItem:
        child(e.as<TupleGetItemNode>()->tuple);
        h = Combine(h, static_cast<size_t>(e.as<TupleGetItemNode>()->index));
        break;
      case ExprKind::kFunction: {
        auto* f = e.as<FunctionNode>();
        for (const Var& p : f->params) child(p);
        child(f->body);
        h = Combine(h, TypeHash(f->ret_type));
        for (const auto& [k, v] : f->attrs.entries()) {
          h = Combine(Combine(h, std::hash<std::string>()(k)), v.Hash());
        }
        break;
      }
      case ExprKind::kLet: {
        auto* l = e.as<LetNode>();
        child(l->var);
        child(l->value);
        child(l->body);
        break;
      }
      case ExprKind::kIf: {
        auto* i = e.as<IfNode>();
        child(i->cond);
        child(i->true_branch);
        child(i->false_branch);
        break;
      }
      case ExprKind::kRefCreate:
        child(e.as<RefCreateNode>()->value);
        break;
      case ExprKind::kRefRead:
        child(e.as<RefReadNode>()->ref);
        break;
      case ExprKind::kRefWrite:
        child(e.as<RefWriteNode>()->ref);
        child(e.as<RefWriteNode>()->value);
        break;
      case ExprKind::kConstructor:
        h = Combine(h, std::hash<std::string>()(e.as<ConstructorNode>()->name_hint));
        break;
      case ExprKind::kMatch: {
        auto* m = e.as<MatchNode>();
        child(m->data);
        h = Combine(h, m->complete ? 1 : 2);
        for (const Clause& c : m->clauses) {
          for (const Var& v : PatternVars(c->lhs)) child(v);
          child(c->rhs);
        }
        break;
      }
    }
    memo[e.get()] = h;
    result = h;
  });
  return result;
}

size_t StructuralHash(const IRModule& m) {
  size_t h = 0x51ed27;
  for (const auto& [gv, f] : m.functions()) {
    h = Combine(h, std::hash<std::string>()(gv->name_hint));
    h = Combine(h, StructuralHash(Expr(f)));
  }
  return h;
}

}  // namespace relaypass::ir
