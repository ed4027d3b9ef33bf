#include "relaypass/ir/post_order_index.h"

#include "relaypass/support/error.h"

namespace relaypass::ir {

PostOrderIndex::Id PostOrderIndex::Add(const Expr& root,
                                       const std::function<bool(const ExprNode*)>& expand) {
  if (!root) return kNone;
  // Only the first walk may leave nodes out of the table: a later root can share them.
  const bool skip_single_use = post_order_.empty();
  if (unmapped_) MapAll();
  // A frame waits for its node's number in `pending[slot]`, the slot its parent reserved for it.
  // Once expanded (`id` set), its own children's numbers collect in pending[base...], above
  // every slot of its ancestors: a node's subtree is finished before its next sibling starts.
  struct Frame {
    const ExprNode* node;
    uint32_t slot;
    Id id;
    uint32_t base;
    bool expanded;
  };
  std::vector<Frame> stack;
  std::vector<Id> pending{kNone};  // slot 0: the root's number
  std::vector<const ExprNode*> kids;
  stack.push_back({root.get(), 0, kNone, 0, false});
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.id != kNone) {  // the children are done: list them and emit the node
      const Frame done = top;
      stack.pop_back();
      child_begin_[done.id] = static_cast<uint32_t>(children_.size());
      child_count_[done.id] = static_cast<uint32_t>(pending.size() - done.base);
      children_.insert(children_.end(), pending.begin() + done.base, pending.end());
      pending.resize(done.base);
      pending[done.slot] = done.id;
      state_[done.id] = done.expanded ? kExpanded : kNotExpanded;
      post_order_.push_back(done.id);
      continue;
    }
    const Id next = static_cast<Id>(nodes_.size());
    if (skip_single_use && top.node->uniquely_referenced()) {
      unmapped_ = true;
    } else {
      auto [id, inserted] = ids_.emplace(top.node, next);
      if (!inserted) {  // reached before, through another parent (or an earlier Add)
        // Still open means the node is its own descendant; immutable nodes cannot be.
        if (state_[*id] == kOpen) throw InternalError("expression graph has a cycle");
        pending[top.slot] = *id;
        stack.pop_back();
        continue;
      }
    }
    nodes_.push_back(top.node);
    state_.push_back(kOpen);
    child_begin_.push_back(0);
    child_count_.push_back(0);
    top.id = next;
    top.base = static_cast<uint32_t>(pending.size());
    top.expanded = expand(top.node);
    if (!top.expanded) continue;
    kids.clear();
    ForEachVisitChild(top.node, [&](const Expr& c) { kids.push_back(c.get()); });
    const auto base = static_cast<uint32_t>(pending.size());
    pending.resize(base + kids.size(), kNone);
    // `top` is invalid from here on. Reversed, so that the first child is walked first.
    for (size_t i = kids.size(); i-- > 0;) {
      if (kids[i]) stack.push_back({kids[i], base + static_cast<uint32_t>(i), kNone, 0, false});
    }
  }
  return pending[0];
}

void PostOrderIndex::MapAll() const {
  ids_.reserve(nodes_.size());
  for (Id id = 0; id < nodes_.size(); ++id) ids_.emplace(nodes_[id], id);
  unmapped_ = false;
}

namespace {

// A copy of `n` (keeping its checked type and span) with new children set by `modify` before
// the copy is shared.
template <typename T, typename F>
Expr CopyWith(const T* n, F&& modify) {
  T* copy = new T(*n);
  modify(copy);
  return Expr(Ref<T>(copy));
}

// True if rebuilding `pre` would change it. Checked before anything is allocated: most nodes
// keep their children, and their rebuild is then free.
bool AnyChildChanged(const Expr& pre, std::span<const PostOrderIndex::Id> children,
                     const std::vector<Expr>& results) {
  // Positions of the variables a function or let binds: rewritten to a non-var they keep
  // their binding site, which is no change.
  size_t binding_begin = 0, binding_end = 0;
  if (auto* fn = pre.as<FunctionNode>()) binding_end = fn->params.size();
  if (pre->kind == ExprKind::kLet) binding_begin = 1, binding_end = 2;
  size_t pos = 0;
  bool changed = false;
  ForEachVisitChild(pre.get(), [&](const Expr& c) {
    const size_t k = pos++;
    const PostOrderIndex::Id id = children[k];
    if (changed || id == PostOrderIndex::kNone || !results[id] || results[id].same_as(c)) return;
    if (k >= binding_begin && k < binding_end && !results[id].as<VarNode>()) return;
    changed = true;
  });
  return changed;
}

}  // namespace

Expr RebuildOnChildren(const Expr& pre, std::span<const PostOrderIndex::Id> children,
                       const std::vector<Expr>& results) {
  // A match's bound variables are spread between its children: its rebuild below decides.
  if (pre->kind != ExprKind::kMatch && !AnyChildChanged(pre, children, results)) return pre;
  size_t next = 0;
  bool changed = false;
  // The rewritten form of the next child, whose original is `c`.
  auto take = [&](const Expr& c) -> Expr {
    const PostOrderIndex::Id id = children[next++];
    Expr out = id == PostOrderIndex::kNone || !results[id] ? c : results[id];
    changed |= !out.same_as(c);
    return out;
  };
  auto take_var = [&](const Var& v) -> Var {
    const PostOrderIndex::Id id = children[next++];
    // A bound var rewritten to a non-var keeps its binding site.
    const VarNode* var = id == PostOrderIndex::kNone ? nullptr : results[id].as<VarNode>();
    if (!var || var == v.get()) return v;
    changed = true;
    return Var(var);
  };
  switch (pre->kind) {
    case ExprKind::kCall: {
      auto* n = pre.as<CallNode>();
      Expr op = take(n->op);
      std::vector<Expr> args;
      args.reserve(n->args.size());
      for (const Expr& a : n->args) args.push_back(take(a));
      if (!changed) return pre;
      return CopyWith(n, [&](CallNode* c) {
        c->op = std::move(op);
        c->args = std::move(args);
      });
    }
    case ExprKind::kTuple: {
      auto* n = pre.as<TupleNode>();
      std::vector<Expr> fields;
      fields.reserve(n->fields.size());
      for (const Expr& f : n->fields) fields.push_back(take(f));
      if (!changed) return pre;
      return CopyWith(n, [&](TupleNode* t) { t->fields = std::move(fields); });
    }
    case ExprKind::kTupleGetItem: {
      auto* n = pre.as<TupleGetItemNode>();
      Expr tuple = take(n->tuple);
      if (!changed) return pre;
      return CopyWith(n, [&](TupleGetItemNode* g) { g->tuple = std::move(tuple); });
    }
    case ExprKind::kFunction: {
      auto* n = pre.as<FunctionNode>();
      std::vector<Var> params;
      params.reserve(n->params.size());
      for (const Var& p : n->params) params.push_back(take_var(p));
      Expr body = take(n->body);
      if (!changed) return pre;
      return CopyWith(n, [&](FunctionNode* f) {
        f->params = std::move(params);
        f->body = std::move(body);
      });
    }
    case ExprKind::kLet: {
      auto* n = pre.as<LetNode>();
      Expr value = take(n->value);
      Var var = take_var(n->var);
      Expr body = take(n->body);
      if (!changed) return pre;
      return CopyWith(n, [&](LetNode* l) {
        l->var = std::move(var);
        l->value = std::move(value);
        l->body = std::move(body);
      });
    }
    case ExprKind::kIf: {
      auto* n = pre.as<IfNode>();
      Expr c = take(n->cond);
      Expr t = take(n->true_branch);
      Expr f = take(n->false_branch);
      if (!changed) return pre;
      return CopyWith(n, [&](IfNode* i) {
        i->cond = std::move(c);
        i->true_branch = std::move(t);
        i->false_branch = std::move(f);
      });
    }
    case ExprKind::kRefCreate: {
      auto* n = pre.as<RefCreateNode>();
      Expr value = take(n->value);
      if (!changed) return pre;
      return CopyWith(n, [&](RefCreateNode* r) { r->value = std::move(value); });
    }
    case ExprKind::kRefRead: {
      auto* n = pre.as<RefReadNode>();
      Expr ref = take(n->ref);
      if (!changed) return pre;
      return CopyWith(n, [&](RefReadNode* r) { r->ref = std::move(ref); });
    }
    case ExprKind::kRefWrite: {
      auto* n = pre.as<RefWriteNode>();
      Expr ref = take(n->ref);
      Expr value = take(n->value);
      if (!changed) return pre;
      return CopyWith(n, [&](RefWriteNode* r) {
        r->ref = std::move(ref);
        r->value = std::move(value);
      });
    }
    case ExprKind::kMatch: {
      auto* n = pre.as<MatchNode>();
      Expr data = take(n->data);
      std::vector<Clause> clauses;
      clauses.reserve(n->clauses.size());
      for (const Clause& c : n->clauses) {
        std::vector<Var> vars = PatternVars(c->lhs);
        for (Var& v : vars) v = take_var(v);
        Pattern lhs = ReplacePatternVars(c->lhs, vars);
        Expr rhs = take(c->rhs);
        clauses.push_back(lhs.same_as(c->lhs) && rhs.same_as(c->rhs)
                              ? c
                              : MakeClause(std::move(lhs), std::move(rhs)));
      }
      if (!changed) return pre;
      return CopyWith(n, [&](MatchNode* m) {
        m->data = std::move(data);
        m->clauses = std::move(clauses);
      });
    }
    default:
      return pre;
  }
}

}  // namespace relaypass::ir
