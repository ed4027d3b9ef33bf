#include "relaypass/passes/infer_type_local.h"

#include "relaypass/ir/type_infer.h"
#include "relaypass/ir/visitor.h"

namespace relaypass::passes {

namespace {

using ir::Expr;

bool StandsIn(const ir::ExprNode* e) {
  // Variables, operators, globals and constants are their own stand-ins.
  return e->checked_type && e->kind != ir::ExprKind::kVar && e->kind != ir::ExprKind::kOp &&
         e->kind != ir::ExprKind::kGlobalVar && e->kind != ir::ExprKind::kConstant;
}

// The untyped part of an expression over variables standing in for its typed parts.
class SameTypedSubgraphExtractor : public ir::ExprMutator {
 public:
  explicit SameTypedSubgraphExtractor(const Expr& root) : root_(root.get()) {}

 protected:
  bool ShouldVisitChildren(const Expr& e) override {
    return e.get() == root_ || !StandsIn(e.get());
  }
  Expr Rewrite(const Expr& pre, const Expr& post) override {
    if (pre.get() != root_ && StandsIn(pre.get())) {
      return ir::MakeVar("dummy_var", pre->checked_type);
    }
    return post;
  }

 private:
  const ir::ExprNode* root_;
};

}  // namespace

ir::Type InferTypeLocal(const Expr& expr, const ir::IRModule& mod) {
  Expr sub = SameTypedSubgraphExtractor(expr).Mutate(expr);
  return ir::InferExprTypes(sub, mod)->checked_type;
}

}  // namespace relaypass::passes
