#include "test_util.h"

#include <gtest/gtest.h>

#include "relaypass/eval/allclose.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/eval/random.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/text/printer.h"
#include "relaypass/transform/pass_context.h"

namespace relaypass::passes::testing {

ir::IRModule Typed(const ir::Function& func) {
  return ir::InferTypes(ir::IRModule::FromExpr(func));
}

std::string PrintWithoutTypes(const ir::IRModule& mod) {
  std::string text = text::PrettyPrint(mod);
  for (size_t at; (at = text.find(" /* ty=")) != std::string::npos;) {
    text.erase(at, text.find("*/", at) + 2 - at);
  }
  return text;
}

relay::Constant Ramp(const std::vector<int64_t>& shape, float base, float step) {
  ir::NDArray data = ir::NDArray::Empty(shape, ir::DataType::Float32());
  float* values = data.mutable_data<float>();
  for (int64_t i = 0; i < data.size(); ++i) values[i] = base + step * static_cast<float>(i);
  return relay::const_(data);
}

void ExpectSameResults(const ir::IRModule& before, const ir::IRModule& after, uint64_t seed,
                       double rtol, double atol) {
  std::vector<eval::Value> inputs = eval::RandomInputs(before.Lookup("main"), seed);
  eval::Value expected = eval::Interpreter(before).RunMain(inputs);
  eval::Value actual = eval::Interpreter(after).RunMain(inputs);
  eval::CloseResult close = eval::AllClose(actual, expected, eval::Tolerance{rtol, atol});
  EXPECT_TRUE(close.ok) << close.message;
}

size_t CountOp(const ir::IRModule& mod, const std::string& op) {
  size_t n = 0;
  ir::post_order_visit(mod.Lookup("main"), [&](const ir::Expr& e) {
    auto* call = e.as<ir::CallNode>();
    if (call && call->op_node() && call->op_node()->name == op) ++n;
  });
  return n;
}

ir::IRModule RunAtLevel(const transform::Pass& pass, const ir::IRModule& mod, int opt_level) {
  transform::PassContextScope scope(transform::PassContext({.opt_level = opt_level}));
  return pass(mod);
}

}  // namespace relaypass::passes::testing
