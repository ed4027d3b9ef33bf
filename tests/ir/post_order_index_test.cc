#include "relaypass/ir/post_order_index.h"

#include <gtest/gtest.h>

#include "relaypass/ir/visitor.h"

namespace relaypass::ir {
namespace {

using Id = PostOrderIndex::Id;

std::vector<const ExprNode*> NodesInPostOrder(const PostOrderIndex& index) {
  std::vector<const ExprNode*> out;
  for (Id id : index.post_order()) out.push_back(index.node(id));
  return out;
}

TEST(PostOrderIndexTest, SameOrderAsPostOrderAndSharedNodesOnce) {
  Var x = MakeVar("x");
  Var y = MakeVar("y");
  Expr t = MakeTuple({x, y});
  // `t` is reached through the root's first field and again inside the get-item.
  Expr root = MakeTuple({t, MakeTupleGetItem(t, 1), t});
  PostOrderIndex index;
  const Id root_id = index.Add(root);
  EXPECT_EQ(index.size(), 5u);
  EXPECT_EQ(index.node(root_id), root.get());
  std::vector<const ExprNode*> expected;
  for (const Expr& e : PostOrder(root)) expected.push_back(e.get());
  EXPECT_EQ(NodesInPostOrder(index), expected);
}

TEST(PostOrderIndexTest, ChildrenAreListedByNumberInVisitOrder) {
  Var x = MakeVar("x");
  Var v = MakeVar("v");
  Expr t = MakeTuple({x, x});
  Expr let = MakeLet(v, t, MakeTupleGetItem(v, 0));
  Expr fn = MakeFunction({x}, let);
  PostOrderIndex index;
  const Id fn_id = index.Add(fn);
  const Id x_id = index.find(x.get());
  const Id v_id = index.find(v.get());
  const Id t_id = index.find(t.get());
  const Id let_id = index.find(let.get());
  ASSERT_NE(x_id, PostOrderIndex::kNone);
  // Function: params, then body.
  EXPECT_EQ(std::vector<Id>(index.children(fn_id).begin(), index.children(fn_id).end()),
            (std::vector<Id>{x_id, let_id}));
  // Let: value, var, body.
  auto let_children = index.children(let_id);
  ASSERT_EQ(let_children.size(), 3u);
  EXPECT_EQ(let_children[0], t_id);
  EXPECT_EQ(let_children[1], v_id);
  EXPECT_EQ(index.node(let_children[2])->kind, ExprKind::kTupleGetItem);
  // A node used twice by one parent is listed twice.
  EXPECT_EQ(std::vector<Id>(index.children(t_id).begin(), index.children(t_id).end()),
            (std::vector<Id>{x_id, x_id}));
  EXPECT_TRUE(index.children(x_id).empty());
  EXPECT_EQ(index.find(MakeVar("elsewhere").get()), PostOrderIndex::kNone);
}

TEST(PostOrderIndexTest, UnexpandedNodesHaveNoChildren) {
  Var x = MakeVar("x");
  Expr inner = MakeTuple({x});
  Expr root = MakeTuple({inner});
  PostOrderIndex index;
  index.Add(root, [&](const ExprNode* n) { return n != inner.get(); });
  EXPECT_EQ(index.size(), 2u);  // x is never reached
  const Id inner_id = index.find(inner.get());
  EXPECT_FALSE(index.children_visited(inner_id));
  EXPECT_TRUE(index.children(inner_id).empty());
  EXPECT_TRUE(index.children_visited(index.find(root.get())));
}

TEST(PostOrderIndexTest, LaterAddsNumberOnlyNewNodes) {
  Var x = MakeVar("x");
  Expr first = MakeTuple({x});
  Expr second = MakeTuple({first, MakeVar("y")});
  PostOrderIndex index;
  index.Add(first);
  EXPECT_EQ(index.size(), 2u);
  const Id second_id = index.Add(second);
  EXPECT_EQ(index.size(), 4u);
  EXPECT_EQ(index.post_order().size(), 4u);
  EXPECT_EQ(index.post_order().back(), second_id);
  EXPECT_EQ(index.children(second_id)[0], index.find(first.get()));
}

TEST(PostOrderIndexTest, MillionNodeChainWithoutRecursion) {
  Var x = MakeVar("x");
  Expr e = x;
  for (int i = 0; i < 1000000; ++i) e = MakeTupleGetItem(MakeTuple({e}), 0);
  PostOrderIndex index;
  const Id root = index.Add(e);
  EXPECT_EQ(index.size(), 2000001u);
  EXPECT_EQ(index.post_order().front(), index.find(x.get()));
  EXPECT_EQ(index.post_order().back(), root);
}

TEST(PostOrderIndexTest, SingleReferenceNodesAreFoundToo) {
  // The inner tuples are referenced only by their parents: numbered without a table entry,
  // then found through the lazily completed table.
  Var x = MakeVar("x");
  Expr root = MakeTuple({MakeTuple({MakeTuple({x})})});
  const ExprNode* middle = root.as<TupleNode>()->fields[0].get();
  const ExprNode* inner = static_cast<const TupleNode*>(middle)->fields[0].get();
  ASSERT_EQ(inner->use_count(), 1);
  PostOrderIndex index;
  const Id root_id = index.Add(root);
  EXPECT_EQ(index.size(), 4u);
  const Id inner_id = index.find(inner);
  ASSERT_NE(inner_id, PostOrderIndex::kNone);
  EXPECT_EQ(index.node(inner_id), inner);
  EXPECT_EQ(index.children(index.find(middle))[0], inner_id);
  EXPECT_EQ(index.children(root_id)[0], index.find(middle));
  // A later Add that reaches them again reuses their numbers.
  Expr again = MakeTuple({root.as<TupleNode>()->fields[0], MakeVar("y")});
  index.Add(again);
  EXPECT_EQ(index.size(), 6u);
}

TEST(RebuildOnChildrenTest, UnchangedChildrenKeepTheNode) {
  Var x = MakeVar("x");
  Expr t = MakeTuple({x, x});
  PostOrderIndex index;
  const Id t_id = index.Add(t);
  std::vector<Expr> results(index.size());
  results[index.find(x.get())] = x;
  EXPECT_TRUE(RebuildOnChildren(t, index.children(t_id), results).same_as(t));
}

TEST(RebuildOnChildrenTest, NewChildrenMakeACopyWithTheOldType) {
  Var x = MakeVar("x");
  Var y = MakeVar("y");
  Expr t = MakeTuple({x, x});
  const_cast<ExprNode*>(t.get())->checked_type = TupleType({});
  PostOrderIndex index;
  const Id t_id = index.Add(t);
  std::vector<Expr> results(index.size());
  results[index.find(x.get())] = y;
  Expr rebuilt = RebuildOnChildren(t, index.children(t_id), results);
  ASSERT_FALSE(rebuilt.same_as(t));
  auto* tuple = rebuilt.as<TupleNode>();
  ASSERT_NE(tuple, nullptr);
  EXPECT_TRUE(tuple->fields[0].same_as(y));
  EXPECT_TRUE(tuple->fields[1].same_as(y));
  EXPECT_TRUE(rebuilt->checked_type.same_as(t->checked_type));
}

TEST(RebuildOnChildrenTest, ABoundVarRewrittenToANonVarKeepsItsBindingSite) {
  Var v = MakeVar("v");
  Expr value = MakeTuple({});
  Expr let = MakeLet(v, value, v);
  PostOrderIndex index;
  const Id let_id = index.Add(let);
  std::vector<Expr> results(index.size());
  const Expr replacement = MakeTuple({MakeVar("z")});
  results[index.find(v.get())] = replacement;  // uses of v become a tuple
  Expr rebuilt = RebuildOnChildren(let, index.children(let_id), results);
  auto* node = rebuilt.as<LetNode>();
  ASSERT_NE(node, nullptr);
  EXPECT_TRUE(node->var.same_as(v));
  EXPECT_TRUE(node->body.same_as(replacement));
}

}  // namespace
}  // namespace relaypass::ir
