// FunctionPass (pass_infra.md "FunctionPass"): which functions it visits, and the trailing
// InferType that runs as a nested, instrumented pass. Also InferType and PrintIR themselves.
#include <gtest/gtest.h>

#include "relaypass/ir/type.h"
#include "relaypass/text/print_ir.h"
#include "relaypass/text/printer.h"
#include "relaypass/transform/infer_type.h"
#include "relaypass/transform/pass.h"
#include "relaypass/transform/sequential.h"
#include "test_util.h"

namespace relaypass::transform {
namespace {

using testing::Log;
using testing::RecordingInstrument;

ir::Function Identity(ir::DictAttrs attrs = {}) {
  ir::Var x = ir::MakeVar("x", ir::TensorType({1, 4}, ir::DataType::Float32()));
  return ir::MakeFunction({x}, x, nullptr, std::move(attrs));
}

Pass VisitLogger(Log* log, int opt_level = 1) {
  return CreateFunctionPass(
      [log](const ir::Function& f, const ir::IRModule& mod, const PassContext&) {
        for (const auto& [gv, func] : mod.functions()) {
          if (func.same_as(f)) log->push_back("visit " + gv->name_hint);
        }
        return f;
      },
      opt_level, "VisitLogger");
}

TEST(FunctionPassTest, SkipsCompilerExternAndSkipOptimizationFunctions) {
  ir::IRModule mod;
  mod.Add("main", Identity());
  mod.Add("f_compiler", Identity({{"Compiler", ir::AttrValue::Str("ccompiler")}}));
  mod.Add("f_extern", Identity({{"Extern", ir::AttrValue::Int(1)}}));
  mod.Add("f_extern_zero", Identity({{"Extern", ir::AttrValue::Int(0)}}));
  mod.Add("f_skip", Identity({{"SkipOptimization", ir::AttrValue::Int(1)}}));
  mod.Add("f_primitive", Identity({{"Primitive", ir::AttrValue::Int(1)}}));
  Log log;
  VisitLogger (&log)(mod, PassContext());
  EXPECT_EQ(log, Log({"visit f_extern_zero", "visit f_primitive", "visit main"}));
}

TEST(FunctionPassTest, TrailingInferTypeIsANestedInstrumentedPass) {
  Log log;
  auto a = std::make_shared<RecordingInstrument>("A", &log);
  Pass pass = VisitLogger(&log);
  EXPECT_EQ(pass.kind(), PassKind::kFunction);
  pass(testing::TinyModule(), PassContext({.instruments = {a}}));
  EXPECT_EQ(log, Log({"A should_run VisitLogger", "A run_before_pass VisitLogger", "visit main",
                      "A should_run InferType", "A run_before_pass InferType",
                      "A run_after_pass InferType", "A run_after_pass VisitLogger"}));
}

TEST(FunctionPassTest, TrailingInferTypeCanBeVetoedLikeAnyPass) {
  Log log;
  struct NoInferType : PassInstrument {
    bool should_run(const ir::IRModule&, const PassInfo& info) override {
      return info.name != "InferType";
    }
  };
  auto a = std::make_shared<RecordingInstrument>("A", &log);
  VisitLogger (&log)(testing::TinyModule(),
                     PassContext({.instruments = {std::make_shared<NoInferType>(), a}}));
  EXPECT_EQ(log, Log({"A should_run VisitLogger", "A run_before_pass VisitLogger", "visit main",
                      "A should_run InferType", "A run_after_pass VisitLogger"}));
}

TEST(FunctionPassTest, TwoInferTypesBetweenFunctionPassesInASequential) {
  // The tutorial's trace: ... EliminateCommonSubexpr, InferType (trailing), InferType
  // (required by FuseOps), FuseOps, InferType (trailing).
  Log log;
  auto a = std::make_shared<RecordingInstrument>("A", &log);
  auto ecs = CreateFunctionPass(
      [](const ir::Function& f, const ir::IRModule&, const PassContext&) { return f; }, 3,
      "EliminateCommonSubexpr", {"InferType"});
  auto fuse = CreateFunctionPass(
      [](const ir::Function& f, const ir::IRModule&, const PassContext&) { return f; }, 0,
      "FuseOps", {"InferType"});
  Sequential({ecs, fuse})(testing::TinyModule(), PassContext({.opt_level = 3, .instruments = {a}}));
  Log before;
  for (const std::string& entry : log) {
    if (entry.rfind("A run_before_pass ", 0) == 0) before.push_back(entry.substr(18));
  }
  EXPECT_EQ(before, Log({"sequential", "InferType", "EliminateCommonSubexpr", "InferType",
                         "InferType", "FuseOps", "InferType"}));
}

TEST(FunctionPassTest, TheFunctionSeesTheInputModuleAndResultsAreInstalled) {
  ir::IRModule mod;
  mod.Add("a", Identity());
  mod.Add("b", Identity());
  const ir::Function original_a = mod.Lookup("a");
  ir::Function replacement = Identity();
  Pass pass = CreateFunctionPass(
      [&](const ir::Function& f, const ir::IRModule& m, const PassContext&) {
        EXPECT_TRUE(m.Lookup("a").same_as(mod.Lookup("a")));  // not the partly updated module
        return f.same_as(mod.Lookup("a")) ? replacement : f;
      },
      0, "ReplaceA");
  ir::IRModule out = pass(mod, PassContext());
  EXPECT_EQ(out.size(), 2u);
  EXPECT_TRUE(mod.Lookup("a").same_as(original_a));  // the input is unchanged
  EXPECT_FALSE(out.Lookup("a").same_as(original_a));
}

TEST(FunctionPassTest, InferTypeFillsTheReturnType) {
  ir::IRModule out = InferType()(testing::TinyModule());
  ir::Function main = out.Lookup("main");
  ASSERT_TRUE(main->checked_type.defined());
  EXPECT_EQ(ir::TypeToString(main->checked_type),
            "fn (Tensor[(1, 4), float32]) -> Tensor[(1, 4), float32]");
}

TEST(FunctionPassTest, PrintIRPrintsToStderrAndReturnsTheModule) {
  ir::IRModule mod = InferType()(testing::TinyModule());
  ::testing::internal::CaptureStderr();
  ir::IRModule out = PrintIR()(mod);
  std::string printed = ::testing::internal::GetCapturedStderr();
  EXPECT_TRUE(out.same_as(mod));
  EXPECT_EQ(printed, text::PrettyPrint(mod));
  EXPECT_NE(printed.find("def @main"), std::string::npos);
}

}  // namespace
}  // namespace relaypass::transform
