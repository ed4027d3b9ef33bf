#include <gtest/gtest.h>

#include "relaypass/ir/visitor.h"

namespace relaypass::ir {
namespace {

TEST(VisitorTest, PostOrderVisitsChildrenFirstOnce) {
  Var x = MakeVar("x");
  Var y = MakeVar("y");
  Expr t = MakeTuple({x, y});
  Expr root = MakeTuple({t, t, MakeTupleGetItem(t, 1)});
  std::vector<const ExprNode*> order;
  post_order_visit(root, [&](const Expr& e) { order.push_back(e.get()); });
  ASSERT_EQ(order.size(), 5u);
  EXPECT_EQ(order[0], x.get());
  EXPECT_EQ(order[1], y.get());
  EXPECT_EQ(order[2], t.get());
  EXPECT_EQ(order[4], root.get());
}

TEST(VisitorTest, FreeVarsInFirstOccurrenceOrder) {
  Var a = MakeVar("a");
  Var b = MakeVar("b");
  Var bound = MakeVar("p");
  Expr inner = MakeFunction({bound}, MakeTuple({bound, b}));
  Expr root = MakeTuple({inner, a, b});
  std::vector<Var> free = FreeVars(root);
  ASSERT_EQ(free.size(), 2u);
  EXPECT_EQ(free[0], b);
  EXPECT_EQ(free[1], a);
}

class RenameVars : public ExprMutator {
 protected:
  Expr RewriteVar(const VarNode* pre, const Expr& post) override {
    return MakeVar(pre->name_hint + "_renamed", pre->type_annotation);
  }
};

TEST(VisitorTest, MutatorRebindsParamsAndKeepsUnchangedIdentity) {
  Var x = MakeVar("x");
  Expr untouched = MakeTuple({});
  Function f = MakeFunction({x}, MakeTuple({x, untouched, x}));
  Expr out = RenameVars().Mutate(f);
  auto* g = out.as<FunctionNode>();
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->params[0]->name_hint, "x_renamed");
  auto* body = g->body.as<TupleNode>();
  ASSERT_NE(body, nullptr);
  EXPECT_EQ(body->fields[0].get(), g->params[0].get());  // uses follow the binder
  EXPECT_EQ(body->fields[2].get(), g->params[0].get());
  EXPECT_EQ(body->fields[1].get(), untouched.get());  // unchanged subtree kept
}

class Identity : public ExprMutator {};

TEST(VisitorTest, IdentityMutatorReturnsSameNodeOnDeepChain) {
  Expr e = MakeVar("x");
  for (int i = 0; i < 1000000; ++i) e = MakeTupleGetItem(e, 0);
  Expr out = Identity().Mutate(e);
  EXPECT_EQ(out.get(), e.get());
}

}  // namespace
}  // namespace relaypass::ir
