// ToCPS / UnCPS, Defunctionalization and LazyGradientInit (TVM v0.13's to_cps.cc,
// defunctionalization.cc, lazy_gradient_init.cc). Expected values are hand computations of the
// programs (written next to each); the shapes of the converted functions are TVM's (its sources:
// ToCPS adds the continuation %k last and the answer type parameter last, its result type is the
// answer; global functions reached become `<name>_cps`; Defunctionalization names clones
// `<name><type>`, ADTs `Defunc<type>`, apply functions `apply<type>`; LazyGradientInit keeps the
// function's type). Each program is also run before and after, and the results compared.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "../depth_scale.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/passes/defunctionalization.h"
#include "relaypass/passes/lazy_gradient_init.h"
#include "relaypass/passes/to_cps.h"
#include "relaypass/relay.h"
#include "relaypass/support/error.h"
#include "relaypass/text/parser.h"
#include "relaypass/workloads/workloads.h"

namespace relaypass::passes {
namespace {

ir::NDArray Vector(std::vector<float> values) {
  ir::NDArray a =
      ir::NDArray::Empty({static_cast<int64_t>(values.size())}, ir::DataType::Float32());
  for (size_t i = 0; i < values.size(); ++i) a.mutable_data<float>()[i] = values[i];
  return a;
}

ir::NDArray Scalar(float v) {
  return ir::NDArray::Scalar(v, ir::DataType::Float32());
}

std::vector<float> Floats(const ir::NDArray& a) {
  return std::vector<float>(a.data<float>(), a.data<float>() + a.size());
}

ir::IRModule Typed(const std::string& text) {
  return ir::InferTypes(text::ParseModule(text));
}

// `mod` with main replaced by UnCPS(ToCPS(main)), typed.
ir::IRModule ThroughCPS(ir::IRModule mod) {
  // As TVM's test_pass_to_cps.py: the CPS function is typed before UnCPS reads its types.
  mod.Add("main", ToCPS(mod.Lookup("main"), mod));
  mod = ir::InferTypes(mod);
  mod.Add("main", UnCPS(mod.Lookup("main")));
  return ir::InferTypes(mod);
}

// References, an if, a closure and a tuple: with %c > 0, r := 2x, the result is 2x + x = 3x;
// otherwise r := x + 1 and the result is 2x + 1.
const char* kEffects = R"(
def @main(%x: Tensor[(2), float32], %c: float32) -> Tensor[(2), float32] {
  let %r = ref(%x);
  let %f = fn (%y: Tensor[(2), float32]) -> Tensor[(2), float32] { multiply(%y, 2f) };
  let %u = if (greater(%c, 0f)) { ref_write(%r, %f(%x)) } else { ref_write(%r, add(%x, 1f)) };
  let %t = (ref_read(%r), %x);
  add(%t.0, %t.1)
}
)";

TEST(ToCPSTest, FunctionTakesTheContinuationLastAndReturnsTheAnswerType) {
  ir::IRModule mod = Typed(kEffects);
  ir::Function main = mod.Lookup("main");
  ir::Function cps = ToCPS(main, mod);
  ASSERT_EQ(cps->params.size(), 3u);
  EXPECT_EQ(cps->params[2]->name_hint, "k");
  ASSERT_EQ(cps->type_params.size(), 1u);
  EXPECT_EQ(ir::TypeToString(cps->ret_type), "answer");
  EXPECT_EQ(ir::TypeToString(cps->params[2]->type_annotation),
            "fn (Tensor[(2), float32]) -> answer");
  // The input function is left as it was.
  EXPECT_TRUE(mod.Lookup("main").same_as(main));
}

TEST(ToCPSTest, UnCPSOfToCPSComputesWhatTheProgramDid) {
  ir::IRModule mod = Typed(kEffects);
  ir::IRModule cps = ThroughCPS(mod);
  const ir::NDArray x = Vector({1.0f, 2.0f});
  for (float c : {1.0f, -1.0f}) {
    std::vector<ir::NDArray> before = eval::RunMain(mod, {x, Scalar(c)});
    std::vector<ir::NDArray> after = eval::RunMain(cps, {x, Scalar(c)});
    const std::vector<float> expected =
        c > 0 ? std::vector<float>{3.0f, 6.0f} : std::vector<float>{3.0f, 5.0f};
    EXPECT_EQ(Floats(before[0]), expected);
    EXPECT_EQ(Floats(after[0]), expected);
  }
}

TEST(ToCPSTest, GlobalFunctionsAreConvertedAsNameCps) {
  // sum_to(10) = 55.
  ir::IRModule mod = Typed(R"(
def @sum_to(%n: int32) -> int32 {
  if (equal(%n, 0)) { 0 } else { add(%n, @sum_to(subtract(%n, 1))) }
}
def @main(%n: int32) -> int32 { @sum_to(%n) }
)");
  ir::IRModule cps = ThroughCPS(mod);
  ASSERT_TRUE(cps.Contains("sum_to_cps"));
  EXPECT_EQ(cps.Lookup("sum_to_cps")->params.size(), 2u);
  std::vector<ir::NDArray> out =
      eval::RunMain(cps, {ir::NDArray::Scalar(int32_t{10}, ir::DataType::Int(32))});
  EXPECT_EQ(out[0].data<int32_t>()[0], 55);
}

TEST(ToCPSTest, MatchBindsItsJoinPointAndEachClauseCallsIt) {
  // Third element of [4, 5, 6] counted down the list: 6.
  ir::IRModule mod = Typed(R"(
type L { C(float32, L), N, }
def @last(%l: L) -> float32 {
  match (%l) { C(%h, %t) => match (%t) { N => %h, C(_, _) => @last(%t), }, N => 0f, }
}
def @main(%a: float32) -> float32 { @last(C(4f, C(5f, C(%a, N)))) }
)");
  ir::IRModule cps = ThroughCPS(mod);
  std::vector<ir::NDArray> out = eval::RunMain(cps, {Scalar(6.0f)});
  EXPECT_EQ(out[0].data<float>()[0], 6.0f);
}

TEST(ToCPSTest, RefusesWhatTVMRefuses) {
  relay::Var x = relay::var("x", {2});
  ir::IRModule untyped = ir::IRModule::FromExpr(relay::function({x}, relay::add(x, x)));
  EXPECT_THROW(ToCPS(untyped.Lookup("main"), untyped), InternalError);
  // A node used twice (TVM's fGraph feature).
  relay::Expr shared = relay::add(x, x);
  ir::IRModule graph =
      ir::InferTypes(ir::IRModule::FromExpr(relay::function({x}, relay::multiply(shared, shared))));
  EXPECT_THROW(ToCPS(graph.Lookup("main"), graph), InternalError);
  EXPECT_THROW(UnCPS(ir::MakeFunction({}, relay::const_(1.0f))), InternalError);
}

// x through `n` ops alternating add(y, 1f) and relu as a let chain (the depth test's LetNest).
ir::Function LetChain(int64_t n) {
  relay::Var x = relay::var("x", {1, 16});
  std::vector<relay::Var> vars;
  for (int64_t i = 0; i < n; ++i) vars.push_back(relay::var("v" + std::to_string(i)));
  relay::Expr body = vars.back();
  for (int64_t i = n - 1; i >= 0; --i) {
    relay::Expr prev = i == 0 ? relay::Expr(x) : relay::Expr(vars[i - 1]);
    relay::Expr value = i % 2 == 0 ? relay::add(prev, relay::const_(1.0f)) : relay::nn::relu(prev);
    body = ir::MakeLet(vars[i], value, body);
  }
  return relay::function({x}, body);
}

ir::NDArray ChainInput() {
  ir::NDArray x = ir::NDArray::Empty({1, 16}, ir::DataType::Float32());
  for (int i = 0; i < 16; ++i) x.mutable_data<float>()[i] = static_cast<float>(i - 8) * 0.75f;
  return x;
}

// n/2 rounds of relu(y + 1) (hand computation of both chains).
std::vector<float> ChainExpected(int64_t n) {
  std::vector<float> y = Floats(ChainInput());
  for (int64_t i = 0; i < n; ++i) {
    for (float& v : y) v = i % 2 == 0 ? v + 1.0f : std::max(v, 0.0f);
  }
  return y;
}

TEST(ToCPSTest, MillionNodeCallChainAndLetChain) {
  const int64_t n = relaypass::testing::ScaledDepth(1000000);
  for (ir::Function f : {workloads::Chain(n), LetChain(n)}) {
    ir::IRModule cps = ThroughCPS(ir::InferTypes(ir::IRModule::FromExpr(f)));
    std::vector<ir::NDArray> out = eval::RunMain(cps, {ChainInput()});
    EXPECT_EQ(Floats(out[0]), ChainExpected(n));
  }
}

// Whether a call in main or the specialized @map takes or returns a function (the check of
// TVM's test_pass_defunctionalization.py).
bool HasHigherOrderCall(const ir::IRModule& mod) {
  // Structurally (the ADT names, `Defuncfn (...)`, spell function types too).
  std::function<bool(const ir::Type&)> has_func = [&](const ir::Type& t) {
    if (!t) return false;
    if (t.as<ir::FuncTypeNode>()) return true;
    if (auto* tuple = t.as<ir::TupleTypeNode>()) {
      for (const ir::Type& f : tuple->fields) {
        if (has_func(f)) return true;
      }
    }
    if (auto* call = t.as<ir::TypeCallNode>()) {
      for (const ir::Type& a : call->args) {
        if (has_func(a)) return true;
      }
    }
    return false;
  };
  bool found = false;
  for (const auto& [gv, f] : mod.functions()) {
    // What main reaches after the pass: itself and the specialized clone (the original @map
    // stays in the module, unused; the applies call the functions they encode).
    if (gv->name_hint != "main" && gv->name_hint.rfind("mapfn", 0) != 0) continue;
    ir::post_order_visit(f, [&](const ir::Expr& e) {
      auto* call = e.as<ir::CallNode>();
      if (call == nullptr) return;
      if (has_func(call->checked_type)) found = true;
      for (const ir::Expr& a : call->args) found = found || has_func(a->checked_type);
    });
  }
  return found;
}

// map (fn v => v * a) over [b, 2] and sum: a * (b + 2); with a = 3, b = 1: 9.
const char* kMapProgram = R"(
type List[A] { Cons(A, List[A]), Nil, }
def @map[A, B](%f: fn(A) -> B, %xs: List[A]) -> List[B] {
  match (%xs) { Cons(%x, %rest) => Cons(%f(%x), @map(%f, %rest)), Nil => Nil, }
}
def @sum(%xs: List[float32]) -> float32 {
  match (%xs) { Cons(%x, %rest) => add(%x, @sum(%rest)), Nil => 0f, }
}
def @main(%a: float32, %b: float32) -> float32 {
  @sum(@map(fn (%v: float32) -> float32 { multiply(%v, %a) }, Cons(%b, Cons(2f, Nil))))
}
)";

TEST(DefunctionalizationTest, HigherOrderCallsBecomeFirstOrder) {
  ir::IRModule mod = Typed(kMapProgram);
  ir::IRModule defunc = mod;
  defunc.Add("main", Defunctionalization(defunc.Lookup("main"), defunc));
  defunc = ir::InferTypes(defunc);
  EXPECT_TRUE(defunc.Contains("mapfn (fn (float32) -> float32, List[float32]) -> List[float32]"));
  EXPECT_TRUE(defunc.Contains("applyfn (float32) -> float32"));
  EXPECT_TRUE(defunc.ContainGlobalTypeVar("Defuncfn (float32) -> float32"));
  EXPECT_FALSE(HasHigherOrderCall(defunc));
  for (const ir::IRModule& m : {mod, defunc}) {
    std::vector<ir::NDArray> out = eval::RunMain(m, {Scalar(3.0f), Scalar(1.0f)});
    EXPECT_EQ(out[0].data<float>()[0], 9.0f);
  }
}

TEST(DefunctionalizationTest, RefusesWhatTVMRefuses) {
  ir::IRModule mod = Typed(R"(
def @main[A](%x: A) -> A { %x }
)");
  EXPECT_THROW(Defunctionalization(mod.Lookup("main"), mod), InternalError);
  ir::IRModule returns = Typed(R"(
def @main(%x: float32) -> fn (float32) -> float32 { fn (%y: float32) -> float32 { %y } }
)");
  EXPECT_THROW(Defunctionalization(returns.Lookup("main"), returns), InternalError);
}

TEST(DefunctionalizationTest, FirstOrderMillionNodeChainIsUnchanged) {
  const int64_t n = relaypass::testing::ScaledDepth(1000000);
  ir::IRModule mod = ir::InferTypes(ir::IRModule::FromExpr(workloads::Chain(n)));
  ir::Function out = Defunctionalization(mod.Lookup("main"), mod);
  EXPECT_TRUE(out.same_as(mod.Lookup("main")));
}

// x * ones_like(x) + relu(zeros_like(x) * x) = x; x * x + 1 (a scalar: not the overload).
const char* kLazyProgram = R"(
def @main(%x: Tensor[(2), float32]) -> (Tensor[(2), float32], Tensor[(2), float32]) {
  let %o = ones_like(%x);
  let %z = zeros_like(%x);
  (add(multiply(%x, %o), nn.relu(multiply(%z, %x))), add(multiply(%x, %x), 1f))
}
)";

TEST(LazyGradientInitTest, KeepsTheTypeAndTheValues) {
  ir::IRModule mod = Typed(kLazyProgram);
  ir::IRModule lazy = LazyGradientInit()(mod);
  EXPECT_TRUE(lazy.ContainGlobalTypeVar("GradCell"));
  for (const char* name : {"FromGradCell", "AddGradCell", "MultiplyGradCell"}) {
    EXPECT_TRUE(lazy.Contains(name)) << name;
  }
  EXPECT_EQ(ir::TypeToString(lazy.Lookup("main")->checked_type),
            ir::TypeToString(mod.Lookup("main")->checked_type));
  // main calls the rewritten function, whose result is GradCells.
  size_t grad_cell_functions = 0;
  ir::post_order_visit(lazy.Lookup("main"), [&](const ir::Expr& e) {
    auto* f = e.as<ir::FunctionNode>();
    if (f && f->ret_type && ir::TypeToString(f->ret_type).find("GradCell[") != std::string::npos) {
      ++grad_cell_functions;
    }
  });
  EXPECT_EQ(grad_cell_functions, 1u);
  const ir::NDArray x = Vector({1.0f, -2.0f});
  std::vector<ir::NDArray> out = eval::RunMain(lazy, {x});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(Floats(out[0]), (std::vector<float>{1.0f, -2.0f}));
  EXPECT_EQ(Floats(out[1]), (std::vector<float>{2.0f, 5.0f}));
}

TEST(LazyGradientInitTest, TupleOperandsAndResultsFieldByField) {
  // concatenate((x, relu(x))) = [1, -2, 1, 0]; split(x, 2): [1] and [-2], their sum [-1].
  ir::IRModule mod = Typed(R"(
def @main(%x: Tensor[(2), float32]) {
  let %s = split(%x, indices_or_sections=2);
  (concatenate((%x, nn.relu(%x))), add(%s.0, %s.1))
}
)");
  ir::IRModule lazy = LazyGradientInit()(mod);
  std::vector<ir::NDArray> out = eval::RunMain(lazy, {Vector({1.0f, -2.0f})});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(Floats(out[0]), (std::vector<float>{1.0f, -2.0f, 1.0f, 0.0f}));
  EXPECT_EQ(Floats(out[1]), (std::vector<float>{-1.0f}));
}

TEST(LazyGradientInitTest, ImportGradCellIsIdempotent) {
  ir::IRModule mod;
  ImportGradCell(mod);
  ImportGradCell(mod);
  EXPECT_EQ(mod.size(), 3u);
  EXPECT_EQ(mod.LookupTypeDef("GradCell")->constructors.size(), 3u);
}

}  // namespace
}  // namespace relaypass::passes
