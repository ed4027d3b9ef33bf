// EliminateCommonSubexpr against the tutorial and small graphs (relay_semantics.md 3.3). The
// expected files were checked by hand: what merges is stated in each test.
#include <gtest/gtest.h>

#include "pass_test_util.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/passes/eliminate_common_subexpr.h"
#include "relaypass/relay.h"

namespace relaypass::passes {
namespace {

using relay::Expr;
using relay::Var;
using testing::Print;
using testing::ReadGolden;
using testing::Typed;

TEST(EliminateCommonSubexprTest, Tutorial) {
  EXPECT_EQ(Print(EliminateCommonSubexpr()(testing::TutorialFolded())),
            ReadGolden("tutorial_cse.txt"));
}

// softmax(x, axis=1) twice merges; softmax(x, axis=0) has other attrs and stays.
TEST(EliminateCommonSubexprTest, AttrsMustBeEqual) {
  Var x = relay::var("x", {2, 4});
  Expr body =
      relay::tuple({relay::nn::softmax(x, 1), relay::nn::softmax(x, 0), relay::nn::softmax(x, 1)});
  EXPECT_EQ(Print(EliminateCommonSubexpr()(Typed(relay::function({x}, body)))),
            ReadGolden("cse_attrs.txt"));
}

// Equal scalar constants are interchangeable arguments (add(x, 1f) twice with two distinct 1f
// nodes merges); 2f differs; equal non-scalar constants are compared by identity, so
// add(x, c) and add(x, c') both stay.
TEST(EliminateCommonSubexprTest, ScalarConstantsCompareByValue) {
  Var x = relay::var("x", {2});
  auto f32 = ir::DataType::Float32();
  Expr body = relay::tuple({relay::add(x, relay::const_(1.0f)), relay::add(x, relay::const_(1.0f)),
                            relay::add(x, relay::const_(2.0f)),
                            relay::add(x, relay::const_(ir::NDArray::Empty({2}, f32))),
                            relay::add(x, relay::const_(ir::NDArray::Empty({2}, f32)))});
  EXPECT_EQ(Print(EliminateCommonSubexpr()(Typed(relay::function({x}, body)))),
            ReadGolden("cse_scalar_constants.txt"));
}

// Two identical batch_norm calls merge; then `.0` of the one remaining tuple twice merges, `.1`
// stays.
TEST(EliminateCommonSubexprTest, GetItemsOfTheSameTuple) {
  Var x = relay::var("x", {1, 2, 3, 3});
  std::vector<Var> params = {x, relay::var("g", {2}), relay::var("b", {2}), relay::var("m", {2}),
                             relay::var("v", {2})};
  auto bn = [&] { return relay::nn::batch_norm(x, params[1], params[2], params[3], params[4]); };
  Expr body =
      relay::tuple({relay::get_item(bn(), 0), relay::get_item(bn(), 0), relay::get_item(bn(), 1)});
  EXPECT_EQ(Print(EliminateCommonSubexpr()(Typed(relay::function(params, body)))),
            ReadGolden("cse_get_items.txt"));
}

// Merges carry up a chain: once the second exp(x) is the first, the adds on them have the same
// argument and merge, then the relus on those. The result is the graph built without the copies.
TEST(EliminateCommonSubexprTest, MergesCarryUpAChain) {
  Var x = relay::var("x", {2});
  Var y = relay::var("y", {2});
  auto chain = [&] { return relay::nn::relu(relay::add(relay::exp(x), y)); };
  Expr twice = relay::tuple({chain(), chain(), relay::subtract(chain(), chain())});
  Expr once_value = chain();
  Expr once = relay::tuple({once_value, once_value, relay::subtract(once_value, once_value)});
  EXPECT_EQ(Print(EliminateCommonSubexpr()(Typed(relay::function({x, y}, twice)))),
            Print(Typed(relay::function({x, y}, once))));
}

// Two concatenates of distinct but field-wise identical tuples merge; the tuples themselves are
// never merged, so the second one disappears with its call.
TEST(EliminateCommonSubexprTest, TupleArgumentsCompareFieldWise) {
  Var x = relay::var("x", {2});
  Var y = relay::var("y", {2});
  Expr body = relay::add(relay::concatenate({x, y}), relay::concatenate({x, y}));
  EXPECT_EQ(Print(EliminateCommonSubexpr()(Typed(relay::function({x, y}, body)))),
            ReadGolden("cse_tuple_args.txt"));
}

// fskip sees the rewritten call; skipping every add leaves the tutorial's module unchanged.
TEST(EliminateCommonSubexprTest, SkipPredicate) {
  ir::IRModule mod = testing::TutorialFolded();
  auto skip_adds = [](const ir::Expr& e) {
    auto* call = e.as<ir::CallNode>();
    return call && call->op_node() && call->op_node()->name == "add";
  };
  EXPECT_EQ(Print(EliminateCommonSubexpr(skip_adds)(mod)), Print(mod));
}

// nn.dropout is stateful: two dropouts of x stay two.
TEST(EliminateCommonSubexprTest, StatefulOpsAreKept) {
  Var x = relay::var("x", {2});
  Expr body = relay::add(relay::get_item(relay::nn::dropout(x), 0),
                         relay::get_item(relay::nn::dropout(x), 0));
  ir::IRModule mod = Typed(relay::function({x}, body));
  EXPECT_EQ(Print(EliminateCommonSubexpr()(mod)), Print(mod));
}

// Calls of a non-op (a closure) are never merged; calls inside a primitive function's body are.
TEST(EliminateCommonSubexprTest, ClosureCallsKeptPrimitiveBodiesTraversed) {
  Var x = relay::var("x", {2});
  Var p = relay::var("p0", {2});
  ir::DictAttrs primitive;
  primitive.Set("Primitive", ir::AttrValue::Int(1));
  Expr fused =
      ir::MakeFunction({p}, relay::add(relay::nn::relu(p), relay::nn::relu(p)), nullptr, primitive);
  Var y = relay::var("y", {2});
  Expr closure = relay::function({y}, relay::exp(y));
  Expr body = relay::add(ir::MakeCall(fused, {x}),
                         relay::add(ir::MakeCall(closure, {x}), ir::MakeCall(closure, {x})));
  EXPECT_EQ(Print(EliminateCommonSubexpr()(Typed(relay::function({x}, body)))),
            ReadGolden("cse_functions.txt"));
}

}  // namespace
}  // namespace relaypass::passes
