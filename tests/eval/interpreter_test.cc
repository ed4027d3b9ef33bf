// The interpreter: Let, If, tuples, closures, Primitive functions, globals (with recursion),
// errors, and graphs far deeper than the C++ stack would allow with recursion.
#include "../depth_scale.h"
#include "relaypass/ir/module.h"
#include "relaypass/workloads/workloads.h"
#include "test_util.h"

namespace relaypass::eval {
namespace {

using namespace testing;  // NOLINT
using ir::Expr;
using ir::Function;
using ir::Var;

Var TensorVar(const std::string& name, const Shape& shape, const std::string& dtype = "float32") {
  return relay::var(name, shape, dtype);
}

TEST(InterpreterTest, LetTupleAndGetItem) {
  Var x = TensorVar("x", {2}), y = TensorVar("y", {2});
  Var a = relay::var("a"), b = relay::var("b");
  // let %a = x + y; let %b = %a * %a; (%b, %a).1 - %b
  Expr body =
      ir::MakeLet(a, relay::add(x, y),
                  ir::MakeLet(b, relay::multiply(a, a),
                              relay::subtract(relay::get_item(relay::tuple({b, a}), 1), b)));
  Function f = relay::function({x, y}, body);
  Interpreter interp;
  Value out = interp.Call(f, {Array({2}, {1, 2}), Array({2}, {2, 3})});
  ExpectValues(out.tensor(), {2}, {3 - 9, 5 - 25});
}

TEST(InterpreterTest, IfTakesOneBranch) {
  Var c = relay::var("c", ir::ScalarType(DataType::Bool()));
  Var x = TensorVar("x", {1});
  // The untaken branch divides integers by zero, which would throw if it ran.
  Expr bad = relay::cast(relay::divide(relay::const_(1), relay::const_(0)), "float32");
  Function f = relay::function(
      {c, x}, ir::MakeIf(c, relay::add(x, relay::const_(1.0f)), relay::add(x, bad)));
  Interpreter interp;
  NDArray yes = NDArray::Scalar<bool>(true, DataType::Bool());
  ExpectValues(interp.Call(f, {yes, Array({1}, {5})}).tensor(), {1}, {6});
  NDArray no = NDArray::Scalar<bool>(false, DataType::Bool());
  EXPECT_THROW(interp.Call(f, {no, Array({1}, {5})}), Error);
}

TEST(InterpreterTest, ClosureCapturesItsFreeVariables) {
  Var x = TensorVar("x", {2}), y = TensorVar("y", {2}), z = TensorVar("z", {2});
  Var f = relay::var("f");
  // let %f = fn (%z) { %z * %x }; %f(%y) + %f(%x)
  Function inner = relay::function({z}, relay::multiply(z, x));
  Expr body = ir::MakeLet(f, inner, relay::add(ir::MakeCall(f, {y}), ir::MakeCall(f, {x})));
  Interpreter interp;
  Value out = interp.Call(relay::function({x, y}, body), {Array({2}, {2, 3}), Array({2}, {5, 7})});
  ExpectValues(out.tensor(), {2}, {10 + 4, 21 + 9});
  // A closure returned as a value can be applied later.
  Value closure = interp.Call(relay::function({x}, inner), {Array({2}, {3, 4})});
  ASSERT_TRUE(closure.is_closure());
  ExpectValues(interp.Call(closure, {Array({2}, {1, 2})}).tensor(), {2}, {3, 8});
}

TEST(InterpreterTest, PrimitiveFunctionCall) {
  Var p0 = TensorVar("p0", {3}), p1 = TensorVar("p1", {3});
  Function fused = relay::function({p0, p1}, relay::nn::relu(relay::add(p0, p1)));
  ir::DictAttrs attrs;
  attrs.Set("Primitive", ir::AttrValue::Int(1));
  fused = ir::MakeFunction(fused->params, fused->body, nullptr, attrs);
  ASSERT_TRUE(fused->is_primitive());
  Var x = TensorVar("x", {3});
  Function main = relay::function({x}, ir::MakeCall(fused, {x, relay::const_(1.0f)}));
  Interpreter interp;
  ExpectValues(interp.Call(main, {Array({3}, {-3, 0, 2})}).tensor(), {3}, {0, 1, 3});
}

TEST(InterpreterTest, GlobalsAndDeepRecursion) {
  // @count(%n) = if (%n > 0) { @count(%n - 1) + 1 } else { 0 }: 20000 nested calls.
  ir::IRModule mod;
  ir::GlobalVar count = ir::MakeGlobalVar("count");
  Var n = relay::var("n", ir::ScalarType(DataType::Int32()));
  Expr recurse =
      relay::add(ir::MakeCall(count, {relay::subtract(n, relay::const_(1))}), relay::const_(1));
  mod.Add(count, relay::function({n}, ir::MakeIf(CallOp("greater", {n, relay::const_(0)}), recurse,
                                                 relay::const_(0))));
  Var m = relay::var("m", ir::ScalarType(DataType::Int32()));
  mod.Add("main", relay::function({m}, ir::MakeCall(mod.GetGlobalVar("count"), {m})));
  Interpreter interp(mod);
  Value out = interp.RunMain({NDArray::Scalar<int32_t>(20000, DataType::Int32())});
  EXPECT_EQ(out.tensor().data<int32_t>()[0], 20000);
  EXPECT_GE(interp.stats().function_calls, 20001u);
}

TEST(InterpreterTest, Errors) {
  Var x = TensorVar("x", {1});
  Var free = TensorVar("free", {1});
  Interpreter interp;
  EXPECT_THROW(interp.Call(relay::function({x}, relay::add(x, free)), {Array({1}, {1})}), Error);
  EXPECT_THROW(interp.Call(relay::function({x}, x), {}), Error);
  EXPECT_THROW(interp.RunMain({}), Error);  // no main
  ir::IRModule mod;
  mod.Add("main", relay::function({x}, ir::MakeCall(ir::MakeGlobalVar("nowhere"), {x})));
  EXPECT_THROW(RunMain(mod, {Array({1}, {1})}), Error);
}

TEST(InterpreterTest, EvaluateClosedExpression) {
  Expr e =
      relay::multiply(relay::add(relay::const_(2.0f), relay::const_(3.0f)), relay::const_(4.0f));
  ExpectValues(Evaluate(e).tensor(), {}, {20});
}

TEST(InterpreterTest, ConstantCallAndValueToExpr) {
  Expr call = relay::nn::batch_norm(C(Array({1, 1}, {2})), C(Array({1}, {1})), C(Array({1}, {0})),
                                    C(Array({1}, {0})), C(Array({1}, {1})));
  Value v = EvaluateConstantCall(call.as<ir::CallNode>());
  Expr folded = ValueToExpr(v);
  const auto* tuple = folded.as<ir::TupleNode>();
  ASSERT_NE(tuple, nullptr);
  ASSERT_EQ(tuple->fields.size(), 3u);
  EXPECT_NE(tuple->fields[0].as<ir::ConstantNode>(), nullptr);
  // A non-constant argument is refused.
  EXPECT_THROW(EvaluateConstantCall(relay::nn::relu(TensorVar("x", {1})).as<ir::CallNode>()),
               Error);
}

// The deep-chain workload: 1,000,000 ops alternating add(y, 1f) and relu.
TEST(InterpreterTest, MillionNodeChain) {
  const int64_t n = relaypass::testing::ScaledDepth(1000000);  // less under sanitizers
  Function chain = workloads::Chain(n);
  NDArray x = Random({1, 16}, 77);
  Interpreter interp;
  Value out = interp.Call(chain, {x});
  std::vector<float> expected(x.data<float>(), x.data<float>() + 16);
  for (int64_t i = 0; i < n; ++i) {
    for (float& v : expected) v = i % 2 == 0 ? v + 1.0f : std::max(v, 0.0f);
  }
  ASSERT_EQ(out.tensor().shape(), (Shape{1, 16}));
  for (int i = 0; i < 16; ++i) EXPECT_EQ(out.tensor().data<float>()[i], expected[i]);
  EXPECT_EQ(interp.stats().op_calls, static_cast<uint64_t>(n));
  // Each value is released after its single use: a handful live at any time, not a million.
  EXPECT_LT(interp.stats().peak_live_values, 8u);
}

TEST(InterpreterTest, DeepLetChain) {
  const int n = 200000;
  Var x = TensorVar("x", {4});
  std::vector<Var> vars;
  vars.reserve(n);
  for (int i = 0; i < n; ++i) vars.push_back(relay::var("v" + std::to_string(i)));
  Expr body = vars.back();
  for (int i = n - 1; i >= 0; --i) {
    Expr prev = i == 0 ? Expr(x) : Expr(vars[i - 1]);
    body = ir::MakeLet(vars[i], relay::add(prev, relay::const_(0.5f)), body);
  }
  Interpreter interp;
  Value out = interp.Call(relay::function({x}, body), {Array({4}, {0, 1, 2, 3})});
  ExpectValues(out.tensor(), {4}, {n * 0.5, 1 + n * 0.5, 2 + n * 0.5, 3 + n * 0.5});
  EXPECT_LT(interp.stats().peak_live_values, 8u);
}

}  // namespace
}  // namespace relaypass::eval
