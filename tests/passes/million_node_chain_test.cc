// Each pass on workloads::Chain(1,000000) (x through 1,000,000 alternating add(y, 1f) / relu), on
// the default stack. TVM overflows its stack on a 100,000-node chain, and its CSE scans one
// candidate list per op, which is quadratic here.
#include <gtest/gtest.h>

#include "../depth_scale.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/passes/combine_parallel.h"
#include "relaypass/passes/dead_code.h"
#include "relaypass/passes/eliminate_common_subexpr.h"
#include "relaypass/passes/fast_math.h"
#include "relaypass/passes/fuse_ops.h"
#include "relaypass/passes/to_a_normal_form.h"
#include "relaypass/workloads/workloads.h"

namespace relaypass::passes {
namespace {

// 1,000,000, or fewer under RELAYPASS_DEPTH_SCALE (the sanitizer builds).
const int64_t kOps = relaypass::testing::ScaledDepth(1000000);

const ir::IRModule& TypedChain() {
  static const ir::IRModule mod = ir::InferTypes(ir::IRModule::FromExpr(workloads::Chain(kOps)));
  return mod;
}

size_t CountLets(const ir::IRModule& mod) {
  size_t n = 0;
  for (ir::Expr e = mod.Lookup("main")->body; auto* let = e.as<ir::LetNode>(); e = let->body) ++n;
  return n;
}

TEST(MillionNodeChainTest, EliminateCommonSubexpr) {
  const ir::IRModule& mod = TypedChain();
  ir::IRModule out = EliminateCommonSubexpr()(mod);
  // Every add reads a different value: nothing to merge.
  EXPECT_EQ(ir::CountNodes(out.Lookup("main")), ir::CountNodes(mod.Lookup("main")));
}

TEST(MillionNodeChainTest, FuseOps) {
  ir::IRModule out = FuseOps()(TypedChain());
  // main is a chain of calls to primitive functions of at most 256 graph nodes each. The first
  // argument continues the chain; a 1f whose add starts a new group is an extra argument (it
  // cannot join a group that is already full).
  size_t functions = 0;
  size_t calls = 0;
  size_t constant_args = 0;
  ir::Expr e = out.Lookup("main")->body;
  while (auto* call = e.as<ir::CallNode>()) {
    auto* func = call->op.as<ir::FunctionNode>();
    ASSERT_TRUE(func && func->is_primitive());
    size_t nodes = 0;  // graph nodes: calls and the embedded constants
    ir::post_order_visit(func->body, [&](const ir::Expr& n) {
      if (n.as<ir::CallNode>()) ++calls;
      if (n.as<ir::CallNode>() || n.as<ir::ConstantNode>()) ++nodes;
    });
    EXPECT_LE(nodes, 256u);
    ASSERT_GE(call->args.size(), 1u);
    for (size_t i = 1; i < call->args.size(); ++i) {
      EXPECT_TRUE(call->args[i].as<ir::ConstantNode>());
      ++constant_args;
    }
    ++functions;
    e = call->args[0];
  }
  EXPECT_TRUE(e.as<ir::VarNode>());
  EXPECT_EQ(calls, static_cast<size_t>(kOps));
  // 1,500,000 graph nodes (a call each, a constant per add) in groups of at most 256.
  EXPECT_GE(functions * 256 + constant_args, static_cast<size_t>(kOps * 3 / 2));
}

TEST(MillionNodeChainTest, ToANormalFormAndDeadCodeElimination) {
  ir::IRModule anf = ToANormalForm()(TypedChain());
  // One binding per call and per constant (one 1f per add).
  EXPECT_EQ(CountLets(anf), static_cast<size_t>(kOps + kOps / 2));
  // Every binding is used once: inline_once folds all of them back into one deep expression.
  ir::IRModule inlined = DeadCodeElimination(/*inline_once=*/true)(anf);
  EXPECT_EQ(CountLets(inlined), 0u);
}

// Nothing to combine or approximate on the chain: each pass walks it once and leaves it as it is.
TEST(MillionNodeChainTest, CombineParallelAndFastMath) {
  const ir::IRModule& mod = TypedChain();
  const size_t nodes = ir::CountNodes(mod.Lookup("main"));
  for (const transform::Pass& pass : {CombineParallelConv2D(), CombineParallelDense(),
                                      CombineParallelBatchMatmul(), FastMath()}) {
    SCOPED_TRACE(pass.info().name);
    EXPECT_EQ(ir::CountNodes(pass(mod).Lookup("main")), nodes);
  }
}

}  // namespace
}  // namespace relaypass::passes
