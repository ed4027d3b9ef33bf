// SimplifyExpr's SimplifyDQArgMax / ArgMin / ArgSort (TVM v0.13, src/relay/transforms/
// simplify_expr.cc): argmax(qnn.dequantize(x, s, z)) becomes argmax(x) with the same attributes.
// Expected indices computed by hand from the input below.
#include <gtest/gtest.h>

#include <string>

#include "pass_test_util.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/passes/simplify_expr.h"
#include "relaypass/text/parser.h"
#include "relaypass/text/printer.h"

namespace relaypass::passes {
namespace {

using testing::StripTypes;

// argmax and argmin take a list of axes, argsort one axis.
ir::IRModule Typed(const std::string& op) {
  const std::string axis = op == "argsort" ? "axis=1" : "axis=[1]";
  return ir::InferTypes(
      text::ParseModule("#[version = \"0.0.5\"]\n"
                        "def @main(%x: Tensor[(2, 3), int8]) {\n"
                        "  %0 = qnn.dequantize(%x, 0.5f, 1);\n  " +
                        op + "(%0, " + axis + ")\n}\n"));
}

std::string BodyOf(const ir::IRModule& mod) {
  const std::string text = StripTypes(text::PrettyPrint(mod));
  return text.substr(text.find("{\n") + 2);
}

// main at x = [[1, 5, -3], [7, 2, 9]], its int32 result.
std::vector<int32_t> RunMainOnInput(const ir::IRModule& mod) {
  ir::NDArray x = ir::NDArray::Empty({2, 3}, ir::DataType::Int(8));
  const int8_t values[] = {1, 5, -3, 7, 2, 9};
  for (int i = 0; i < 6; ++i) x.mutable_data<int8_t>()[i] = values[i];
  const ir::NDArray out = eval::RunMain(mod, {x})[0];
  return {out.data<int32_t>(), out.data<int32_t>() + out.size()};
}

TEST(SimplifyDQArgTest, ArgOperatorsSkipTheDequantize) {
  for (const std::string op : {"argmax", "argmin", "argsort"}) {
    const ir::IRModule mod = Typed(op);
    const ir::IRModule out = SimplifyExpr()(mod);
    const std::string body = BodyOf(out);
    EXPECT_EQ(body.find("qnn.dequantize"), std::string::npos) << body;
    EXPECT_EQ(body.rfind("  " + op + "(%x, axis=", 0), 0u) << body;
    EXPECT_EQ(RunMainOnInput(out), RunMainOnInput(mod)) << op;
  }
  EXPECT_EQ(RunMainOnInput(SimplifyExpr()(Typed("argmax"))), (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(RunMainOnInput(SimplifyExpr()(Typed("argmin"))), (std::vector<int32_t>{2, 1}));
  EXPECT_EQ(RunMainOnInput(SimplifyExpr()(Typed("argsort"))),
            (std::vector<int32_t>{2, 0, 1, 1, 0, 2}));
}

}  // namespace
}  // namespace relaypass::passes
