// rewrite and partition, on the cases of TVM v0.13's tests/python/relay/test_dataflow_pattern.py
// (test_rewrite, test_rewrite_func, test_not_fuse_multi_diamond, test_partition_check,
// test_partition_overused, test_partition_constant_embedding, ...): the expected graphs are built
// as TVM's tests build their `reference`, and compared structurally as they do.
#include <gtest/gtest.h>

#include "relaypass/ir/structural.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/pattern/match.h"
#include "relaypass/relay.h"
#include "relaypass/text/printer.h"

namespace relaypass::pattern {
namespace {

using ir::AttrValue;
using ir::Expr;
namespace relay = relaypass::relay;

TEST(PatternRewriteTest, AddToSubtract) {
  Expr x = relay::var("x"), y = relay::var("y");
  DFPatternCallback cb;
  cb.pattern = IsOp("add")({Wildcard(), Wildcard()});
  cb.function = [](const Expr&, const Expr& post, const NodeMap&) -> Expr {
    auto* call = post.as<ir::CallNode>();
    return relay::subtract(call->args[0], call->args[1]);
  };
  Expr out = Rewrite({cb}, relay::add(x, y));
  EXPECT_TRUE(Match(IsOp("subtract")({IsVar("x"), IsVar("y")}), out));
}

// The callback sees the node map of rewritten nodes, and rewrites repeat to a fixpoint.
TEST(PatternRewriteTest, NodeMapAndFixpoint) {
  Expr x = relay::var("x");
  DFPattern in = Wildcard();
  DFPatternCallback cb;
  cb.pattern = IsOp("nn.relu")({IsOp("nn.relu")({in})});
  cb.function = [in](const Expr&, const Expr&, const NodeMap& map) -> Expr {
    return relay::nn::relu(Lookup(map, in)[0]);
  };
  // relu^5(x) -> relu(x): relu(relu(.)) collapses until nothing matches.
  Expr e = x;
  for (int i = 0; i < 5; ++i) e = relay::nn::relu(e);
  Expr out = Rewrite({cb}, e);
  EXPECT_TRUE(ir::StructuralEqual(out, relay::nn::relu(x)));

  // rewrite_once stops after one round: relu^4 -> relu^2 (two disjoint matches).
  cb.rewrite_once = true;
  Expr e4 = x;
  for (int i = 0; i < 4; ++i) e4 = relay::nn::relu(e4);
  EXPECT_TRUE(ir::StructuralEqual(Rewrite({cb}, e4), relay::nn::relu(relay::nn::relu(x))));
}

TEST(PatternRewriteTest, RequireTypeSeesTypes) {
  Expr x = relay::var("x", {2, 3}, "float32");
  DFPatternCallback cb;
  cb.pattern = IsOp("nn.relu")({Wildcard()}).HasShape({2, 3});
  cb.require_type = true;
  cb.function = [](const Expr&, const Expr& post, const NodeMap&) -> Expr {
    return relay::sigmoid(post.as<ir::CallNode>()->args[0]);
  };
  Expr out = Rewrite({cb}, relay::nn::relu(x));
  // Type inference gives the free variable a typed copy, so compare by name.
  auto* call = out.as<ir::CallNode>();
  ASSERT_TRUE(call && call->op_node());
  EXPECT_EQ(call->op_node()->name, "sigmoid");
  EXPECT_TRUE(Match(IsVar("x"), call->args[0]));
}

// A callback that changes the graph every round: TVM gives up after 100 rounds.
TEST(PatternRewriteTest, NeverConvergingStopsAfter100Rounds) {
  Expr x = relay::var("x");
  int calls = 0;
  DFPatternCallback bump{IsOp("add")({Wildcard(), IsConstant()}),
                         [&calls](const Expr&, const Expr& post, const NodeMap&) -> Expr {
                           ++calls;
                           auto* c = post.as<ir::CallNode>();
                           return relay::add(c->args[0], relay::const_(static_cast<float>(calls)));
                         }};
  EXPECT_THROW(Rewrite({bump}, relay::add(x, relay::const_(0.0f))), InternalError);
  EXPECT_EQ(calls, 100);
  // Two callbacks undoing each other converge (the round ends where it started), as in TVM.
  DFPatternCallback to_sub{IsOp("add")({Wildcard(), Wildcard()}),
                           [](const Expr&, const Expr& post, const NodeMap&) -> Expr {
                             auto* c = post.as<ir::CallNode>();
                             return relay::subtract(c->args[0], c->args[1]);
                           }};
  DFPatternCallback to_add{IsOp("subtract")({Wildcard(), Wildcard()}),
                           [](const Expr&, const Expr& post, const NodeMap&) -> Expr {
                             auto* c = post.as<ir::CallNode>();
                             return relay::add(c->args[0], c->args[1]);
                           }};
  Expr y = relay::var("y");
  EXPECT_TRUE(ir::StructuralEqual(Rewrite({to_sub, to_add}, relay::add(x, y)), relay::add(x, y)));
}

// test_partition_check.
TEST(PatternPartitionTest, Check) {
  DFPattern pattern = IsOp("nn.relu")({IsOp("nn.conv2d")({IsVar("input"), Wildcard()})});
  auto check = [](const Expr& pre) {
    auto* conv = pre.as<ir::CallNode>()->args[0].as<ir::CallNode>();
    return conv->attrs->get_string("data_layout") == "NCHW";
  };
  Expr x = relay::var("input"), w = relay::var("weight");
  Expr relu = relay::nn::relu(relay::nn::conv2d(x, w));

  ir::Var xf = relay::var("input"), wf = relay::var("weight");
  Expr func = ir::MakeFunction({xf, wf}, relay::nn::relu(relay::nn::conv2d(xf, wf)), nullptr,
                               {{"PartitionedFromPattern", AttrValue::Str("nn.conv2d_nn.relu_")}});
  Expr reference = ir::MakeCall(func, {x, w});
  Expr partitioned = Partition(pattern, relu, {}, check);
  EXPECT_TRUE(ir::StructuralEqual(partitioned, reference));
  // What TVM prints for it.
  EXPECT_EQ(text::PrettyPrint(partitioned),
            "free_var %input;\n"
            "free_var %weight;\n"
            "%1 = fn (%FunctionVar_0_0, %FunctionVar_0_1, "
            "PartitionedFromPattern=\"nn.conv2d_nn.relu_\") {\n"
            "  %0 = nn.conv2d(%FunctionVar_0_0, %FunctionVar_0_1, padding=[0, 0, 0, 0]);\n"
            "  nn.relu(%0)\n"
            "};\n"
            "%1(%input, %weight)");

  Expr nhwc = relay::nn::relu(relay::nn::conv2d(x, w, {.data_layout = "NHWC"}));
  EXPECT_TRUE(Partition(pattern, nhwc, {}, check).same_as(nhwc));
}

// test_partition_overused: conv2d is used outside the match, so nothing is partitioned.
TEST(PatternPartitionTest, Overused) {
  DFPattern pattern = IsOp("nn.relu")({IsOp("nn.conv2d")({Wildcard(), Wildcard()})});
  Expr x = relay::var("input"), w = relay::var("weight");
  Expr conv2d = relay::nn::conv2d(x, w);
  Expr out = relay::add(relay::nn::relu(conv2d), conv2d);
  EXPECT_TRUE(Partition(pattern, out).same_as(out));
}

// Two matches: groups numbered from the output, attrs after PartitionedFromPattern.
TEST(PatternPartitionTest, TwoGroupsWithAttrs) {
  DFPattern pattern = IsOp("nn.relu")({IsOp("add")({Wildcard(), IsConstant()})});
  Expr x = relay::var("x", {1, 4}, "float32");
  Expr inner = relay::nn::relu(relay::add(x, relay::const_(1.0f)));
  Expr outer = relay::nn::relu(relay::add(inner, relay::const_(2.0f)));
  Expr out = Partition(pattern, outer, {{"Composite", AttrValue::Str("test.add_relu")}});
  // Constants matched by is_constant() stay inside the functions (TVM's EmbedConst). Groups
  // are numbered from the output (FunctionVar_0_* is the outer match). Temps are numbered as TVM
  // v0.13's printer numbers them (../shared/spec/relay_semantics.md 1.7: the root call's callee
  // is visited first, so the outer function's body gets %0; a function is bound after its
  // call's arguments).
  EXPECT_EQ(text::PrettyPrint(out),
            "free_var %x: Tensor[(1, 4), float32];\n"
            "%2 = fn (%FunctionVar_1_0, PartitionedFromPattern=\"add_nn.relu_\", "
            "Composite=\"test.add_relu\") {\n"
            "  %1 = add(%FunctionVar_1_0, 1f);\n"
            "  nn.relu(%1)\n"
            "};\n"
            "%3 = %2(%x);\n"
            "%4 = fn (%FunctionVar_0_0, PartitionedFromPattern=\"add_nn.relu_\", "
            "Composite=\"test.add_relu\") {\n"
            "  %0 = add(%FunctionVar_0_0, 2f);\n"
            "  nn.relu(%0)\n"
            "};\n"
            "%4(%3)");
}

// A rewrite over a long chain is linear: every add(x, 1f) becomes subtract(x, -1f).
TEST(PatternRewriteTest, LongChain) {
  const int n = 100000;
  Expr e = relay::var("x", {1, 16}, "float32");
  for (int i = 0; i < n; ++i) {
    e = i % 2 ? relay::nn::relu(e) : relay::add(e, relay::const_(1.0f));
  }
  DFPatternCallback cb{IsOp("add")({Wildcard(), IsConstant()}),
                       [](const Expr&, const Expr& post, const NodeMap&) -> Expr {
                         auto* c = post.as<ir::CallNode>();
                         return relay::subtract(c->args[0], relay::const_(-1.0f));
                       }};
  Expr out = Rewrite({cb}, e);
  size_t subtracts = 0, adds = 0;
  ir::post_order_visit(out, [&](const Expr& node) {
    if (auto* c = node.as<ir::CallNode>(); c && c->op_node()) {
      subtracts += c->op_node()->name == "subtract";
      adds += c->op_node()->name == "add";
    }
  });
  EXPECT_EQ(subtracts, static_cast<size_t>(n / 2));
  EXPECT_EQ(adds, 0u);
  // And partition on the same chain.
  Expr parts = Partition(IsOp("nn.relu")({Wildcard()}), out);
  EXPECT_EQ(ir::CountNodes(parts) > ir::CountNodes(out), true);
}

// ir::ExprMutator is TVM's MixedModeMutator: Rewrite hooks see the rewritten children.
class ReluToSigmoid : public ir::ExprMutator {
 protected:
  Expr RewriteCall(const ir::CallNode* pre, const Expr& post) override {
    auto* call = post.as<ir::CallNode>();
    if (pre->op_node() && pre->op_node()->name == "nn.relu") return relay::sigmoid(call->args[0]);
    return post;
  }
};

TEST(MixedModeMutatorTest, PostOrderSeesRewrittenChildren) {
  Expr x = relay::var("x");
  Expr e = relay::nn::relu(relay::nn::relu(x));
  ReluToSigmoid m;
  EXPECT_TRUE(ir::StructuralEqual(m.Mutate(e), relay::sigmoid(relay::sigmoid(x))));
}

}  // namespace
}  // namespace relaypass::pattern
