// The passes as passes: levels, requirements, the FoldScaleAxis Sequential under a timing
// instrument, registration, and that inputs are never changed.
#include <gtest/gtest.h>

#include "relaypass/ir/structural.h"
#include "relaypass/passes/fold_scale_axis.h"
#include "relaypass/support/error.h"
#include "relaypass/transform/infer_type.h"
#include "relaypass/transform/pass_context.h"
#include "relaypass/transform/sequential.h"
#include "relaypass/transform/timing.h"
#include "test_util.h"

namespace relaypass::passes {
namespace {

using namespace relay;    // NOLINT: reads like the tutorials
using namespace testing;  // NOLINT

// conv -> multiply (backward) and multiply -> relu -> conv (forward), with constant weights.
IRModule BothDirections() {
  Var x = var("x", {1, 4, 8, 8});
  Expr y = nn::relu(multiply(x, Ramp({4, 1, 1}, 0.5f, 0.25f)));
  Expr conv1 = nn::conv2d(y, Ramp({8, 4, 3, 3}, -1.0f, 0.01f), {.padding = {1, 1}});
  Expr conv2 = nn::conv2d(conv1, Ramp({8, 8, 1, 1}, -0.5f, 0.02f));
  return Typed(function({x}, multiply(conv2, Ramp({8, 1, 1}, 1.0f, 0.5f))));
}

// The names of a timing profile, one tab of indentation per nesting level.
std::string ProfileShape(const std::string& rendered) {
  std::string shape;
  size_t at = 0;
  while (at < rendered.size()) {
    size_t end = rendered.find('\n', at);
    std::string line = rendered.substr(at, end - at);
    shape += line.substr(0, line.find(':')) + "\n";
    at = end + 1;
  }
  return shape;
}

std::string TimedShape(const IRModule& mod, int opt_level, IRModule* out) {
  auto timing = std::make_shared<transform::PassTimingInstrument>();
  transform::PassContextScope scope(
      transform::PassContext({.opt_level = opt_level, .instruments = {timing}}));
  *out = FoldScaleAxis()(mod);
  return ProfileShape(timing->render());
}

TEST(FoldScaleAxisPassTest, InfoOfTheThreePasses) {
  transform::Pass fold = FoldScaleAxis();
  EXPECT_EQ(fold.info().name, "FoldScaleAxis");
  EXPECT_EQ(fold.info().opt_level, 0);
  const std::vector<transform::Pass>* members = transform::SequentialPasses(fold);
  ASSERT_TRUE(members);
  ASSERT_EQ(members->size(), 3u);
  EXPECT_EQ((*members)[0].info().name, "BackwardFoldScaleAxis");
  EXPECT_EQ((*members)[1].info().name, "ForwardFoldScaleAxis");
  EXPECT_EQ((*members)[2].info().name, "FoldConstant");
  for (const transform::Pass& pass : {BackwardFoldScaleAxis(), ForwardFoldScaleAxis()}) {
    EXPECT_EQ(pass.kind(), transform::PassKind::kFunction);
    EXPECT_EQ(pass.info().opt_level, 3);
    EXPECT_EQ(pass.info().required, std::vector<std::string>{"InferType"});
  }
}

TEST(FoldScaleAxisPassTest, AtDefaultOptLevelOnlyFoldConstantRuns) {
  IRModule mod = BothDirections();
  IRModule out;
  // As the tutorial's profile: FoldConstant with the InferType every function pass ends with.
  EXPECT_EQ(TimedShape(mod, 2, &out),
            "FoldScaleAxis\n"
            "\tFoldConstant\n"
            "\t\tInferType\n");
  EXPECT_EQ(CountOp(out, "multiply"), 2u) << "nothing folded";
}

TEST(FoldScaleAxisPassTest, AtOptLevel3AllThreeRunWithTheirInferType) {
  IRModule mod = BothDirections();
  IRModule out;
  EXPECT_EQ(TimedShape(mod, 3, &out),
            "FoldScaleAxis\n"
            "\tInferType\n"
            "\tBackwardFoldScaleAxis\n"
            "\t\tInferType\n"
            "\tInferType\n"
            "\tForwardFoldScaleAxis\n"
            "\t\tInferType\n"
            "\tFoldConstant\n"
            "\t\tInferType\n");
  // Both scales are now inside the folded weights.
  EXPECT_EQ(CountOp(out, "multiply"), 0u) << PrintWithoutTypes(out);
  EXPECT_EQ(CountOp(out, "nn.conv2d"), 2u);
  ExpectSameResults(mod, out);
}

TEST(FoldScaleAxisPassTest, InputModuleIsNeverChanged) {
  IRModule mod = BothDirections();
  size_t hash = ir::StructuralHash(mod);
  ir::Function main = mod.Lookup("main");
  IRModule out = RunAtLevel(FoldScaleAxis(), mod, 3);
  EXPECT_NE(ir::StructuralHash(out), hash);
  EXPECT_EQ(ir::StructuralHash(mod), hash);
  EXPECT_TRUE(mod.Lookup("main").same_as(main));
  // Functions that offer nothing to fold come back as they were.
  IRModule plain = Typed(function({var("a", {2, 2})}, relay::exp(var("a", {2, 2}))));
  EXPECT_TRUE(BackwardFoldScaleAxisFunction(plain.Lookup("main")).same_as(plain.Lookup("main")));
  EXPECT_TRUE(ForwardFoldScaleAxisFunction(plain.Lookup("main")).same_as(plain.Lookup("main")));
}

TEST(FoldScaleAxisPassTest, UntypedInputIsAPassError) {
  Var x = var("x", {1, 4, 8, 8});
  Var w = var("w", {8, 4, 3, 3});
  Var s = var("s", {8, 1, 1});
  IRModule untyped = IRModule::FromExpr(function({x, w, s}, multiply(nn::conv2d(x, w), s)));
  EXPECT_THROW(BackwardFoldScaleAxis()(untyped), PassError);
  // Run as a member of a Sequential at opt_level 3, InferType runs first.
  IRModule folded = RunAtLevel(transform::Sequential({BackwardFoldScaleAxis()}), untyped, 3);
  EXPECT_EQ(CountOp(folded, "multiply"), 1u) << "only the weight is multiplied";
}

TEST(FoldScaleAxisPassTest, Registration) {
  transform::PassRegistry registry;
  registry.Register(
      {"InferType", {}, [](const transform::PassOptions&) { return transform::InferType(); }});
  RegisterFoldScaleAxis(registry);
  for (const char* name : {"FoldScaleAxis", "BackwardFoldScaleAxis", "ForwardFoldScaleAxis"}) {
    EXPECT_EQ(registry.Create(name).info().name, name);
  }
  EXPECT_EQ(transform::LintPassRegistry(registry), std::vector<std::string>{});
}

}  // namespace
}  // namespace relaypass::passes
