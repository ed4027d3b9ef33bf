// ApplyPassToFunction: a pass restricted to the functions whose names match a regex.
#include <gtest/gtest.h>

#include "relaypass/ir/type.h"
#include "relaypass/support/error.h"
#include "relaypass/transform/apply_pass_to_function.h"
#include "test_util.h"

namespace relaypass::transform {
namespace {

using testing::Log;

ir::Function Identity() {
  ir::Var x = ir::MakeVar("x", ir::TensorType({1, 4}, ir::DataType::Float32()));
  return ir::MakeFunction({x}, x);
}

ir::IRModule ThreeFunctions() {
  ir::IRModule mod;
  mod.Add("main", Identity());
  mod.Add("layer1", Identity());
  mod.Add("layer2", Identity());
  return mod;
}

TEST(ApplyPassToFunctionTest, FunctionPassSeesOnlyMatchingFunctions) {
  Log log;
  Pass visit = CreateFunctionPass(
      [&](const ir::Function& f, const ir::IRModule& mod, const PassContext&) {
        for (const auto& [gv, func] : mod.functions()) {
          if (func.same_as(f)) log.push_back(gv->name_hint);
        }
        return f;
      },
      0, "Visit");
  Pass restricted = ApplyPassToFunction(visit, "layer.*");
  EXPECT_EQ(restricted.info().name, "ApplyPassTolayer.*");
  EXPECT_EQ(restricted.info().opt_level, 0);
  restricted(ThreeFunctions(), PassContext());
  EXPECT_EQ(log, Log({"layer1", "layer2"}));
}

TEST(ApplyPassToFunctionTest, NonMatchingFunctionsStayExactlyAsTheyWere) {
  ir::IRModule mod = ThreeFunctions();
  const ir::Function layer1 = mod.Lookup("layer1");
  ir::Function replacement = Identity();
  Pass clobber = CreateModulePass(
      [&](const ir::IRModule& m, const PassContext&) {
        ir::IRModule out = m;
        for (const auto& [gv, func] : m.functions()) out.Add(gv, replacement);
        out.Add("added", replacement);
        return out;
      },
      0, "Clobber");
  ir::IRModule out = ApplyPassToFunction(clobber, "layer1")(mod, PassContext());
  EXPECT_TRUE(out.Lookup("main").same_as(mod.Lookup("main")));
  EXPECT_TRUE(out.Lookup("layer2").same_as(mod.Lookup("layer2")));
  EXPECT_TRUE(out.Lookup("layer1").same_as(replacement));
  EXPECT_TRUE(out.Lookup("added").same_as(replacement));
  EXPECT_TRUE(mod.Lookup("layer1").same_as(layer1));  // the input module is untouched
  EXPECT_FALSE(mod.Contains("added"));
}

TEST(ApplyPassToFunctionTest, UnchangedResultReturnsTheInput) {
  ir::IRModule mod = ThreeFunctions();
  Pass nothing =
      CreateModulePass([](const ir::IRModule& m, const PassContext&) { return m; }, 0, "Nothing");
  EXPECT_TRUE(ApplyPassToFunction(nothing, ".*")(mod, PassContext()).same_as(mod));
}

TEST(ApplyPassToFunctionTest, TheInnerPassIsInstrumented) {
  Log log;
  auto a = std::make_shared<testing::RecordingInstrument>("A", &log);
  Pass inner = testing::LoggingPass("Inner", 0, &log);
  ApplyPassToFunction(inner, "main")(ThreeFunctions(), PassContext({.instruments = {a}}));
  EXPECT_EQ(log, Log({"A should_run ApplyPassTomain", "A run_before_pass ApplyPassTomain",
                      "A should_run Inner", "A run_before_pass Inner", "run Inner",
                      "A run_after_pass Inner", "A run_after_pass ApplyPassTomain"}));
}

TEST(ApplyPassToFunctionTest, BadRegexIsAPassError) {
  EXPECT_THROW(ApplyPassToFunction(testing::LoggingPass("P", 0, nullptr), "layer("), PassError);
}

}  // namespace
}  // namespace relaypass::transform
