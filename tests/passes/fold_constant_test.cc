#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "relaypass/eval/allclose.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/eval/random.h"
#include "relaypass/ir/bind.h"
#include "relaypass/ir/structural.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/passes/fold_constant.h"
#include "relaypass/passes/simplify_inference.h"
#include "relaypass/relay.h"
#include "relaypass/text/printer.h"
#include "relaypass/workloads/workloads.h"

namespace relaypass::passes {
namespace {

using namespace relay;  // NOLINT: reads like the tutorials

std::string ReadData(const std::string& name) {
  std::ifstream in(std::string(RELAYPASS_TEST_DATA) + "/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Runs `main` of both modules on the same seeded inputs and expects close results.
void ExpectSameResults(const IRModule& before, const IRModule& after) {
  std::vector<ir::NDArray> inputs;
  for (const eval::Value& v : eval::RandomInputs(before.Lookup("main"), 7)) {
    inputs.push_back(v.tensor());
  }
  std::vector<ir::NDArray> a = eval::RunMain(before, inputs);
  std::vector<ir::NDArray> b = eval::RunMain(after, inputs);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    eval::CloseResult close = eval::AllClose(b[i], a[i]);
    EXPECT_TRUE(close.ok) << close.message;
  }
}

TEST(FoldConstantTest, TutorialExamplePrintsLikeTheTutorial) {
  IRModule mod = IRModule::FromExpr(workloads::Example());
  IRModule folded = FoldConstant()(mod);
  std::string text = text::PrettyPrint(folded);
  while (!text.empty() && text.back() == '\n') text.pop_back();
  std::string expected = ReadData("roundtrip/01_infra_typed.relay");
  while (!expected.empty() && expected.back() == '\n') expected.pop_back();
  EXPECT_EQ(text, expected);
  ExpectSameResults(ir::InferTypes(mod), folded);
}

TEST(FoldConstantTest, FoldsValuesNotJustZeros) {
  ir::NDArray data = ir::NDArray::Empty({3}, ir::DataType::Float32());
  for (int i = 0; i < 3; ++i) data.mutable_data<float>()[i] = static_cast<float>(i + 1);
  Var x = var("x", {3});
  Expr body = add(x, multiply(const_(data), const_(2.0f)));
  IRModule folded = FoldConstant()(IRModule::FromExpr(function({x}, body)));
  auto* call = folded.Lookup("main")->body.as<ir::CallNode>();
  ASSERT_NE(call, nullptr);
  auto* c = call->args[1].as<ir::ConstantNode>();
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->data.data<float>()[0], 2.0f);
  EXPECT_EQ(c->data.data<float>()[2], 6.0f);
}

TEST(FoldConstantTest, LetBoundConstantsIfAndTupleItems) {
  Var x = var("x", {2});
  Var v = var("v");
  Var c = var("c", ir::ScalarType(ir::DataType::Bool()));
  Expr pick = ir::MakeIf(const_(1.0, "bool"), get_item(tuple({x, x}), 1), x);
  Expr body = ir::MakeLet(v, add(const_(1.0f), const_(2.0f)), add(pick, v));
  IRModule folded = FoldConstant()(IRModule::FromExpr(function({x}, body)));
  std::string text = text::PrettyPrint(folded);
  EXPECT_EQ(text.find("let"), std::string::npos) << text;
  EXPECT_EQ(text.find("if"), std::string::npos) << text;
  EXPECT_NE(text.find("add(%x, 3f"), std::string::npos) << text;
}

TEST(FoldConstantTest, PrimitiveFunctionsAndStatefulOpsAreKept) {
  Var p = var("p", {2});
  Function prim = ir::MakeFunction({p}, add(const_(1.0f), const_(2.0f)), nullptr,
                                   {{"Primitive", ir::AttrValue::Int(1)}});
  Var x = var("x", {2});
  Expr body = tuple({ir::MakeCall(prim, {x}), get_item(nn::dropout(const_(1.0f)), 0)});
  IRModule folded = FoldConstant()(IRModule::FromExpr(function({x}, body)));
  std::string text = text::PrettyPrint(folded);
  EXPECT_NE(text.find("add(1f"), std::string::npos) << text;
  EXPECT_NE(text.find("nn.dropout"), std::string::npos) << text;
}

TEST(FoldConstantTest, ResnetBatchNormArithmeticFoldsAndKeepsResults) {
  workloads::Workload w = workloads::GetWorkload("resnet-18");
  IRModule mod = w.mod;
  mod.Add("main", ir::BindParamsByName(mod.Lookup("main"), w.params));
  mod = SimplifyInference()(ir::InferTypes(mod));
  size_t hash = ir::StructuralHash(mod);
  IRModule folded = FoldConstant()(mod);
  EXPECT_EQ(ir::StructuralHash(mod), hash) << "the input module must not change";
  // The scale/shift arithmetic on constant BN parameters is gone; only the per-tensor
  // multiply/add against the data remain.
  std::string before = text::PrettyPrint(mod), after = text::PrettyPrint(folded);
  EXPECT_NE(before.find("sqrt("), std::string::npos);
  EXPECT_EQ(after.find("sqrt("), std::string::npos);
  EXPECT_EQ(after.find("negative("), std::string::npos);
  ExpectSameResults(mod, folded);
}

}  // namespace
}  // namespace relaypass::passes
