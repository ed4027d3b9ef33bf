#include <gtest/gtest.h>

#include "relaypass/ir/expr.h"
#include "relaypass/ir/visitor.h"

namespace relaypass::ir {
namespace {

TEST(ObjectTest, RefCountsAndSharing) {
  Var x = MakeVar("x", TensorType({1, 3}, DataType::Float32()));
  EXPECT_EQ(x->use_count(), 1);
  Expr e = x;
  EXPECT_EQ(x->use_count(), 2);
  EXPECT_TRUE(e.same_as(Expr(x)));
  EXPECT_NE(e.as<VarNode>(), nullptr);
  EXPECT_EQ(e.as<CallNode>(), nullptr);
}

TEST(ObjectTest, DestroysMillionNodeChainWithoutRecursion) {
  Expr e = MakeVar("x");
  for (int i = 0; i < 1000000; ++i) e = MakeTuple({e});
  EXPECT_EQ(CountNodes(e), 1000001u);
  e = Expr();  // must not overflow the stack
  SUCCEED();
}

}  // namespace
}  // namespace relaypass::ir
