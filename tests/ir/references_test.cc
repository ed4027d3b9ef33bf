// References in the IR layer: structural equality and hashing, rebuilding by the mutator, and
// type inference with TVM's rules (type_infer.cc): ref(v) : ref(T) for v : T; ref_read(r) : T
// for r : ref(T); ref_write(r, v) : () with v : T; anything else is a type error.
#include <gtest/gtest.h>

#include "relaypass/ir/module.h"
#include "relaypass/ir/structural.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/relay.h"

namespace relaypass::ir {
namespace {

Type F32() {
  return ScalarType(DataType::Float32());
}

// fn (%x: float32) { let %r = ref(%x); let %u = ref_write(%r, %x + %x); ref_read(%r) }
Function Counter() {
  Var x = relay::var("x", F32());
  Var r = relay::var("r"), u = relay::var("u");
  Expr body =
      MakeLet(r, MakeRefCreate(x), MakeLet(u, MakeRefWrite(r, relay::add(x, x)), MakeRefRead(r)));
  return MakeFunction({x}, body);
}

TEST(ReferencesTest, StructuralEqualityAndHash) {
  Function a = Counter(), b = Counter();
  EXPECT_TRUE(StructuralEqual(Expr(a), Expr(b)));
  EXPECT_EQ(StructuralHash(Expr(a)), StructuralHash(Expr(b)));
  Var x = relay::var("x", F32());
  EXPECT_FALSE(StructuralEqual(Expr(MakeFunction({x}, MakeRefCreate(x))),
                               Expr(MakeFunction({x}, MakeRefRead(x)))));
  EXPECT_TRUE(TypeEqual(RefType(F32()), RefType(F32())));
  EXPECT_FALSE(TypeEqual(RefType(F32()), F32()));
  EXPECT_EQ(TypeToString(RefType(TupleType({F32()}))), "ref((float32,))");
}

TEST(ReferencesTest, MutatorRebuildsReferenceNodes) {
  struct ConstantsToZero : ExprMutator {
    Expr RewriteConstant(const ConstantNode*, const Expr&) override { return relay::const_(0.0f); }
  };
  Expr write = MakeRefWrite(MakeRefCreate(relay::const_(1.0f)), relay::const_(2.0f));
  Expr out = ConstantsToZero().Mutate(write);
  auto* w = out.as<RefWriteNode>();
  ASSERT_NE(w, nullptr);
  EXPECT_FALSE(out.same_as(write));
  EXPECT_TRUE(StructuralEqual(w->value, relay::const_(0.0f)));
  EXPECT_TRUE(StructuralEqual(w->ref.as<RefCreateNode>()->value, relay::const_(0.0f)));
  EXPECT_EQ(PostOrder(write).size(), 4u);  // the write, the create and the two constants
}

TEST(ReferencesTest, InferredTypes) {
  IRModule mod = InferTypes(IRModule::FromExpr(Counter()));
  const auto* let = mod.Lookup("main")->body.as<LetNode>();
  EXPECT_EQ(TypeToString(let->value->checked_type), "ref(float32)");
  const auto* write = let->body.as<LetNode>()->value.as<RefWriteNode>();
  EXPECT_EQ(TypeToString(Expr(write)->checked_type), "()");
  EXPECT_EQ(TypeToString(mod.Lookup("main")->ret_type), "float32");
}

TEST(ReferencesTest, TypeErrorsNameTheOperation) {
  Var x = relay::var("x", F32());
  EXPECT_THROW(
      {
        try {
          InferTypes(IRModule::FromExpr(MakeFunction({x}, MakeRefRead(x))));
        } catch (const TypeError& e) {
          EXPECT_EQ(e.message(), "ref_read of a non-reference: float32 and ref(_) do not match");
          throw;
        }
      },
      TypeError);
  Expr bad = MakeRefWrite(MakeRefCreate(x), relay::const_(1));
  EXPECT_THROW(
      {
        try {
          InferTypes(IRModule::FromExpr(MakeFunction({x}, bad)));
        } catch (const TypeError& e) {
          EXPECT_EQ(e.message(),
                    "ref_write of a value of another type than the reference's: int32 and "
                    "float32 do not match");
          throw;
        }
      },
      TypeError);
  EXPECT_THROW(InferTypes(IRModule::FromExpr(MakeFunction({x}, MakeRefWrite(x, x)))), TypeError);
}

}  // namespace
}  // namespace relaypass::ir
