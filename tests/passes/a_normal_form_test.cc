// ToANormalForm and DeadCodeElimination on small let programs. TVM's printed outputs are not
// available for these, so each expected file was derived by hand from relay_semantics.md 3.9 /
// 3.10 (and TVM's Fill / UsageVisitor order); the derivation is in the comment of each test.
// Fresh names come from GenSym's process-global counter; outputs are compared as if the process
// were fresh (x_0 first).
#include <gtest/gtest.h>

#include "pass_test_util.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/passes/dead_code.h"
#include "relaypass/passes/to_a_normal_form.h"
#include "relaypass/relay.h"

namespace relaypass::passes {
namespace {

using relay::Expr;
using relay::Var;
using testing::Print;
using testing::ReadGolden;
using testing::Untyped;

std::string PrintAnf(const ir::IRModule& mod) {
  uint64_t base = NextGenSymId();
  return testing::RebaseGenSym(Print(ToANormalForm()(mod)), base);
}

// Fill visits add(%2, %3): args first, each left to right, callee last, so conv2d is bound
// first (x_0); constants are bound too (x_1, x_3); the shared add(%1, c1) operands are reused.
// New calls carry no types; the constants keep theirs.
TEST(ToANormalFormTest, Tutorial) {
  EXPECT_EQ(PrintAnf(testing::TutorialFolded()), ReadGolden("anf_tutorial.txt"));
}

// fn (%x) { let %a = relu(%x); add(%a, %a) }: relu is bound to %a in the let's body scope, the
// body's add to x_0 there too; then the let itself is bound (x_1), its body scope's bindings
// flattened into the function's scope before `let %x_1 = %x_0`.
TEST(ToANormalFormTest, ExistingLetIsFlattenedAndRebound) {
  Var x = relay::var("x", {2});
  Var a = relay::var("a");
  EXPECT_EQ(
      PrintAnf(Untyped(relay::function({x}, ir::MakeLet(a, relay::nn::relu(x), relay::add(a, a))))),
      ReadGolden("anf_let.txt"));
}

// add(%x, %x) is used by the true branch and by multiply in the false branch: its scope is the
// LCA of the two branch scopes, the function body, so it is bound before the if (x_0); multiply
// stays in the false branch (x_1); the if is bound last (x_2).
TEST(ToANormalFormTest, SharedExpressionIsLiftedOutOfIfBranches) {
  Var c = relay::var("c", ir::ScalarType(ir::DataType::Bool()));
  Var x = relay::var("x", {2});
  Expr shared = relay::add(x, x);
  Expr body = ir::MakeIf(c, shared, relay::multiply(shared, x));
  EXPECT_EQ(PrintAnf(Untyped(relay::function({c, x}, body))), ReadGolden("anf_if.txt"));
}

// The callee is visited after the arguments: the closure's body is converted in its own scope
// (x_0), the closure is let-bound (x_1), then the call (x_2).
TEST(ToANormalFormTest, LocalFunctionsAreConvertedAndBound) {
  Var x = relay::var("x", {2});
  Var y = relay::var("y", {2});
  Expr body = ir::MakeCall(relay::function({y}, relay::nn::relu(y)), {x});
  EXPECT_EQ(PrintAnf(Untyped(relay::function({x}, body))), ReadGolden("anf_closure.txt"));
}

// A primitive function is bound as it is: its body is not converted.
TEST(ToANormalFormTest, PrimitiveFunctionBodyIsLeftAlone) {
  Var x = relay::var("x", {2});
  Var p = relay::var("p0", {2});
  ir::DictAttrs primitive;
  primitive.Set("Primitive", ir::AttrValue::Int(1));
  Expr fused = ir::MakeFunction({p}, relay::nn::relu(p), nullptr, primitive);
  EXPECT_EQ(PrintAnf(Untyped(relay::function({x}, ir::MakeCall(fused, {x})))),
            ReadGolden("anf_primitive.txt"));
}

// `let %b = %x`: the binding goes to %x's scope (the function body, the LCA of its uses), and
// later uses of %x read %b; relu(%b) is bound in the let's body scope and flattened after it.
TEST(ToANormalFormTest, VariableValueBindsInItsOwnScope) {
  Var x = relay::var("x", {2});
  Var b = relay::var("b");
  EXPECT_EQ(PrintAnf(Untyped(relay::function({x}, ir::MakeLet(b, x, relay::nn::relu(b))))),
            ReadGolden("anf_var_value.txt"));
}

// The counter is global and never reset: two conversions of the same module differ.
TEST(ToANormalFormTest, FreshNamesContinueAcrossCalls) {
  ir::IRModule mod = testing::TutorialFolded();
  std::string first = Print(ToANormalForm()(mod));
  EXPECT_NE(Print(ToANormalForm()(mod)), first);
}

TEST(ToANormalFormTest, HundredThousandNestedLets) {
  constexpr int kDepth = 100000;
  Var x = relay::var("x", {2});
  std::vector<Var> vars;
  for (int i = 0; i < kDepth; ++i) vars.push_back(relay::var("v" + std::to_string(i)));
  Expr body = vars.back();
  for (int i = kDepth - 1; i >= 0; --i) {
    body = ir::MakeLet(vars[i], relay::nn::relu(i == 0 ? Expr(x) : Expr(vars[i - 1])), body);
  }
  uint64_t base = NextGenSymId();
  ir::IRModule anf = ToANormalForm()(Untyped(relay::function({x}, body)));
  // Every let is flattened and rebound: the 100,000 original bindings, then x_0 = v99999,
  // x_1 = x_0, ..., and the body is the last fresh variable.
  Expr e = anf.Lookup("main")->body;
  int lets = 0;
  while (auto* let = e.as<ir::LetNode>()) {
    if (lets == kDepth) {
      EXPECT_EQ(let->var->name_hint, "x_" + std::to_string(base));
    }
    ++lets;
    e = let->body;
  }
  EXPECT_EQ(lets, 2 * kDepth);
  EXPECT_EQ(e.as<ir::VarNode>()->name_hint, "x_" + std::to_string(base + kDepth - 1));
}

// fn (%x) { let %a = relu(%x); let %b = exp(%x); %a }: %b is never used and pure.
TEST(DeadCodeEliminationTest, RemovesUnusedPureBinding) {
  Var x = relay::var("x", {2});
  Var a = relay::var("a");
  Var b = relay::var("b");
  ir::IRModule mod = Untyped(
      relay::function({x}, ir::MakeLet(a, relay::nn::relu(x), ir::MakeLet(b, relay::exp(x), a))));
  EXPECT_EQ(Print(DeadCodeElimination()(mod)), ReadGolden("dce_unused.txt"));
  // With inline_once, %a (used once) is substituted too.
  EXPECT_EQ(Print(DeadCodeElimination(/*inline_once=*/true)(mod)),
            ReadGolden("dce_inline_once.txt"));
}

// A pure value is only visited when its variable is used: %a is used by %b's value only, %b is
// unused, so neither value is ever visited and both bindings go.
TEST(DeadCodeEliminationTest, UnusedChainsGoTogether) {
  Var x = relay::var("x", {2});
  Var a = relay::var("a");
  Var b = relay::var("b");
  ir::IRModule mod = Untyped(
      relay::function({x}, ir::MakeLet(a, relay::nn::relu(x), ir::MakeLet(b, relay::exp(a), x))));
  EXPECT_EQ(Print(DeadCodeElimination()(mod)), ReadGolden("dce_body_is_x.txt"));
}

// nn.dropout is stateful, so its unused binding stays unless impurity is ignored.
TEST(DeadCodeEliminationTest, KeepsImpureBindingUnlessIgnored) {
  Var x = relay::var("x", {2});
  Var d = relay::var("d");
  ir::IRModule mod = Untyped(relay::function({x}, ir::MakeLet(d, relay::nn::dropout(x), x)));
  EXPECT_EQ(Print(DeadCodeElimination()(mod)), ReadGolden("dce_impure.txt"));
  EXPECT_EQ(Print(DeadCodeElimination(false, /*ignore_impurity=*/true)(mod)),
            ReadGolden("dce_body_is_x.txt"));
}

// Two uses: kept even with inline_once.
TEST(DeadCodeEliminationTest, KeepsBindingUsedTwice) {
  Var x = relay::var("x", {2});
  Var a = relay::var("a");
  ir::IRModule mod =
      Untyped(relay::function({x}, ir::MakeLet(a, relay::nn::relu(x), relay::add(a, a))));
  EXPECT_EQ(Print(DeadCodeElimination(true)(mod)), ReadGolden("dce_used_twice.txt"));
}

// main's body is scope level 1; %f is used once at that level and is inlined; %a is used once,
// but inside the closure (level 2), which counts as two uses, so it stays.
TEST(DeadCodeEliminationTest, UseInsideLocalFunctionCountsTwice) {
  Var x = relay::var("x", {2});
  Var y = relay::var("y", {2});
  Var a = relay::var("a");
  Var f = relay::var("f");
  Expr closure = relay::function({y}, relay::add(y, a));
  ir::IRModule mod = Untyped(relay::function(
      {x}, ir::MakeLet(a, relay::nn::relu(x), ir::MakeLet(f, closure, ir::MakeCall(f, {x})))));
  EXPECT_EQ(Print(DeadCodeElimination(true)(mod)), ReadGolden("dce_closure_use.txt"));
}

TEST(DeadCodeEliminationTest, HundredThousandLetChain) {
  constexpr int kDepth = 100000;
  Var x = relay::var("x", {2});
  std::vector<Var> vars;
  for (int i = 0; i < kDepth; ++i) vars.push_back(relay::var("v" + std::to_string(i)));
  // Every second binding is unused: v1, v3, ... are never read.
  Expr body = vars[kDepth - 2];
  for (int i = kDepth - 1; i >= 0; --i) {
    Expr input = i < 2 ? Expr(x) : Expr(vars[i - 2]);
    body = ir::MakeLet(vars[i], relay::nn::relu(input), body);
  }
  ir::IRModule mod = Untyped(relay::function({x}, body));
  auto count_lets = [](const ir::IRModule& m) {
    int n = 0;
    for (Expr e = m.Lookup("main")->body; auto* let = e.as<ir::LetNode>(); e = let->body) ++n;
    return n;
  };
  EXPECT_EQ(count_lets(DeadCodeElimination()(mod)), kDepth / 2);
  // Inlining the rest leaves one call chain 50,000 deep.
  ir::IRModule inlined = DeadCodeElimination(true)(mod);
  EXPECT_EQ(count_lets(inlined), 0);
  EXPECT_EQ(ir::CountNodes(inlined.Lookup("main")->body), 1u + 1u + kDepth / 2);
}

}  // namespace
}  // namespace relaypass::passes
