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
// sharing in one graph must be mirrored in the other; bound variables are paired at their
// binding site (function parameters, let variables), which is visited before their uses.
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
    const ExprNode** ax = forward_.find(x);
    const ExprNode** by = backward_.find(y);
    if (ax || by) return ax && by && *ax == y && *by == x;
    if (x->kind != y->kind) return false;
    if (x->kind == ExprKind::kVar) {
      // An unpaired var is free in both graphs: only the same var is equal to itself.
      if (x != y) return false;
    }
    forward_[x] = y;
    backward_[y] = x;
    return CompareLocal(x, y);
  }

  void Push(const Expr& a, const Expr& b) { stack_.push_back({a.get(), b.get()}); }

  // Pairs two binders; their annotations must agree.
  bool Bind(const Var& a, const Var& b) {
    if (forward_.contains(a.get()) || backward_.contains(b.get())) {
      return forward_[a.get()] == b.get() && backward_[b.get()] == a.get();
    }
    if (!(a->type_annotation
              ? b->type_annotation && TypeEqual(a->type_annotation, b->type_annotation)
              : !b->type_annotation)) {
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
        if (a->ret_type ? !b->ret_type || !TypeEqual(a->ret_type, b->ret_type) : !!b->ret_type) {
          return false;
        }
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
    }
    return false;
  }

  std::vector<std::pair<const ExprNode*, const ExprNode*>> stack_;
  support::PointerMap<const ExprNode*> forward_;
  support::PointerMap<const ExprNode*> backward_;
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
