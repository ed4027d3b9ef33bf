#include "relaypass/ir/visitor.h"

#include "relaypass/support/pointer_map.h"

namespace relaypass::ir {

namespace {

// Children as the traversals see them: ForEachChild plus the variables a function or let binds.
// A let's variable comes after its value, so a rewriter sees the rewritten value before it
// rewrites the variable (FoldConstant substitutes let-bound constants this way).
template <typename F>
void ForEachVisitChild(const ExprNode* e, F&& fn) {
  if (e->kind == ExprKind::kFunction) {
    for (const Var& p : static_cast<const FunctionNode*>(e)->params) fn(Expr(p));
  } else if (e->kind == ExprKind::kLet) {
    auto* let = static_cast<const LetNode*>(e);
    fn(let->value);
    fn(Expr(let->var));
    fn(let->body);
    return;
  }
  ForEachChild(e, fn);
}

// Iterative post-order over a DAG. `expand(node)` says whether to descend into node's children;
// `emit(node, expanded)` is called once per node after its children (`expanded` is what expand
// returned). `seen.insert(node)` returns true the first time it sees a node: it is called once
// per edge, when the node is about to be expanded, so each node costs one table probe per use
// (the probes are random accesses, the cost that grows with the graph). Marking at expansion
// rather than when pushed keeps the order a post-order: a node pushed by one parent and reached
// again through a sibling is emitted under the sibling, and its older stack entry is skipped.
template <typename Seen, typename Expand, typename Emit>
void WalkPostOrder(const Expr& root, Seen& seen, Expand&& expand, Emit&& emit) {
  struct Frame {
    const ExprNode* node;
    bool expanded;
    bool children_visited;
  };
  std::vector<Frame> stack;
  std::vector<const ExprNode*> children;
  stack.push_back({root.get(), false, false});
  while (!stack.empty()) {
    Frame& top = stack.back();
    const ExprNode* node = top.node;
    if (top.expanded) {
      const bool children_visited = top.children_visited;
      stack.pop_back();
      emit(node, children_visited);
      continue;
    }
    if (!seen.insert(node)) {
      stack.pop_back();
      continue;
    }
    top.expanded = true;
    if (!expand(node)) continue;
    top.children_visited = true;
    children.clear();
    ForEachVisitChild(node, [&](const Expr& c) {
      if (c) children.push_back(c.get());
    });
    for (auto it = children.rbegin(); it != children.rend(); ++it) {
      stack.push_back({*it, false, false});
    }
  }
}

struct SeenSet {
  support::PointerSet set;
  bool insert(const ExprNode* n) { return set.insert(n); }
};

template <typename Emit>
void WalkPostOrder(const Expr& root, Emit&& emit) {
  SeenSet seen;
  WalkPostOrder(
      root, seen, [](const ExprNode*) { return true; }, [&](const ExprNode* n, bool) { emit(n); });
}

}  // namespace

void post_order_visit(const Expr& root, const std::function<void(const Expr&)>& fn) {
  if (!root) return;
  WalkPostOrder(root, [&](const ExprNode* n) { fn(Expr(n)); });
}

std::vector<Expr> PostOrder(const Expr& root) {
  std::vector<Expr> out;
  if (!root) return out;
  WalkPostOrder(root, [&](const ExprNode* n) { out.emplace_back(n); });
  return out;
}

size_t CountNodes(const Expr& root) {
  size_t n = 0;
  if (!root) return 0;
  WalkPostOrder(root, [&](const ExprNode*) { ++n; });
  return n;
}

std::vector<Var> FreeVars(const Expr& expr) {
  support::PointerSet bound;
  std::vector<const VarNode*> uses;
  WalkPostOrder(expr, [&](const ExprNode* n) {
    if (n->kind == ExprKind::kVar) {
      uses.push_back(static_cast<const VarNode*>(n));
    } else if (n->kind == ExprKind::kFunction) {
      for (const Var& p : static_cast<const FunctionNode*>(n)->params) bound.insert(p.get());
    } else if (n->kind == ExprKind::kLet) {
      bound.insert(static_cast<const LetNode*>(n)->var.get());
    }
  });
  std::vector<Var> out;
  for (const VarNode* v : uses) {
    if (!bound.contains(v)) out.emplace_back(v);
  }
  return out;
}

Expr ExprMutator::Lookup(const Expr& pre) const {
  const Expr* found = memo_.find(pre.get());
  return found ? *found : Expr();
}

Expr ExprMutator::Mutate(const Expr& expr) {
  if (!expr) return expr;
  if (Expr done = Lookup(expr)) return done;
  // The memo is the seen-set: a node gets an empty entry when first expanded and its result when
  // emitted, and nodes rewritten by an earlier Mutate call are not walked again.
  struct MemoSeen {
    support::PointerMap<Expr>& memo;
    bool insert(const ExprNode* n) { return memo.emplace(n, Expr()).second; }
  } seen{memo_};
  WalkPostOrder(
      expr, seen, [&](const ExprNode* n) { return ShouldVisitChildren(Expr(n)); },
      [&](const ExprNode* n, bool children_visited) {
        Expr pre(n);
        Expr post = children_visited ? Rebuild(pre) : pre;
        Expr result = Rewrite(pre, post);
        memo_.at(n) = std::move(result);
      });
  return memo_.at(expr.get());
}

namespace {

template <typename T>
bool Changed(const Ref<T>& before, const Ref<T>& after) {
  return !before.same_as(after);
}

// A copy of `n` (keeping its checked type and span, as TVM's WithFields does) with new children
// set by `modify` before the copy is shared.
template <typename T, typename F>
Expr CopyWith(const T* n, F&& modify) {
  T* copy = new T(*n);
  modify(copy);
  return Expr(Ref<T>(copy));
}

}  // namespace

Expr ExprMutator::Rebuild(const Expr& pre) {
  auto get = [&](const Expr& c) -> Expr {
    if (!c) return c;
    const Expr* found = memo_.find(c.get());
    return found && *found ? *found : c;
  };
  auto get_var = [&](const Var& v) -> Var {
    Expr e = get(v);
    if (auto* var = e.as<VarNode>()) return Var(var);
    return v;  // a bound var rewritten to a non-var keeps its binding site
  };
  switch (pre->kind) {
    case ExprKind::kCall: {
      auto* n = pre.as<CallNode>();
      Expr op = get(n->op);
      bool changed = Changed(op, n->op);
      std::vector<Expr> args;
      args.reserve(n->args.size());
      for (const Expr& a : n->args) {
        args.push_back(get(a));
        changed |= Changed(args.back(), a);
      }
      if (!changed) return pre;
      return CopyWith(n, [&](CallNode* c) {
        c->op = op;
        c->args = std::move(args);
      });
    }
    case ExprKind::kTuple: {
      auto* n = pre.as<TupleNode>();
      bool changed = false;
      std::vector<Expr> fields;
      fields.reserve(n->fields.size());
      for (const Expr& f : n->fields) {
        fields.push_back(get(f));
        changed |= Changed(fields.back(), f);
      }
      if (!changed) return pre;
      return CopyWith(n, [&](TupleNode* t) { t->fields = std::move(fields); });
    }
    case ExprKind::kTupleGetItem: {
      auto* n = pre.as<TupleGetItemNode>();
      Expr tuple = get(n->tuple);
      if (!Changed(tuple, n->tuple)) return pre;
      return CopyWith(n, [&](TupleGetItemNode* g) { g->tuple = tuple; });
    }
    case ExprKind::kFunction: {
      auto* n = pre.as<FunctionNode>();
      bool changed = false;
      std::vector<Var> params;
      for (const Var& p : n->params) {
        params.push_back(get_var(p));
        changed |= Changed(params.back(), p);
      }
      Expr body = get(n->body);
      changed |= Changed(body, n->body);
      if (!changed) return pre;
      return CopyWith(n, [&](FunctionNode* f) {
        f->params = std::move(params);
        f->body = body;
      });
    }
    case ExprKind::kLet: {
      auto* n = pre.as<LetNode>();
      Var var = get_var(n->var);
      Expr value = get(n->value);
      Expr body = get(n->body);
      if (!Changed(var, n->var) && !Changed(value, n->value) && !Changed(body, n->body)) {
        return pre;
      }
      return CopyWith(n, [&](LetNode* l) {
        l->var = var;
        l->value = value;
        l->body = body;
      });
    }
    case ExprKind::kIf: {
      auto* n = pre.as<IfNode>();
      Expr c = get(n->cond), t = get(n->true_branch), f = get(n->false_branch);
      if (!Changed(c, n->cond) && !Changed(t, n->true_branch) && !Changed(f, n->false_branch)) {
        return pre;
      }
      return CopyWith(n, [&](IfNode* i) {
        i->cond = c;
        i->true_branch = t;
        i->false_branch = f;
      });
    }
    default:
      return pre;
  }
}

Expr ExprMutator::Rewrite(const Expr& pre, const Expr& post) {
  switch (pre->kind) {
    case ExprKind::kVar:
      return RewriteVar(pre.as<VarNode>(), post);
    case ExprKind::kGlobalVar:
      return RewriteGlobalVar(pre.as<GlobalVarNode>(), post);
    case ExprKind::kConstant:
      return RewriteConstant(pre.as<ConstantNode>(), post);
    case ExprKind::kOp:
      return RewriteOp(pre.as<OpNode>(), post);
    case ExprKind::kCall:
      return RewriteCall(pre.as<CallNode>(), post);
    case ExprKind::kTuple:
      return RewriteTuple(pre.as<TupleNode>(), post);
    case ExprKind::kTupleGetItem:
      return RewriteTupleGetItem(pre.as<TupleGetItemNode>(), post);
    case ExprKind::kFunction:
      return RewriteFunction(pre.as<FunctionNode>(), post);
    case ExprKind::kLet:
      return RewriteLet(pre.as<LetNode>(), post);
    case ExprKind::kIf:
      return RewriteIf(pre.as<IfNode>(), post);
  }
  return post;
}

void ExprVisitor::Visit(const Expr& expr) {
  if (!expr) return;
  WalkPostOrder(expr, [&](const ExprNode* n) {
    switch (n->kind) {
      case ExprKind::kVar:
        VisitVar(static_cast<const VarNode*>(n));
        break;
      case ExprKind::kGlobalVar:
        VisitGlobalVar(static_cast<const GlobalVarNode*>(n));
        break;
      case ExprKind::kConstant:
        VisitConstant(static_cast<const ConstantNode*>(n));
        break;
      case ExprKind::kOp:
        VisitOp(static_cast<const OpNode*>(n));
        break;
      case ExprKind::kCall:
        VisitCall(static_cast<const CallNode*>(n));
        break;
      case ExprKind::kTuple:
        VisitTuple(static_cast<const TupleNode*>(n));
        break;
      case ExprKind::kTupleGetItem:
        VisitTupleGetItem(static_cast<const TupleGetItemNode*>(n));
        break;
      case ExprKind::kFunction:
        VisitFunction(static_cast<const FunctionNode*>(n));
        break;
      case ExprKind::kLet:
        VisitLet(static_cast<const LetNode*>(n));
        break;
      case ExprKind::kIf:
        VisitIf(static_cast<const IfNode*>(n));
        break;
    }
  });
}

}  // namespace relaypass::ir
