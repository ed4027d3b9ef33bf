// Type-variable analyses (include/relaypass/ir/type_vars.h) and TVM's check when a function
// enters a module from the user (IRModule::AddChecked: TVM's IRModule::Add runs
// relay.ir.WarnIfMalformed, whose "contains free type variables" is an InternalError). The
// expected lists follow TVM's TypeVarEVisitor order (src/relay/analysis/util.cc), worked by hand.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "relaypass/ir/module.h"
#include "relaypass/ir/type_vars.h"
#include "relaypass/relay.h"

namespace relaypass::ir {
namespace {

std::vector<std::string> Names(const std::vector<Type>& types) {
  std::vector<std::string> out;
  for (const Type& t : types) out.push_back(t.as<TypeVarNode>()->name_hint);
  return out;
}

TEST(TypeVarsTest, FunctionTypeParametersAreBoundOthersAreFree) {
  // fn [a](%x: a, %y: b) -> (a, b) { (%x, %y) }
  Type a = TypeVar("a");
  Type b = TypeVar("b");
  Var x = relay::var("x", a);
  Var y = relay::var("y", b);
  Function f = MakeFunction({x, y}, MakeTuple({x, y}), TupleType({a, b}), {}, {a});
  EXPECT_EQ(Names(FreeTypeVars(f)), (std::vector<std::string>{"b"}));
  EXPECT_EQ(Names(BoundTypeVars(f)), (std::vector<std::string>{"a"}));
  EXPECT_EQ(Names(AllTypeVars(f)), (std::vector<std::string>{"a", "b"}));
}

TEST(TypeVarsTest, TypesAreWalkedParametersArgumentsThenResult) {
  // fn [c](b, ref(a)) -> (d, c): c is bound; b, a, d are free, in that order.
  Type a = TypeVar("a");
  Type b = TypeVar("b");
  Type c = TypeVar("c");
  Type d = TypeVar("d");
  Type t = FuncType({b, RefType(a)}, TupleType({d, c}), {c});
  EXPECT_EQ(Names(FreeTypeVars(t)), (std::vector<std::string>{"b", "a", "d"}));
  EXPECT_EQ(Names(AllTypeVars(t)), (std::vector<std::string>{"c", "b", "a", "d"}));
}

TEST(TypeVarsTest, AVariableIsListedOnceAndADeepTypeDoesNotRecurse) {
  Type a = TypeVar("a");
  Type t = a;
  for (int i = 0; i < 10000; ++i) t = TupleType({t, a});
  EXPECT_EQ(Names(FreeTypeVars(t)), (std::vector<std::string>{"a"}));
}

TEST(TypeVarsTest, AddCheckedRejectsAFreeTypeVariableAndLeavesTheModuleUnchanged) {
  Type a = TypeVar("A");
  Var x = relay::var("x", a);
  IRModule mod;
  try {
    mod.AddChecked("main", MakeFunction({x}, x));
    FAIL() << "expected an InternalError";
  } catch (const InternalError& e) {
    EXPECT_NE(std::string(e.what()).find("Function @main contains free type variables: [A]"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(mod.size(), 0u);
  // Bound by the function, the same function is accepted.
  mod.AddChecked("main", MakeFunction({x}, x, a, {}, {a}));
  EXPECT_TRUE(mod.Contains("main"));
}

}  // namespace
}  // namespace relaypass::ir
