// LambdaLift. TVM v0.13's tests/python/relay/test_pass_lambda_lift.py (test_basic, test_closure,
// test_recursive) check the number of global functions afterwards; the shapes below follow the
// pass's source (a closure is a Closure=1 global over its captured variables). The evaluator runs
// the lifted modules to the original results.
#include <gtest/gtest.h>

#include "pass_test_util.h"
#include "relaypass/eval/allclose.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/op/registry.h"
#include "relaypass/passes/lambda_lift.h"
#include "relaypass/relay.h"
#include "relaypass/text/parser.h"

namespace relaypass::passes {
namespace {

using ir::Expr;
using testing::Print;

void ExpectSameResults(const ir::IRModule& before, const ir::IRModule& after,
                       const std::vector<ir::NDArray>& inputs) {
  std::vector<ir::NDArray> expected = eval::RunMain(before, inputs);
  std::vector<ir::NDArray> actual = eval::RunMain(after, inputs);
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    eval::CloseResult close = eval::AllClose(actual[i], expected[i], eval::Tolerance{1e-6, 1e-6});
    EXPECT_TRUE(close.ok) << close.message;
  }
}

TEST(LambdaLift, BasicNestedFunctionBecomesAGlobal) {
  auto x2 = relay::var("x2", {10, 5});
  auto y2 = relay::var("y2", {1, 5});
  Expr level2 = relay::function({x2, y2}, relay::add(x2, y2));
  auto x1 = relay::var("x1", {10, 5});
  auto y1 = relay::var("y1", {1, 5});
  ir::IRModule mod = testing::Typed(relay::function({x1, y1}, ir::MakeCall(level2, {x1, y1})));
  ir::IRModule out = LambdaLift()(mod);
  ASSERT_EQ(out.size(), 2u);
  const std::string text = Print(out);
  EXPECT_NE(text.find("def @lifted_name"), std::string::npos) << text;
  EXPECT_EQ(text.find("Closure=1"), std::string::npos) << text;  // nothing captured
}

TEST(LambdaLift, ClosureCapturesItsFreeVariables) {
  ir::IRModule mod =
      ir::InferTypes(text::ParseModule("#[version = \"0.0.5\"]\n"
                                       "def @main() -> Tensor[(2), float32] {\n"
                                       "  %1 = fn (%y: Tensor[(2), float32]) {\n"
                                       "    fn (%x: Tensor[(2), float32]) {\n"
                                       "      add(%x, %y)\n"
                                       "    }\n"
                                       "  };\n"
                                       "  %2 = ones(shape=[2], dtype=\"float32\");\n"
                                       "  %3 = %1(%2);\n"
                                       "  %4 = zeros(shape=[2], dtype=\"float32\");\n"
                                       "  %3(%4)\n"
                                       "}\n"));
  ir::IRModule out = LambdaLift()(mod);
  EXPECT_EQ(out.size(), 3u) << Print(out);
  EXPECT_NE(Print(out).find("Closure=1"), std::string::npos) << Print(out);
  ExpectSameResults(mod, ir::InferTypes(out), {});
}

TEST(LambdaLift, RecursiveLetBoundLambdaCallsItsGlobal) {
  // test_recursive, built as TVM's test builds it (the text format has no recursive let).
  auto x = relay::var("x", {2});
  auto i = relay::var("i", ir::TensorType({}, ir::DataType::Int32()));
  auto s = relay::var("s", {2});
  ir::Var loop = relay::var("while_loop");
  Expr body = ir::MakeIf(
      ir::MakeCall(op::GetOp("less"), {i, relay::const_(int32_t{10})}),
      ir::MakeCall(loop, {relay::add(i, relay::const_(int32_t{1})), relay::add(s, x)}), s);
  Expr func = relay::function({i, s}, body);
  Expr ret =
      ir::MakeLet(loop, func, ir::MakeCall(loop, {relay::const_(int32_t{0}), relay::zeros({2})}));
  ir::IRModule mod = testing::Typed(relay::function({x}, ret));
  ir::IRModule out = LambdaLift()(mod);
  ASSERT_EQ(out.size(), 2u) << Print(out);
  ir::NDArray input = ir::NDArray::Empty({2}, ir::DataType::Float32());
  input.mutable_data<float>()[0] = 1.5f;
  input.mutable_data<float>()[1] = -2.0f;
  // The evaluator has no recursive let, so the original cannot run; the loop adds %x ten times.
  std::vector<ir::NDArray> result = eval::RunMain(ir::InferTypes(out), {input});
  ASSERT_EQ(result.size(), 1u);
  EXPECT_FLOAT_EQ(result[0].data<float>()[0], 15.0f);
  EXPECT_FLOAT_EQ(result[0].data<float>()[1], -20.0f);
  // Inside the lifted lambda the recursive call goes through the global (closure) call; the
  // let in main still binds and calls %while_loop, as in TVM.
  const std::string text = Print(out);
  const std::string lifted = text.substr(0, text.find("def @main"));
  EXPECT_EQ(lifted.find("%while_loop"), std::string::npos) << text;
  EXPECT_NE(lifted.find("Closure=1"), std::string::npos) << text;
}

}  // namespace
}  // namespace relaypass::passes
