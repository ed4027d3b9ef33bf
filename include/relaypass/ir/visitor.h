// Traversals over expression DAGs. All of them are iterative (an explicit stack, never recursion
// on graph depth) and visit each shared node once.
#pragma once

#include <functional>
#include <vector>

#include "relaypass/ir/expr.h"
#include "relaypass/ir/post_order_index.h"

namespace relaypass::ir {

/// Calls fn on every node reachable from `root`, children before parents, each node once.
/// Order: a call's callee then its args; a function's params then body; a let's value, var, body;
/// an if's condition, then branches; a ref_write's ref, then value. Op nodes are visited too (as
/// TVM's post_order_visit does).
void post_order_visit(const Expr& root, const std::function<void(const Expr&)>& fn);

/// The same order as a vector of nodes (useful for index-based passes).
std::vector<Expr> PostOrder(const Expr& root);

/// Free variables of `expr` in order of first occurrence in post-order.
std::vector<Var> FreeVars(const Expr& expr);

/// Number of nodes reachable from `root` (each shared node once).
size_t CountNodes(const Expr& root);

/// A memoized post-order rewriter. Subclasses override the Rewrite* hooks; each is called once per
/// node, after that node's children were rewritten, with `post` = the node rebuilt on the new
/// children (the original node itself when no child changed, so unchanged subtrees keep their
/// identity). A rebuilt node is a copy of the original with new children: like TVM's WithFields it
/// keeps the original's checked type (possibly stale until InferType runs) and span.
class ExprMutator {
 public:
  virtual ~ExprMutator() = default;
  Expr Mutate(const Expr& expr);
  /// The result for an already visited node, or null.
  Expr Lookup(const Expr& pre) const;

 protected:
  /// Return false to leave `expr`'s children unvisited (it is then rewritten with post == pre).
  virtual bool ShouldVisitChildren(const Expr& /*expr*/) { return true; }
  /// Dispatches to the per-kind hooks below.
  virtual Expr Rewrite(const Expr& pre, const Expr& post);
  virtual Expr RewriteVar(const VarNode* /*pre*/, const Expr& post) { return post; }
  virtual Expr RewriteGlobalVar(const GlobalVarNode* /*pre*/, const Expr& post) { return post; }
  virtual Expr RewriteConstant(const ConstantNode* /*pre*/, const Expr& post) { return post; }
  virtual Expr RewriteOp(const OpNode* /*pre*/, const Expr& post) { return post; }
  virtual Expr RewriteCall(const CallNode* /*pre*/, const Expr& post) { return post; }
  virtual Expr RewriteTuple(const TupleNode* /*pre*/, const Expr& post) { return post; }
  virtual Expr RewriteTupleGetItem(const TupleGetItemNode* /*pre*/, const Expr& post) {
    return post;
  }
  virtual Expr RewriteFunction(const FunctionNode* /*pre*/, const Expr& post) { return post; }
  virtual Expr RewriteLet(const LetNode* /*pre*/, const Expr& post) { return post; }
  virtual Expr RewriteIf(const IfNode* /*pre*/, const Expr& post) { return post; }
  virtual Expr RewriteRefCreate(const RefCreateNode* /*pre*/, const Expr& post) { return post; }
  virtual Expr RewriteRefRead(const RefReadNode* /*pre*/, const Expr& post) { return post; }
  virtual Expr RewriteRefWrite(const RefWriteNode* /*pre*/, const Expr& post) { return post; }
  virtual Expr RewriteConstructor(const ConstructorNode* /*pre*/, const Expr& post) { return post; }
  virtual Expr RewriteMatch(const MatchNode* /*pre*/, const Expr& post) { return post; }

  /// While a Rewrite* hook runs: the number of the node being rewritten in index(), whose
  /// children(current_id()) number its children (ForEachVisitChild order). A rewriter can keep
  /// per-node facts in arrays indexed by these numbers instead of tables keyed by node.
  PostOrderIndex::Id current_id() const { return current_id_; }
  const PostOrderIndex& index() const { return index_; }

 private:
  /// Every node reached by Mutate so far, numbered; results_[id] is its rewrite (null while the
  /// node is still being processed).
  PostOrderIndex index_;
  std::vector<Expr> results_;
  PostOrderIndex::Id current_id_ = PostOrderIndex::kNone;
};

/// A post-order visitor with per-kind hooks, each node once.
class ExprVisitor {
 public:
  virtual ~ExprVisitor() = default;
  void Visit(const Expr& expr);

 protected:
  virtual void VisitVar(const VarNode*) {}
  virtual void VisitGlobalVar(const GlobalVarNode*) {}
  virtual void VisitConstant(const ConstantNode*) {}
  virtual void VisitOp(const OpNode*) {}
  virtual void VisitCall(const CallNode*) {}
  virtual void VisitTuple(const TupleNode*) {}
  virtual void VisitTupleGetItem(const TupleGetItemNode*) {}
  virtual void VisitFunction(const FunctionNode*) {}
  virtual void VisitLet(const LetNode*) {}
  virtual void VisitIf(const IfNode*) {}
  virtual void VisitRefCreate(const RefCreateNode*) {}
  virtual void VisitRefRead(const RefReadNode*) {}
  virtual void VisitRefWrite(const RefWriteNode*) {}
  virtual void VisitConstructor(const ConstructorNode*) {}
  virtual void VisitMatch(const MatchNode*) {}
};

}  // namespace relaypass::ir
