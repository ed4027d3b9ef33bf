#include "relaypass/ir/visitor.h"

#include "relaypass/ir/post_order_index.h"
#include "relaypass/support/pointer_map.h"

namespace relaypass::ir {

namespace {

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

// A uniquely referenced node is reached once (see Object::uniquely_referenced): not recorded.
struct SeenSet {
  support::PointerSet set;
  bool insert(const ExprNode* n) { return n->uniquely_referenced() || set.insert(n); }
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
    } else if (n->kind == ExprKind::kMatch) {
      for (const Clause& c : static_cast<const MatchNode*>(n)->clauses) {
        for (const Var& v : PatternVars(c->lhs)) bound.insert(v.get());
      }
    }
  });
  std::vector<Var> out;
  for (const VarNode* v : uses) {
    if (!bound.contains(v)) out.emplace_back(v);
  }
  return out;
}

Expr ExprMutator::Lookup(const Expr& pre) const {
  const PostOrderIndex::Id id = index_.find(pre.get());
  return id < results_.size() ? results_[id] : Expr();
}

Expr ExprMutator::Mutate(const Expr& expr) {
  if (!expr) return expr;
  if (Expr done = Lookup(expr)) return done;
  // Nodes reached by an earlier Mutate call keep their numbers and results: not walked again.
  const size_t first = index_.post_order().size();
  const PostOrderIndex::Id root =
      index_.Add(expr, [&](const ExprNode* n) { return ShouldVisitChildren(Expr(n)); });
  results_.resize(index_.size());
  const PostOrderIndex::Id outer_id = current_id_;  // a hook may call Mutate again
  for (size_t i = first; i < index_.post_order().size(); ++i) {
    const PostOrderIndex::Id id = index_.post_order()[i];
    Expr pre(index_.node(id));
    Expr post =
        index_.children_visited(id) ? RebuildOnChildren(pre, index_.children(id), results_) : pre;
    current_id_ = id;
    results_[id] = Rewrite(pre, post);
  }
  current_id_ = outer_id;
  return results_[root];
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
    case ExprKind::kRefCreate:
      return RewriteRefCreate(pre.as<RefCreateNode>(), post);
    case ExprKind::kRefRead:
      return RewriteRefRead(pre.as<RefReadNode>(), post);
    case ExprKind::kRefWrite:
      return RewriteRefWrite(pre.as<RefWriteNode>(), post);
    case ExprKind::kConstructor:
      return RewriteConstructor(pre.as<ConstructorNode>(), post);
    case ExprKind::kMatch:
      return RewriteMatch(pre.as<MatchNode>(), post);
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
      case ExprKind::kRefCreate:
        VisitRefCreate(static_cast<const RefCreateNode*>(n));
        break;
      case ExprKind::kRefRead:
        VisitRefRead(static_cast<const RefReadNode*>(n));
        break;
      case ExprKind::kRefWrite:
        VisitRefWrite(static_cast<const RefWriteNode*>(n));
        break;
      case ExprKind::kConstructor:
        VisitConstructor(static_cast<const ConstructorNode*>(n));
        break;
      case ExprKind::kMatch:
        VisitMatch(static_cast<const MatchNode*>(n));
        break;
    }
  });
}

}  // namespace relaypass::ir
