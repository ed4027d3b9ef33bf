// Algebraic data types in the IR layer: the List ADT of TVM's prelude built with the C++ API,
// the module's type definitions and constructor tags (TVM's IRModule::RegisterConstructors:
// the name's hash in the top byte, the constructor's index below), structural equality and
// hashing of match expressions and polymorphic functions, the visitors' view of pattern
// variables, and type inference with TVM's rules (src/relay/transforms/type_infer.cc:
// constructors are polymorphic functions, polymorphic callees are instantiated per call, a
// match's clauses share one type).
#include <gtest/gtest.h>

#include <functional>

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

// type List[A] { Cons(A, List[A]), Nil }
struct ListAdt {
  Type list = GlobalTypeVar("List");
  Type a = TypeVar("A");
  Constructor cons = MakeConstructor("Cons", {a, TypeCall(list, {a})}, list);
  Constructor nil = MakeConstructor("Nil", {}, list);
  TypeData data = MakeTypeData(list, {a}, {cons, nil});
  IRModule mod;
  ListAdt() { mod.AddTypeDef(list, data); }
};

// fn (%l: List[float32]) { match (%l) { Cons(%h, _) => %h, Nil => 0f } }
Function Head(const ListAdt& adt) {
  Var l = relay::var("l", TypeCall(adt.list, {F32()}));
  Var h = relay::var("h");
  Clause cons =
      MakeClause(MakePatternConstructor(adt.cons, {MakePatternVar(h), MakePatternWildcard()}), h);
  Clause nil = MakeClause(MakePatternConstructor(adt.nil, {}), relay::const_(0.0f));
  return MakeFunction({l}, MakeMatch(l, {cons, nil}));
}

TEST(AdtTest, ModuleTypeDefinitionsAndTags) {
  ListAdt adt;
  const IRModule& mod = adt.mod;
  ASSERT_EQ(mod.type_definitions().size(), 1u);
  EXPECT_TRUE(mod.ContainGlobalTypeVar("List"));
  EXPECT_TRUE(mod.GetGlobalTypeVar("List").same_as(adt.list));
  EXPECT_TRUE(mod.LookupTypeDef("List").same_as(adt.data));
  EXPECT_TRUE(mod.GetConstructor("List", "Nil").same_as(adt.nil));
  const int32_t prefix = static_cast<int32_t>((std::hash<std::string>()("List") & 0xff) << 24);
  EXPECT_EQ(adt.cons->tag, prefix | 0);
  EXPECT_EQ(adt.nil->tag, prefix | 1);
  EXPECT_TRUE(mod.LookupTag(adt.nil->tag).same_as(adt.nil));
  IRModule copy = mod;
  EXPECT_THROW(copy.AddTypeDef(adt.list, adt.data), InternalError);  // TVM: duplicate name
  EXPECT_THROW(mod.GetGlobalTypeVar("Tree"), InternalError);
  EXPECT_THROW(mod.GetConstructor("List", "Leaf"), InternalError);
}

TEST(AdtTest, TypeText) {
  ListAdt adt;
  EXPECT_EQ(TypeToString(TypeCall(adt.list, {F32()})), "List[float32]");
  EXPECT_EQ(TypeToString(TypeCall(GlobalTypeVar("nat"), {})), "nat[]");
  EXPECT_EQ(TypeToString(FuncType({adt.a}, adt.a, {adt.a})), "fn [A](A) -> A");
  EXPECT_TRUE(TypeEqual(TypeCall(adt.list, {F32()}), TypeCall(GlobalTypeVar("List"), {F32()})));
  EXPECT_FALSE(TypeEqual(TypeVar("A"), TypeVar("A")));  // distinct variables
}

TEST(AdtTest, StructuralEqualityOfMatchAndTypeParams) {
  ListAdt adt;
  EXPECT_TRUE(StructuralEqual(Expr(Head(adt)), Expr(Head(adt))));
  EXPECT_EQ(StructuralHash(Expr(Head(adt))), StructuralHash(Expr(Head(adt))));
  // Clauses in another order are another match.
  Function head = Head(adt);
  auto* match = head->body.as<MatchNode>();
  Expr swapped =
      MakeFunction(head->params, MakeMatch(match->data, {match->clauses[1], match->clauses[0]}));
  EXPECT_FALSE(StructuralEqual(Expr(head), swapped));
  // fn [A](%x: A) -> A { %x } twice, with different type variables: equal, as in TVM.
  auto identity = [] {
    Type a = TypeVar("A");
    Var x = relay::var("x", a);
    return Expr(MakeFunction({x}, x, a, {}, {a}));
  };
  EXPECT_TRUE(StructuralEqual(identity(), identity()));
}

TEST(AdtTest, PatternVariablesAreBoundByTheMatch) {
  ListAdt adt;
  Function head = Head(adt);
  // The only free variable of the match is the data; %h is bound by its pattern.
  std::vector<Var> free = FreeVars(head->body);
  ASSERT_EQ(free.size(), 1u);
  EXPECT_EQ(free[0]->name_hint, "l");
  // A mutator that renames %h rebuilds the pattern and its use together.
  struct Rename : ExprMutator {
    Expr RewriteVar(const VarNode* pre, const Expr& post) override {
      if (pre->name_hint != "h") return post;
      return MakeVar("head", pre->type_annotation);
    }
  };
  Expr out = Rename().Mutate(head->body);
  auto* m = out.as<MatchNode>();
  ASSERT_NE(m, nullptr);
  auto* pc = m->clauses[0]->lhs.as<PatternConstructorNode>();
  auto* pv = pc->patterns[0].as<PatternVarNode>();
  EXPECT_EQ(pv->var->name_hint, "head");
  EXPECT_TRUE(m->clauses[0]->rhs.same_as(pv->var));
  EXPECT_TRUE(m->clauses[1].same_as(head->body.as<MatchNode>()->clauses[1]));  // unchanged
}

TEST(AdtTest, InferTypesOfMatchAndConstructors) {
  ListAdt adt;
  IRModule mod = adt.mod;
  mod.Add("main", Head(adt));
  IRModule typed = InferTypes(mod);
  Function main = typed.Lookup("main");
  EXPECT_EQ(TypeToString(main->ret_type), "float32");
  auto* m = main->body.as<MatchNode>();
  auto* pv = m->clauses[0]->lhs.as<PatternConstructorNode>()->patterns[0].as<PatternVarNode>();
  EXPECT_EQ(TypeToString(Expr(pv->var)->checked_type), "float32");
  // Cons(1f, Nil): the constructors are instantiated at float32.
  Expr list = MakeCall(adt.cons, {relay::const_(1.0f), MakeCall(adt.nil, {})});
  Expr typed_list = InferExprTypes(list, adt.mod);
  EXPECT_EQ(TypeToString(typed_list->checked_type), "List[float32]");
  // The constructor stays the module's node (not a typed copy).
  EXPECT_TRUE(typed_list.as<CallNode>()->op.same_as(adt.cons));
}

TEST(AdtTest, PolymorphicFunctionsAreInstantiatedPerCall) {
  IRModule mod;
  Type a = TypeVar("A");
  Var x = relay::var("x", a);
  mod.Add("id", MakeFunction({x}, x, a, {}, {a}));
  Var y = relay::var("y", F32());
  Var z = relay::var("z", ScalarType(DataType::Int(32)));
  GlobalVar id = mod.GetGlobalVar("id");
  mod.Add("main", MakeFunction({y, z}, MakeTuple({MakeCall(id, {y}), MakeCall(id, {z})})));
  IRModule typed = InferTypes(mod);
  EXPECT_EQ(TypeToString(typed.Lookup("main")->ret_type), "(float32, int32)");
  EXPECT_EQ(TypeToString(typed.Lookup("id")->checked_type), "fn [A](A) -> A");
}

TEST(AdtTest, MismatchedClausesAreTypeErrors) {
  ListAdt adt;
  Var l = relay::var("l", TypeCall(adt.list, {F32()}));
  Clause cons =
      MakeClause(MakePatternConstructor(adt.cons, {MakePatternWildcard(), MakePatternWildcard()}),
                 relay::const_(1.0f));
  Clause nil = MakeClause(MakePatternConstructor(adt.nil, {}), relay::const_(1));
  IRModule mod = adt.mod;
  mod.Add("main", MakeFunction({l}, MakeMatch(l, {cons, nil})));
  EXPECT_THROW(InferTypes(mod), TypeError);
  // A constructor whose ADT the module does not define.
  IRModule empty;
  empty.Add("main", MakeFunction({}, MakeCall(adt.nil, {})));
  EXPECT_THROW(InferTypes(empty), TypeError);
}

}  // namespace
}  // namespace relaypass::ir
