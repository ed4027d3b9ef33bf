// The interpreter on algebraic data types: constructor calls build ADT values (the module's
// tag, the fields in order, as TVM's ConstructorValue), a match takes its first matching
// clause and binds the pattern's variables, no matching clause is an error, a constructor
// passed as a value is a function, and a list 100,000 long is built and taken apart on the
// explicit stacks (TVM's interpreter semantics, src/relay/backend/interpreter.cc).
#include "relaypass/ir/module.h"
#include "relaypass/text/parser.h"
#include "test_util.h"

namespace relaypass::eval {
namespace {

using namespace testing;  // NOLINT

// Parsed with type inference (the evaluator runs typed modules).
constexpr const char* kListText = R"(
type List[A] {
  Cons(A, List[A]),
  Nil,
}

def @build(%n: int32, %acc: List[int32]) -> List[int32] {
  if (%n == 0) {
    %acc
  } else {
    @build(%n - 1, Cons(%n, %acc))
  }
}

def @sum(%xs: List[int32], %acc: int32) -> int32 {
  match (%xs) {
    Cons(%x, %rest) => @sum(%rest, %acc + %x),
    Nil => %acc,
  }
}

def @first(%xs: List[int32]) -> int32 {
  match? (%xs) {
    Cons(%x, _) => %x,
  }
}

def @apply[A, B](%f: fn(A, List[A]) -> B, %x: A) -> B {
  %f(%x, Nil)
}

def @main(%n: int32) -> int32 {
  @sum(@build(%n, Nil), 0)
}
)";

int32_t Int(const Value& v) {
  return *static_cast<const int32_t*>(v.tensor().raw_data());
}

ir::NDArray I32(int32_t x) {
  return ir::NDArray::Scalar<int32_t>(x, ir::DataType::Int32());
}

TEST(AdtEvalTest, ConstructorsAndMatch) {
  ir::IRModule mod = text::ParseModule(kListText);
  Interpreter interp(mod);
  Value list =
      interp.Call(mod.Lookup("build"),
                  {I32(3), interp.Eval(ir::MakeCall(mod.GetConstructor("List", "Nil"), {}))});
  ASSERT_TRUE(list.is_adt());
  // Cons(1, Cons(2, Cons(3, Nil))): the tags are the module's.
  EXPECT_EQ(list.adt().tag, mod.GetConstructor("List", "Cons")->tag);
  EXPECT_EQ(Int(list.adt().fields[0]), 1);
  EXPECT_EQ(Int(list.adt().fields[1].adt().fields[0]), 2);
  EXPECT_EQ(Int(interp.Call(mod.Lookup("sum"), {list, I32(0)})), 6);
  EXPECT_EQ(Int(interp.Call(mod.Lookup("first"), {list})), 1);
}

TEST(AdtEvalTest, ConstructorAsAValue) {
  ir::IRModule mod = text::ParseModule(std::string(kListText) +
                                       "def @wrap(%x: int32) -> List[int32] { @apply(Cons, %x) }");
  Interpreter interp(mod);
  Value one = interp.Call(mod.Lookup("wrap"), {I32(7)});  // @apply(Cons, 7) is Cons(7, Nil)
  ASSERT_TRUE(one.is_adt());
  EXPECT_EQ(Int(one.adt().fields[0]), 7);
  EXPECT_EQ(one.adt().fields[1].adt().tag, mod.GetConstructor("List", "Nil")->tag);
}

TEST(AdtEvalTest, NoMatchingClauseIsAnError) {
  ir::IRModule mod = text::ParseModule(kListText);
  Interpreter interp(mod);
  Value nil = interp.Eval(ir::MakeCall(mod.GetConstructor("List", "Nil"), {}));
  EXPECT_THROW(interp.Call(mod.Lookup("first"), {nil}), Error);  // `match?` without a Nil clause
}

TEST(AdtEvalTest, LongListsUseNoNativeRecursion) {
  ir::IRModule mod = text::ParseModule(kListText);
  Interpreter interp(mod);
  // sum of 1..100000 = 5000050000, which wraps in int32 as TVM's int32 add does.
  const int64_t n = 100000;
  EXPECT_EQ(Int(interp.RunMain({I32(static_cast<int32_t>(n))})),
            static_cast<int32_t>(static_cast<uint32_t>(n * (n + 1) / 2)));
}

}  // namespace
}  // namespace relaypass::eval
