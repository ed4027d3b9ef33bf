// Every registered pass on programs of Relay's functional half: ADTs with a polymorphic,
// recursive `map` and a recursive `sum` over a list, and references captured by a closure under
// an `if`. Each pass that can be made with its default options must either leave a module that
// keeps its type definitions, type-checks and computes the same values, or refuse with a
// relaypass::Error (never a crash, never a module that lost its ADTs or computes something
// else). The expected values are worked by hand in the comments.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "relaypass/eval/interpreter.h"
#include "relaypass/ir/module.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/support/error.h"
#include "relaypass/text/parser.h"
#include "relaypass/transform/pass_context.h"
#include "relaypass/transform/pipeline_text.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {
namespace {

// x = [1, -2]: map relu over [x, 2x] gives [[1, 0], [2, 0]], whose sum is [3, 0].
constexpr const char* kListProgram = R"(#[version = "0.0.5"]
type List[A] {
  Cons(A, List[A]),
  Nil,
}

def @sum(%xs: List[Tensor[(2), float32]]) -> Tensor[(2), float32] {
  match (%xs) {
    Cons(%h, %t) => add(%h, @sum(%t)),
    Nil => zeros(shape=[2], dtype="float32"),
  }
}

def @map[A, B](%f: fn (A) -> B, %xs: List[A]) -> List[B] {
  match (%xs) {
    Cons(%h, %t) => Cons(%f(%h), @map(%f, %t)),
    Nil => Nil,
  }
}

def @main(%x: Tensor[(2), float32]) -> Tensor[(2), float32] {
  %0 = Cons(%x, Cons(multiply(%x, 2f), Nil));
  %1 = @map(fn (%y: Tensor[(2), float32]) -> Tensor[(2), float32] { nn.relu(%y) }, %0);
  @sum(%1)
}
)";

// x = [1, -2], c = true: the cell becomes x + 1 = [2, -1], and f(x) = x * [2, -1] = [2, 2].
constexpr const char* kRefProgram = R"(#[version = "0.0.5"]
def @main(%x: Tensor[(2), float32], %c: bool) -> Tensor[(2), float32] {
  let %r = ref(%x);
  let %u = if (%c) {
    ref_write(%r, add(ref_read(%r), 1f))
  } else {
    ()
  };
  let %f = fn (%y: Tensor[(2), float32]) -> Tensor[(2), float32] {
    multiply(%y, ref_read(%r))
  };
  %f(%x)
}
)";

ir::NDArray Floats(std::vector<float> values) {
  return ir::NDArray::FromBytes({static_cast<int64_t>(values.size())}, ir::DataType::Float32(),
                                values.data());
}

std::vector<float> ValuesOf(const ir::NDArray& a) {
  const float* p = a.data<float>();
  return std::vector<float>(p, p + a.size());
}

struct Program {
  const char* name;
  const char* text;
  std::vector<ir::NDArray> inputs;
  std::vector<float> expected;
};

std::vector<Program> Programs() {
  bool yes = true;
  return {{"list", kListProgram, {Floats({1, -2})}, {3, 0}},
          {"refs",
           kRefProgram,
           {Floats({1, -2}), ir::NDArray::FromBytes({}, ir::DataType::Bool(), &yes)},
           {2, 2}}};
}

TEST(FunctionalProgramsTest, TheProgramsComputeTheHandWorkedValues) {
  for (const Program& p : Programs()) {
    SCOPED_TRACE(p.name);
    std::vector<ir::NDArray> out = eval::RunMain(text::ParseModule(p.text), p.inputs);
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(ValuesOf(out[0]), p.expected);
  }
}

// Passes that refuse such programs in TVM too, with the reason TVM gives.
bool RefusesAsTvmDoes(const std::string& pass, const std::string& message) {
  // TVM's ToMixedPrecision: "Algebraic Data Types (ADT) are not supported yet".
  if (pass == "ToMixedPrecision") {
    return message.find("not supported, as in TVM") != std::string::npos;
  }
  // LazyGradientInit is for the tensor functions the gradient makes: it turns every tensor into a
  // GradCell, and a tensor kept in a list no longer fits the list's type (TVM's pass rewrites the
  // same way, and its InferType fails the same way).
  return pass == "LazyGradientInit" && message.find("GradCell[") != std::string::npos;
}

// What `program` computes after `pass`: the program's value, except where TVM's pass is defined
// to change it. TVM's ToGraphNormalForm turns every let into sharing and drops a binding nothing
// uses, effects included (its documentation: for dataflow programs), so the unused
// `let %u = if (%c) { ref_write(...) } ...` goes and f(x) reads the cell's first value:
// x * x = [1, 4].
std::vector<float> ExpectedAfter(const std::string& pass, const Program& program) {
  if (pass == "ToGraphNormalForm" && std::string(program.name) == "refs") return {1, 4};
  return program.expected;
}

TEST(FunctionalProgramsTest, EveryPassKeepsTheAdtsTypesAndValues) {
  int applied = 0;
  for (const Program& p : Programs()) {
    const ir::IRModule mod = text::ParseModule(p.text);
    for (const std::string& name : transform::PassRegistry::Global().Names()) {
      SCOPED_TRACE(std::string(p.name) + " / " + name);
      std::optional<transform::Pass> pass;
      try {
        pass = transform::CreatePass(name);
      } catch (const PassError&) {
        continue;  // needs an option without a default (ConvertLayout's desired_layouts, ...)
      }
      ir::IRModule result;
      try {
        transform::PassContextScope scope(transform::PassContext({.opt_level = 3}));
        result = (*pass)(mod);
      } catch (const Error& e) {
        if (!RefusesAsTvmDoes(name, e.what())) {
          ADD_FAILURE() << name << " refused a valid program: " << e.what();
        }
        continue;
      }
      ++applied;
      EXPECT_EQ(result.type_definitions().size(), mod.type_definitions().size());
      ir::IRModule typed;
      ASSERT_NO_THROW(typed = ir::InferTypes(result));
      std::vector<ir::NDArray> out = eval::RunMain(typed, p.inputs);
      ASSERT_EQ(out.size(), 1u);
      EXPECT_EQ(ValuesOf(out[0]), ExpectedAfter(name, p));
    }
  }
  EXPECT_GT(applied, 60);
}

}  // namespace
}  // namespace relaypass::passes
