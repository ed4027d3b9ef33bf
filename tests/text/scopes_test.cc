// Scopes of the text format (docs/reliability.md, "Scopes in the text format"). The rules are
// TVM v0.13's (src/relay/parser/parser.cc): a graph binding `%N = e` is recorded in one table
// for the whole parse, so it may be used after the closure, let body or if branch that made it,
// and even in a later function; but the module TVM builds from such a use is rejected when a
// function ends up using a variable outside its binder (IRModule::Add: "contains free
// variables"). Here that is a ParseError at the `%N` that escapes. A let variable is in scope
// in its own value (TVM's BindVar comes before the value): a let-bound function may call
// itself, and TVM's type checker types it recursively.
#include <gtest/gtest.h>

#include "relaypass/eval/interpreter.h"
#include "relaypass/ir/module.h"
#include "relaypass/text/parser.h"
#include "relaypass/text/printer.h"

namespace relaypass::text {
namespace {

// Parses `text` and checks it fails at line:col with a message starting with `message`.
void ExpectScopeError(const std::string& text, int line, int column, const std::string& message) {
  try {
    ParseModule(text);
    ADD_FAILURE() << "no error; expected " << line << ":" << column << ": " << message;
  } catch (const ParseError& e) {
    EXPECT_EQ(e.span().line, line) << e.what();
    EXPECT_EQ(e.span().column, column) << e.what();
    EXPECT_EQ(e.message().substr(0, message.size()), message) << e.what();
  }
}

TEST(ScopesTest, BindingMadeInAClosureCannotEscapeWithItsParameter) {
  ExpectScopeError(
      "def @main(%x: float32) {\n"
      "  %1 = fn (%y: float32) {\n"
      "    %0 = add(%y, %x);\n"
      "    %0\n"
      "  };\n"
      "  %0\n"
      "}\n",
      6, 3,
      "%0 (bound at 3:5) uses %y (declared at 2:12), which is not in scope here: a binding "
      "made inside a function, let or if branch cannot be used outside it");
  // Through another binding made outside, and inside an argument.
  ExpectScopeError(
      "def @main(%x: float32) {\n"
      "  %2 = fn (%y: float32) {\n"
      "    %0 = add(%y, %x);\n"
      "    %1 = nn.relu(%0);\n"
      "    %1\n"
      "  };\n"
      "  add(%x, %1)\n"
      "}\n",
      7, 11, "%1 (bound at 4:5) uses %y (declared at 2:12)");
  // A closure nested in a closure: the inner parameter is out of scope in the outer body.
  ExpectScopeError(
      "def @main(%x: float32) {\n"
      "  %2 = fn (%a: float32) {\n"
      "    %1 = fn (%b: float32) {\n"
      "      %0 = add(%a, %b);\n"
      "      %0\n"
      "    };\n"
      "    %0\n"
      "  };\n"
      "  %x\n"
      "}\n",
      7, 5, "%0 (bound at 4:7) uses %b (declared at 3:14)");
}

TEST(ScopesTest, BindingOfOneFunctionCannotBeUsedInAnother) {
  ExpectScopeError(
      "def @f(%a: float32) {\n"
      "  %0 = nn.relu(%a);\n"
      "  %0\n"
      "}\n"
      "def @main(%x: float32) {\n"
      "  add(%0, %x)\n"
      "}\n",
      6, 7, "%0 (bound at 2:3) uses %a (declared at 1:8)");
}

TEST(ScopesTest, BindingMadeAfterALetCannotEscapeTheLetsBlock) {
  // In an if branch.
  ExpectScopeError(
      "def @main(%x: float32, %c: bool) {\n"
      "  %1 = if (%c) {\n"
      "    let %t = add(%x, %x);\n"
      "    %0 = multiply(%t, %t);\n"
      "    %0\n"
      "  } else {\n"
      "    %x\n"
      "  };\n"
      "  add(%1, %0)\n"
      "}\n",
      9, 11, "%0 (bound at 4:5) uses %t (declared at 3:9)");
  // In a parenthesized let block.
  ExpectScopeError(
      "def @main(%x: float32) {\n"
      "  %1 = (let %t = nn.relu(%x); %0 = add(%t, %t); %0);\n"
      "  add(%1, %0)\n"
      "}\n",
      3, 11, "%0 (bound at 2:31) uses %t (declared at 2:13)");
}

TEST(ScopesTest, BindingThatUsesOnlyOuterVariablesMayBeUsedAfterItsScope) {
  // What TVM's parser accepts (no free variable results), and what its printer writes when a
  // node first printed inside a branch or closure is used again after it.
  const std::string branch =
      "def @main(%x: float32, %c: bool) {\n"
      "  %1 = if (%c) {\n"
      "    %0 = add(%x, 1f);\n"
      "    multiply(%0, 2f)\n"
      "  } else {\n"
      "    %x\n"
      "  };\n"
      "  (%1, %0)\n"
      "}\n";
  ir::IRModule mod = ParseModule(branch);
  // It prints back the same (the text TVM's printer writes for this graph) and parses again.
  const std::string printed = PrettyPrint(mod);
  EXPECT_EQ(PrettyPrint(ParseModule(printed)), printed);
  EXPECT_NE(printed.find("  (%1, %0) /* ty="), std::string::npos) << printed;

  const std::string closure =
      "def @main(%x: float32) {\n"
      "  %1 = fn (%y: float32) {\n"
      "    %0 = add(%x, 1f);\n"
      "    multiply(%0, %y)\n"
      "  };\n"
      "  %2 = %1(%x);\n"
      "  add(%2, %0)\n"
      "}\n";
  EXPECT_NO_THROW(ParseModule(closure));
  // A closed binding in another function (TVM accepts it: nothing free).
  EXPECT_NO_THROW(
      ParseModule("def @f() {\n"
                  "  %0 = add(1f, 2f);\n"
                  "  %0\n"
                  "}\n"
                  "def @main(%x: float32) {\n"
                  "  add(%0, %x)\n"
                  "}\n"));
}

constexpr const char* kFactorial =
    "def @main(%n: int32) -> int32 {\n"
    "  let %fact = fn (%i: int32) -> int32 {\n"
    "    if (less(%i, 1)) {\n"
    "      1\n"
    "    } else {\n"
    "      multiply(%i, %fact(subtract(%i, 1)))\n"
    "    }\n"
    "  };\n"
    "  %fact(%n)\n"
    "}\n";

int32_t RunInt(const ir::IRModule& mod, int32_t n) {
  eval::Interpreter interpreter(mod);
  eval::Value v =
      interpreter.RunMain({eval::Value(ir::NDArray::Scalar<int32_t>(n, ir::DataType::Int(32)))});
  return *v.tensor().data<int32_t>();
}

TEST(ScopesTest, LetBoundRecursiveClosureParsesTypeChecksAndRuns) {
  // The factorial of Relay's language reference.
  ir::IRModule mod = ParseModule(kFactorial);
  const std::string printed = PrettyPrint(mod);
  EXPECT_NE(printed.find("let %fact: fn (int32) -> int32 /* ty=fn (int32) -> int32 */ = fn (%i: "
                         "int32 /* ty=int32 */) -> int32 {"),
            std::string::npos)
      << printed;
  EXPECT_EQ(RunInt(mod, 5), 120);
  EXPECT_EQ(RunInt(mod, 0), 1);
  EXPECT_EQ(RunInt(mod, 10), 3628800);
  // The printed module reads back to the same text and the same results.
  ir::IRModule again = ParseModule(printed);
  EXPECT_EQ(PrettyPrint(again), printed);
  EXPECT_EQ(RunInt(again, 6), 720);
}

TEST(ScopesTest, RecursiveClosureWithoutAnnotationsIsTypedRecursively) {
  // As TVM: the let variable gets a type variable before its value is checked.
  ir::IRModule mod = ParseModule(
      "def @main(%n: int32) {\n"
      "  let %sum = fn (%i) {\n"
      "    if (equal(%i, 0)) { 0 } else { add(%i, %sum(subtract(%i, 1))) }\n"
      "  };\n"
      "  %sum(%n)\n"
      "}\n");
  EXPECT_EQ(RunInt(mod, 100), 5050);
}

TEST(ScopesTest, EndlessRecursiveClosureStopsAtTheCallDepthLimit) {
  ir::IRModule mod = ParseModule(
      "def @main(%n: int32) -> int32 {\n"
      "  let %f = fn (%i: int32) -> int32 { %f(%i) };\n"
      "  %f(%n)\n"
      "}\n");
  EXPECT_THROW(RunInt(mod, 1), Error);  // the evaluator's call-depth limit, not a crash
}

TEST(ScopesTest, OnlyAFunctionMayReferToItself) {
  ExpectScopeError(
      "def @main(%x: float32) {\n"
      "  let %a = add(%a, %x);\n"
      "  %a\n"
      "}\n",
      2, 16, "%a is used in its own definition; only a function (let %a = fn ...)");
  // Even with an outer %a: the let's own %a is the one in scope (TVM's scoping).
  ExpectScopeError(
      "def @main(%a: float32) {\n"
      "  let %a = add(%a, 1f);\n"
      "  %a\n"
      "}\n",
      2, 16, "%a is used in its own definition");
}

}  // namespace
}  // namespace relaypass::text
