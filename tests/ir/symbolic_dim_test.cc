// Symbolic dimensions (TVM's tir.Var in a shape): printed by name, kept by relations that copy a
// dimension, and their expressions (ir/dim_expr.h: TVM's tir.Add, Mul, ... as nn.pad,
// nn.batch_flatten and concatenate compute them). Expected types are those TVM v0.13 infers for
// the same calls (its test_op_level1/2/4.py state them); the folding rules are TVM's
// arith::TryConstFold, the text TVM's TIR text printer's.
#include <gtest/gtest.h>

#include "relaypass/ir/dim_expr.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/relay.h"
#include "relaypass/support/error.h"

namespace relaypass::ir {
namespace {

Type InferBody(const Expr& body, const std::vector<Var>& params) {
  Function f = InferTypes(IRModule::FromExpr(MakeFunction(params, body))).Lookup("main");
  return f->body->checked_type;
}

TEST(SymbolicDimTest, PrintsItsNameAndStaysDistinctFromAny) {
  const Dim n = NewSymbolicDim("n");
  const Dim m = NewSymbolicDim("n");  // same name, another variable
  EXPECT_TRUE(IsSymbolicDim(n));
  EXPECT_FALSE(IsSymbolicDim(kAnyDim));
  EXPECT_FALSE(IsKnownDim(n));
  EXPECT_NE(n, m);
  EXPECT_EQ(TypeToString(TensorType({n, 3, kAnyDim}, DataType::Float32())),
            "Tensor[(n, 3, ?), float32]");
  EXPECT_FALSE(
      TypeEqual(TensorType({n}, DataType::Float32()), TensorType({m}, DataType::Float32())));
  EXPECT_EQ(SymbolicDimName(-5), "?");
}

TEST(SymbolicDimTest, RelationsThatCopyADimensionKeepIt) {
  const Dim n = NewSymbolicDim("n");
  const Dim t = NewSymbolicDim("t");
  Var x = MakeVar("x", TensorType({n, t, 100}, DataType::Float32()));
  Var y = MakeVar("y", TensorType({n, t, 100}, DataType::Float32()));
  // TVM: concatenate((x, y), axis=-1) : Tensor[(n, t, 200)]
  EXPECT_EQ(TypeToString(InferBody(relay::concatenate({x, y}, -1), {x, y})),
            "Tensor[(n, t, 200), float32]");
  // TVM: add(x, y) : Tensor[(n, t, 100)]
  EXPECT_EQ(TypeToString(InferBody(relay::add(x, y), {x, y})), "Tensor[(n, t, 100), float32]");
  // TVM: sum(x, axis=[1], keepdims=True) : Tensor[(n, 1, 100)]
  EXPECT_EQ(TypeToString(InferBody(relay::sum(x, relay::Ints{1}, true), {x})),
            "Tensor[(n, 1, 100), float32]");
}

TEST(SymbolicDimTest, DifferentVariablesDoNotBroadcast) {
  // TVM's BroadcastRel: two different variables are neither equal nor 1: "Incompatible
  // broadcast type".
  Var x = MakeVar("x", TensorType({NewSymbolicDim("a")}, DataType::Float32()));
  Var y = MakeVar("y", TensorType({NewSymbolicDim("b")}, DataType::Float32()));
  EXPECT_THROW(InferBody(relay::add(x, y), {x, y}), Error);
}

TEST(DimExprTest, EqualExpressionsAreOneDimAndPrintAsTVMsTIRText) {
  const Dim n = NewSymbolicDim("n");
  const Dim m = NewSymbolicDim("m");
  const Dim sum = MakeDimExpr(DimOp::kAdd, DimOperand::Of(n), DimOperand::Const(2));
  EXPECT_TRUE(IsSymbolicDim(sum));
  EXPECT_EQ(sum, MakeDimExpr(DimOp::kAdd, DimOperand::Of(n), DimOperand::Const(2)));
  EXPECT_NE(sum, MakeDimExpr(DimOp::kAdd, DimOperand::Const(2), DimOperand::Of(n)));  // order
  EXPECT_NE(sum, MakeDimExpr(DimOp::kAdd, DimOperand::Of(m), DimOperand::Const(2)));
  // TVM's TIR text printer: "(a + b)", "(a*b)", "floordiv(a, b)", negative constants as is.
  EXPECT_EQ(DimText(sum), "(n + 2)");
  EXPECT_EQ(DimText(MakeDimExpr(DimOp::kAdd, DimOperand::Of(n), DimOperand::Const(-2))),
            "(n + -2)");
  const Dim product = MakeDimExpr(DimOp::kMul, DimOperand::Of(sum), DimOperand::Of(m));
  EXPECT_EQ(DimText(product), "((n + 2)*m)");
  EXPECT_EQ(DimText(MakeDimExpr(DimOp::kFloorDiv, DimOperand::Of(product), DimOperand::Const(2))),
            "floordiv(((n + 2)*m), 2)");
  EXPECT_EQ(DimText(MakeDimExpr(DimOp::kFloorMod, DimOperand::Of(m), DimOperand::Const(3))),
            "floormod(m, 3)");
  EXPECT_EQ(TypeToString(TensorType({sum, 3}, DataType::Float32())),
            "Tensor[((n + 2), 3), float32]");
  std::optional<DimExprParts> parts = DimExprOf(product);
  ASSERT_TRUE(parts.has_value());
  EXPECT_EQ(parts->op, DimOp::kMul);
  EXPECT_EQ(parts->a, DimOperand::Of(sum));
  EXPECT_EQ(parts->b, DimOperand::Of(m));
  EXPECT_FALSE(DimExprOf(n).has_value());
  EXPECT_FALSE(DimExprOf(3).has_value());
}

TEST(DimExprTest, FoldsAsTVMsOperatorsFold) {
  const DimOperand x = DimOperand::Of(NewSymbolicDim("x"));
  const Dim xd = x.value;
  auto c = DimOperand::Const;
  // arith::TryConstFold: two constants fold (floordiv / floormod round toward minus infinity);
  // x + 0, x - 0, x * 1, x * 0, floordiv(x, 1), floormod(x, 1) and a zero dividend reduce.
  EXPECT_EQ(MakeDimExpr(DimOp::kAdd, c(3), c(4)), 7);
  EXPECT_EQ(MakeDimExpr(DimOp::kFloorDiv, c(7), c(2)), 3);
  EXPECT_EQ(MakeDimExpr(DimOp::kFloorMod, c(-7), c(2)), 1);
  EXPECT_EQ(MakeDimExpr(DimOp::kAdd, c(0), x), xd);
  EXPECT_EQ(MakeDimExpr(DimOp::kAdd, x, c(0)), xd);
  EXPECT_EQ(MakeDimExpr(DimOp::kSub, x, c(0)), xd);
  EXPECT_EQ(MakeDimExpr(DimOp::kMul, c(1), x), xd);
  EXPECT_EQ(MakeDimExpr(DimOp::kMul, x, c(0)), 0);
  EXPECT_EQ(MakeDimExpr(DimOp::kFloorDiv, x, c(1)), xd);
  EXPECT_EQ(MakeDimExpr(DimOp::kFloorMod, x, c(1)), 0);
  EXPECT_EQ(MakeDimExpr(DimOp::kFloorDiv, c(0), x), 0);
  EXPECT_EQ(MakeDimExpr(DimOp::kMax, c(3), c(9)), 9);
  EXPECT_EQ(MakeDimExpr(DimOp::kMin, x, x), xd);
  EXPECT_EQ(DimText(MakeDimExpr(DimOp::kMax, x, c(100))), "max(x, 100)");
  EXPECT_EQ(DimText(MakeDimExpr(DimOp::kMin, c(2), x)), "min(2, x)");
  // Not simplified further, as in TVM: x + x, x - x and 0 - x stay expressions.
  EXPECT_TRUE(IsSymbolicDim(MakeDimExpr(DimOp::kAdd, x, x)));
  EXPECT_TRUE(IsSymbolicDim(MakeDimExpr(DimOp::kSub, x, x)));
  EXPECT_TRUE(IsSymbolicDim(MakeDimExpr(DimOp::kSub, c(0), x)));
  // `?` absorbs in the relations' helpers; extents add and multiply.
  EXPECT_EQ(DimExprAdd(kAnyDim, xd), kAnyDim);
  EXPECT_EQ(DimExprMul(6, 4), 24);
}

TEST(DimExprTest, BadExpressionsAreTypeErrors) {
  const DimOperand x = DimOperand::Of(NewSymbolicDim("x"));
  auto c = DimOperand::Const;
  EXPECT_THROW(MakeDimExpr(DimOp::kFloorDiv, x, c(0)), TypeError);
  EXPECT_THROW(MakeDimExpr(DimOp::kFloorMod, c(4), c(0)), TypeError);
  EXPECT_THROW(MakeDimExpr(DimOp::kSub, c(2), c(5)), TypeError);  // a negative extent
  EXPECT_THROW(MakeDimExpr(DimOp::kMul, c(INT64_MAX), c(2)), TypeError);
  EXPECT_THROW(MakeDimExpr(DimOp::kAdd, DimOperand{false, 5}, c(1)), TypeError);  // not symbolic
}

TEST(DimExprTest, DeepExpressionsPrintWithoutRecursion) {
  Dim d = NewSymbolicDim("x");
  for (int i = 0; i < 100000; ++i)
    d = MakeDimExpr(DimOp::kAdd, DimOperand::Of(d), DimOperand::Const(1));
  const std::string text = DimText(d);
  EXPECT_EQ(text.size(), 1 + 100000 * 6);  // "x", then "(" and " + 1)" per level
  EXPECT_EQ(text.substr(0, 4), "((((");
  EXPECT_EQ(text.substr(text.size() - 10), " + 1) + 1)");
}

TEST(DimExprTest, RelationsComputeTVMsExpressions) {
  const Dim n = NewSymbolicDim("n");
  const Dim t = NewSymbolicDim("t");
  const Dim d3 = NewSymbolicDim("d3");
  auto f32 = DataType::Float32();
  // TVM test_op_level1.py::test_concatenate: concatenate((x, y), axis=1) : (n, t + t, 100).
  Var x = MakeVar("x", TensorType({n, t, 100}, f32));
  Var y = MakeVar("y", TensorType({n, t, 100}, f32));
  EXPECT_TRUE(TypeEqual(InferBody(relay::concatenate({x, y}, 1), {x, y}),
                        TensorType({n, DimExprAdd(t, t), 100}, f32)));
  EXPECT_EQ(DimText(DimExprAdd(t, t)), "(t + t)");
  // TVM test_op_level2.py::test_flatten_infer_type: (d1, 2, d3, 3) -> (d1, ((2*d3)*3)).
  Var z = MakeVar("z", TensorType({n, 2, d3, 3}, f32));
  const Dim flat = DimExprMul(DimExprMul(2, d3), 3);
  EXPECT_EQ(TypeToString(InferBody(relay::nn::batch_flatten(z), {z})),
            "Tensor[(n, ((2*d3)*3)), float32]");
  EXPECT_TRUE(TypeEqual(InferBody(relay::nn::batch_flatten(z), {z}), TensorType({n, flat}, f32)));
  // TVM test_op_level2.py::test_pad_infer_type: pads ((1, 1), (-2, -2), (0, 0)) on (n, t, 5)
  // give (n + 2, t + -4, 5).
  Var w = MakeVar("w", TensorType({n, t, 5}, f32));
  EXPECT_EQ(TypeToString(InferBody(relay::nn::pad(w, {{1, 1}, {-2, -2}, {0, 0}}), {w})),
            "Tensor[((n + 2), (t + -4), 5), float32]");
}

}  // namespace
}  // namespace relaypass::ir
