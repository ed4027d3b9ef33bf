// A dense numbering of an expression DAG's nodes, with each node's children as numbers.
//
// Built by one iterative walk that probes a pointer-keyed table once per edge; everything after
// it (types, rewritten nodes, any per-node fact) lives in plain arrays indexed by node number.
// On million-node graphs the probes are cache misses (the table is keyed by hashed pointers),
// so passes that once looked nodes up in several tables per edge spent most of their time there.
//
// The first Add skips even that for nodes with a single reference (use_count 1): the only
// reference is their parent's edge, so the walk cannot reach them twice. A chain of calls is
// then numbered without touching the table. Such nodes enter the table only if find() (or a
// later Add) needs them, all at once.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "relaypass/ir/expr.h"
#include "relaypass/support/pointer_map.h"

namespace relaypass::ir {

/// Children as the traversals see them: ForEachChild plus the variables a function or let binds.
/// Call: op, args...; Tuple: fields...; TupleGetItem: tuple; Function: params..., body;
/// Let: value, var, body (a rewriter sees the rewritten value before it rewrites the variable);
/// If: cond, true branch, false branch; RefCreate: value; RefRead: ref; RefWrite: ref, value;
/// Match: data, then per clause its pattern's variables and its right-hand side.
template <typename F>
void ForEachVisitChild(const ExprNode* e, F&& fn) {
  if (e->kind == ExprKind::kMatch) {
    auto* match = static_cast<const MatchNode*>(e);
    fn(match->data);
    for (const Clause& c : match->clauses) {
      for (const Var& v : PatternVars(c->lhs)) fn(Expr(v));
      fn(c->rhs);
    }
    return;
  }
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

class PostOrderIndex {
 public:
  using Id = uint32_t;
  static constexpr Id kNone = UINT32_MAX;

  /// Numbers the nodes reachable from `root` that are not numbered yet (each node once) and
  /// returns root's number. `expand(node)` returning false leaves that node's children unvisited
  /// (the node is then listed with no children). Nodes are numbered when first reached; they are
  /// appended to post_order() after their children. The index holds raw pointers: the caller keeps
  /// the nodes alive while it is used.
  Id Add(const Expr& root, const std::function<bool(const ExprNode*)>& expand);
  Id Add(const Expr& root) {
    return Add(root, [](const ExprNode*) { return true; });
  }

  size_t size() const { return nodes_.size(); }
  const ExprNode* node(Id id) const { return nodes_[id]; }
  /// The number of `node`, or kNone.
  Id find(const ExprNode* node) const {
    if (unmapped_) MapAll();
    const Id* id = ids_.find(node);
    return id ? *id : kNone;
  }
  /// Every numbered node, children before parents.
  const std::vector<Id>& post_order() const { return post_order_; }
  /// The children of `id` in ForEachVisitChild order (kNone for a null child); empty if they
  /// were not visited.
  std::span<const Id> children(Id id) const {
    return {children_.data() + child_begin_[id], child_count_[id]};
  }
  bool children_visited(Id id) const { return state_[id] == kExpanded; }

 private:
  /// kOpen from numbering until the node is appended to post_order_.
  enum State : uint8_t { kOpen, kExpanded, kNotExpanded };

  /// Enters the nodes numbered without a table entry (see above).
  void MapAll() const;

  /// Logically const: completing the table changes no answer.
  mutable support::PointerMap<Id> ids_;
  mutable bool unmapped_ = false;
  std::vector<const ExprNode*> nodes_;
  std::vector<State> state_;
  std::vector<uint32_t> child_begin_;
  std::vector<uint32_t> child_count_;
  std::vector<Id> children_;
  std::vector<Id> post_order_;
};

/// `pre` rebuilt on rewritten children: `children` are pre's children's numbers (as
/// PostOrderIndex lists them) and `results[child]` their rewritten forms (a null result keeps the
/// original child). Returns `pre` itself when no child changed; otherwise a copy of pre that keeps
/// its checked type and span, as TVM's WithFields does.
Expr RebuildOnChildren(const Expr& pre, std::span<const PostOrderIndex::Id> children,
                       const std::vector<Expr>& results);

}  // namespace relaypass::ir
