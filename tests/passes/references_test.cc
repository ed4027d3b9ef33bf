// References through the passes, the printer, the parser and the evaluator. What TVM does with
// them (v0.13 sources): DeadCodeElimination keeps bindings to ref_read / ref_write (impure in
// dead_code.cc's PurityVisitor) and drops an unused ref_create (pure); FoldConstant folds no
// reference operation; FuseOps makes reference operands external (no fusion across them);
// ToANormalForm binds each reference node to a fresh variable. The text is TVM's printer's
// (`ref(...)`, `ref_read(...)`, `ref_write(r, v)`, no type comment on them).
#include <gtest/gtest.h>

#include "../depth_scale.h"
#include "pass_test_util.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/ir/structural.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/passes/dead_code.h"
#include "relaypass/passes/fold_constant.h"
#include "relaypass/passes/fuse_ops.h"
#include "relaypass/passes/to_a_normal_form.h"
#include "relaypass/relay.h"
#include "relaypass/text/parser.h"
#include "relaypass/text/printer.h"

namespace relaypass::passes {
namespace {

using ir::Expr;
using ir::Var;
using testing::Typed;

ir::Type F32() {
  return ir::ScalarType(ir::DataType::Float32());
}

// fn (%x: float32) {
//   let %r = ref(%x); let %dead = ref(1f); let %u = ref_write(%r, add(1f, 2f)); ref_read(%r) }
ir::Function WriteThenRead() {
  Var x = relay::var("x", F32());
  Var r = relay::var("r"), dead = relay::var("dead"), u = relay::var("u");
  Expr body = ir::MakeLet(
      r, ir::MakeRefCreate(x),
      ir::MakeLet(
          dead, ir::MakeRefCreate(relay::const_(1.0f)),
          ir::MakeLet(u, ir::MakeRefWrite(r, relay::add(relay::const_(1.0f), relay::const_(2.0f))),
                      ir::MakeRefRead(r))));
  return ir::MakeFunction({x}, body);
}

float RunScalar(const ir::IRModule& mod, float x) {
  ir::NDArray in = ir::NDArray::Empty({}, ir::DataType::Float32());
  *static_cast<float*>(in.mutable_raw_data()) = x;
  std::vector<ir::NDArray> out = eval::RunMain(mod, {in});
  return *static_cast<const float*>(out.at(0).raw_data());
}

TEST(ReferencesTest, PrintsAndParsesBackAsTvm) {
  ir::IRModule mod = Typed(WriteThenRead());
  const std::string text = text::PrettyPrint(mod);
  // A ref_write's operands print with try_inline false (TVM's Print(op->value)): the call gets
  // a temp.
  EXPECT_EQ(text,
            "def @main(%x: float32 /* ty=float32 */) -> float32 {\n"
            "  let %r: ref(float32) /* ty=ref(float32) */ = ref(%x);\n"
            "  let %dead: ref(float32) /* ty=ref(float32) */ = ref(1f /* ty=float32 */);\n"
            "  %0 = add(1f /* ty=float32 */, 2f /* ty=float32 */) /* ty=float32 */;\n"
            "  let %u: () /* ty=() */ = ref_write(%r, %0);\n"
            "  ref_read(%r)\n"
            "}\n");
  EXPECT_EQ(text::PrettyPrint(text::ParseModule(text)), text);
}

TEST(ReferencesTest, SharedOperandsGetTempsInTvmOrder) {
  // TVM prints a ref_write's reference (binding its %N) before it visits the value.
  Var x = relay::var("x", F32());
  Expr cell = ir::MakeRefCreate(x);
  Expr sum = relay::add(x, x);
  Expr value = relay::add(sum, sum);
  Expr body = relay::tuple({ir::MakeRefWrite(cell, value), cell, value});
  EXPECT_EQ(text::PrettyPrint(body),
            "free_var %x: float32;\n"
            "%0 = ref(%x);\n"
            "%1 = add(%x, %x);\n"
            "%2 = add(%1, %1);\n"
            "%3 = ref_write(%0, %2);\n"
            "(%3, %0, %2)");
}

TEST(ReferencesTest, EvaluatesWriteThenRead) {
  EXPECT_EQ(RunScalar(Typed(WriteThenRead()), 10.0f), 3.0f);  // the write replaced 10
}

TEST(ReferencesTest, DeadCodeKeepsEffectsDropsUnusedCreate) {
  ir::IRModule out = DeadCodeElimination()(Typed(WriteThenRead()));
  const std::string text = text::PrettyPrint(out);
  EXPECT_NE(text.find("ref_write(%r"), std::string::npos);
  EXPECT_EQ(text.find("%dead"), std::string::npos);
  EXPECT_EQ(RunScalar(out, 10.0f), 3.0f);
}

TEST(ReferencesTest, DeadCodeKeepsACallOfARecursiveGlobalThatWrites) {
  // @loop writes the cell 3 times, recursing; main's call of it is used only for its effect.
  // The purity analysis once kept the recursion's placeholder "pure" for @loop and dropped the
  // call (the PartialEvaluate work found it): main gave 0 instead of 3 (hand-worked).
  const char* text = R"(#[version = "0.0.5"]
def @loop(%n: int32, %r: ref(int32)) -> () {
  if (equal(%n, 0)) {
    ()
  } else {
    let %w = ref_write(%r, add(ref_read(%r), 1));
    @loop(subtract(%n, 1), %r)
  }
}
def @main() -> int32 {
  let %r = ref(0);
  let %e = @loop(3, %r);
  ref_read(%r)
}
)";
  ir::IRModule out = DeadCodeElimination()(text::ParseModule(text));
  EXPECT_NE(text::PrettyPrint(out).find("@loop(3"), std::string::npos);
  std::vector<ir::NDArray> result = eval::RunMain(ir::InferTypes(out), {});
  ASSERT_EQ(result.size(), 1u);
  EXPECT_EQ(result[0].data<int32_t>()[0], 3);
}

TEST(ReferencesTest, FoldConstantFoldsAroundNotThroughReferences) {
  ir::IRModule out = FoldConstant()(Typed(WriteThenRead()));
  const std::string text = text::PrettyPrint(out);
  // add(1f, 2f) is a constant call and folds; the reference operations stay.
  EXPECT_NE(text.find("ref_write(%r, 3f /* ty=float32 */)"), std::string::npos);
  EXPECT_NE(text.find("ref_read(%r)"), std::string::npos);
  EXPECT_EQ(RunScalar(out, 10.0f), 3.0f);
}

TEST(ReferencesTest, FuseOpsAndANormalFormKeepTheMeaning) {
  ir::IRModule fused = ir::InferTypes(FuseOps()(Typed(WriteThenRead())));
  EXPECT_EQ(RunScalar(fused, 10.0f), 3.0f);
  ir::IRModule anf = ir::InferTypes(ToANormalForm()(Typed(WriteThenRead())));
  EXPECT_EQ(RunScalar(anf, 10.0f), 3.0f);
}

TEST(ReferencesTest, EachCallMakesItsOwnCell) {
  // let %f = fn () { ref(0f) }; let %a = %f(); let %b = %f(); ref_write(%a, %x); ref_read(%b)
  Var x = relay::var("x", F32());
  Var f = relay::var("f"), a = relay::var("a"), b = relay::var("b"), u = relay::var("u");
  Expr body = ir::MakeLet(
      f, ir::MakeFunction({}, ir::MakeRefCreate(relay::const_(0.0f))),
      ir::MakeLet(a, ir::MakeCall(f, {}),
                  ir::MakeLet(b, ir::MakeCall(f, {}),
                              ir::MakeLet(u, ir::MakeRefWrite(a, x), ir::MakeRefRead(b)))));
  EXPECT_EQ(RunScalar(Typed(ir::MakeFunction({x}, body)), 5.0f), 0.0f);
}

// x_{i+1} = ref_read(ref(x_i)), a million times: 2,000,000 reference nodes.
ir::Function DeepChain(int64_t n) {
  Var x = relay::var("x", F32());
  Expr e = x;
  for (int64_t i = 0; i < n; ++i) e = ir::MakeRefRead(ir::MakeRefCreate(e));
  return ir::MakeFunction({x}, e);
}

TEST(ReferencesTest, MillionDeepChainThroughThePasses) {
  const int64_t n = relaypass::testing::ScaledDepth(1000000);
  ir::IRModule mod = Typed(DeepChain(n));
  EXPECT_EQ(ir::CountNodes(mod.Lookup("main")), static_cast<size_t>(2 * n + 2));
  EXPECT_EQ(RunScalar(mod, 7.0f), 7.0f);
  const std::string text = text::PrettyPrint(mod);
  EXPECT_TRUE(ir::StructuralEqual(text::ParseModule(text), mod));
  EXPECT_EQ(RunScalar(DeadCodeElimination()(mod), 7.0f), 7.0f);
  EXPECT_EQ(RunScalar(FoldConstant()(mod), 7.0f), 7.0f);
  EXPECT_EQ(RunScalar(ir::InferTypes(FuseOps()(mod)), 7.0f), 7.0f);
  EXPECT_EQ(RunScalar(ir::InferTypes(ToANormalForm()(mod)), 7.0f), 7.0f);
}

}  // namespace
}  // namespace relaypass::passes
