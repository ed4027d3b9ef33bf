#include <gtest/gtest.h>

#include "relaypass/ir/structural.h"
#include "relaypass/ir/visitor.h"

namespace relaypass::ir {
namespace {

Type T(std::vector<Dim> shape) {
  return TensorType(std::move(shape), DataType::Float32());
}

Function Swap(const std::string& a_name, const std::string& b_name) {
  Var a = MakeVar(a_name, T({1}));
  Var b = MakeVar(b_name, T({2}));
  return MakeFunction({a, b}, MakeTuple({b, a}));
}

TEST(StructuralTest, AlphaEquivalentFunctionsAreEqual) {
  Function f = Swap("a", "b");
  Function g = Swap("x", "y");
  EXPECT_TRUE(StructuralEqual(Expr(f), Expr(g)));
  EXPECT_EQ(StructuralHash(Expr(f)), StructuralHash(Expr(g)));
}

TEST(StructuralTest, DifferentAnnotationsDiffer) {
  Var a = MakeVar("a", T({1}));
  Var b = MakeVar("a", T({3}));
  EXPECT_FALSE(StructuralEqual(Expr(MakeFunction({a}, a)), Expr(MakeFunction({b}, b))));
}

TEST(StructuralTest, FreeVarsCompareByIdentity) {
  Var a = MakeVar("a");
  Var b = MakeVar("a");
  EXPECT_TRUE(StructuralEqual(Expr(MakeTuple({a})), Expr(MakeTuple({a}))));
  EXPECT_FALSE(StructuralEqual(Expr(MakeTuple({a})), Expr(MakeTuple({b}))));
}

TEST(StructuralTest, AFreeVarEqualsItsTypedCopies) {
  // TVM's Var copies share their Id (vid), and type inference copies an untyped variable to type
  // it: a free variable in two separately inferred expressions is still the same variable
  // (TVM's test_pass_fold_explicit_padding compares such bodies).
  Var a = MakeVar("a");
  Var typed_once = MakeVar("a", T({1}));
  Var typed_twice = MakeVar("a", T({1}));
  const_cast<VarNode*>(typed_once.get())->vid = a->vid;
  const_cast<VarNode*>(typed_twice.get())->vid = a->vid;
  EXPECT_TRUE(StructuralEqual(Expr(MakeTuple({typed_once})), Expr(MakeTuple({typed_twice}))));
  EXPECT_FALSE(
      StructuralEqual(Expr(MakeTuple({typed_once})), Expr(MakeTuple({MakeVar("a", T({1}))}))));
}

TEST(StructuralTest, SharingMustMatch) {
  Var x = MakeVar("x", T({1}));
  Expr shared = MakeTuple({x});
  Function f = MakeFunction({x}, MakeTuple({shared, shared}));
  Var y = MakeVar("y", T({1}));
  Function g = MakeFunction({y}, MakeTuple({MakeTuple({y}), MakeTuple({y})}));
  EXPECT_FALSE(StructuralEqual(Expr(f), Expr(g)));
  Var z = MakeVar("z", T({1}));
  Expr shared_z = MakeTuple({z});
  Function h = MakeFunction({z}, MakeTuple({shared_z, shared_z}));
  EXPECT_TRUE(StructuralEqual(Expr(f), Expr(h)));
}

TEST(StructuralTest, ConstantsCompareByValue) {
  NDArray a = NDArray::Empty({2}, DataType::Float32());
  NDArray b = NDArray::Empty({2}, DataType::Float32());
  EXPECT_TRUE(StructuralEqual(Expr(MakeConstant(a)), Expr(MakeConstant(b))));
  b.mutable_data<float>()[1] = 1.0f;
  EXPECT_FALSE(StructuralEqual(Expr(MakeConstant(a)), Expr(MakeConstant(b))));
  EXPECT_NE(StructuralHash(Expr(MakeConstant(a))), StructuralHash(Expr(MakeConstant(b))));
}

// A constant shared by two uses equals two equal constants, and the other way round: TVM's
// ConstantNode is no graph node (its SEqualReduce does not call MarkGraphNode), so sharing is
// not compared for constants as it is for calls and tuples (FakeQuantizationToInteger's output
// against a test's hand-built graph: TVM's test_fq_qat_positive_nothing_to_do).
TEST(StructuralTest, SharedConstantsNeedNotBeMirrored) {
  NDArray v = NDArray::Empty({2}, DataType::Float32());
  Expr shared = MakeConstant(v);
  Expr one_object = MakeTuple({shared, shared});
  Expr two_objects = MakeTuple({MakeConstant(v), MakeConstant(v)});
  EXPECT_TRUE(StructuralEqual(one_object, two_objects));
  EXPECT_TRUE(StructuralEqual(two_objects, one_object));
  EXPECT_EQ(StructuralHash(one_object), StructuralHash(two_objects));
  NDArray w = NDArray::Empty({2}, DataType::Float32());
  w.mutable_data<float>()[0] = 2.0f;
  EXPECT_FALSE(StructuralEqual(one_object, Expr(MakeTuple({MakeConstant(v), MakeConstant(w)}))));
}

TEST(StructuralTest, LetBindsVariables) {
  Var x = MakeVar("x", T({1}));
  Var v1 = MakeVar("v");
  Var v2 = MakeVar("w");
  Function f = MakeFunction({x}, MakeLet(v1, MakeTuple({x}), v1));
  Function g = MakeFunction({x}, MakeLet(v2, MakeTuple({x}), v2));
  EXPECT_TRUE(StructuralEqual(Expr(f), Expr(g)));
}

TEST(StructuralTest, ModulesCompareFunctionsByName) {
  IRModule a = IRModule::FromExpr(Swap("a", "b"));
  IRModule b = IRModule::FromExpr(Swap("c", "d"));
  EXPECT_TRUE(StructuralEqual(a, b));
  EXPECT_EQ(StructuralHash(a), StructuralHash(b));
  b.Add("other", Swap("e", "f"));
  EXPECT_FALSE(StructuralEqual(a, b));
}

TEST(StructuralTest, MillionNodeChainEqualityAndHash) {
  auto chain = [](const std::string& name) {
    Var x = MakeVar(name, T({1}));
    Expr e = x;
    for (int i = 0; i < 1000000; ++i) e = MakeTupleGetItem(MakeTuple({e}), 0);
    return MakeFunction({x}, e);
  };
  Function a = chain("x");
  Function b = chain("y");
  EXPECT_TRUE(StructuralEqual(Expr(a), Expr(b)));
  EXPECT_EQ(StructuralHash(Expr(a)), StructuralHash(Expr(b)));
}

}  // namespace
}  // namespace relaypass::ir
