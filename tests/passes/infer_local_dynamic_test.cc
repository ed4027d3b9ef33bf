// InferTypeLocal and DynamicToStatic. InferTypeLocal follows TVM v0.13's
// tests/python/relay/test_type_infer.py (test_dynamic_function / test_let_polymorphism use
// InferTypeLocal the same way: the type of an expression over typed parts). DynamicToStatic: with
// no dyn.* operators, TVM's pass reduces to PrepareInput (FoldConstant + InferType), per its
// source.
#include <gtest/gtest.h>

#include "pass_test_util.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/passes/dynamic_to_static.h"
#include "relaypass/passes/infer_type_local.h"
#include "relaypass/relay.h"
#include "relaypass/text/parser.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {
namespace {

using ir::Expr;
using testing::Print;
using testing::Typed;

TEST(InferTypeLocal, TypesAnExpressionOverTypedParts) {
  auto x = relay::var("x", {2, 3});
  auto w = relay::var("w", {4, 3});
  ir::IRModule typed = Typed(relay::function({x, w}, relay::nn::dense(x, w)));
  Expr dense = typed.Lookup("main")->body;  // typed
  Expr untyped = relay::sum(relay::nn::relu(dense), relay::Ints{1});
  EXPECT_FALSE(untyped->checked_type);
  ir::Type t = InferTypeLocal(untyped);
  EXPECT_TRUE(ir::TypeEqual(t, ir::TensorType({2}, ir::DataType::Float32())))
      << ir::TypeToString(t);
  EXPECT_FALSE(untyped->checked_type);  // the expression itself is unchanged
  EXPECT_THROW(InferTypeLocal(relay::add(dense, relay::var("y", {5}))), TypeError);
}

TEST(DynamicToStatic, FoldsConstantsAndTypes) {
  ir::IRModule mod = text::ParseModule(
      "#[version = \"0.0.5\"]\n"
      "def @main(%x: Tensor[(2), float32]) {\n"
      "  %0 = add(1f, 2f);\n"
      "  multiply(%x, %0)\n"
      "}\n");
  ir::IRModule expected =
      ir::InferTypes(text::ParseModule("#[version = \"0.0.5\"]\n"
                                       "def @main(%x: Tensor[(2), float32]) {\n"
                                       "  multiply(%x, 3f)\n"
                                       "}\n"));
  EXPECT_EQ(Print(DynamicToStatic()(mod)), Print(expected));
  transform::Pass pass = transform::PassRegistry::Global().Create("DynamicToStatic");
  EXPECT_EQ(pass.info().opt_level, 2);
  EXPECT_TRUE(pass.info().required.empty());
}

}  // namespace
}  // namespace relaypass::passes
