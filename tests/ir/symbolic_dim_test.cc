// Symbolic dimensions (TVM's tir.Var in a shape): printed by name, kept by relations that copy a
// dimension, `?` where TVM's relation would compute an expression of them. Expected types are
// those TVM v0.13 infers for the same calls (its test_op_level1/4.py state them).
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace relaypass::ir
