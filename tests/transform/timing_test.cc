// PassTimingInstrument: TVM's render format, checked against a fake clock.
#include <gtest/gtest.h>

#include "relaypass/support/error.h"
#include "relaypass/transform/pass_context.h"
#include "relaypass/transform/sequential.h"
#include "relaypass/transform/timing.h"
#include "test_util.h"

namespace relaypass::transform {
namespace {

using std::chrono::nanoseconds;

class TimingTest : public ::testing::Test {
 protected:
  TimingTest()
      : timing_(std::make_shared<PassTimingInstrument>(
            [this] { return std::chrono::steady_clock::time_point(now_); })) {}

  // A module pass that spends `before_ns`, runs `children` nested, then spends `after_ns`.
  Pass Work(const std::string& name, int64_t before_ns, std::vector<Pass> children = {},
            int64_t after_ns = 0) {
    return CreateModulePass(
        [this, before_ns, children, after_ns](const ir::IRModule& mod, const PassContext& ctx) {
          now_ += nanoseconds(before_ns);
          ir::IRModule out = mod;
          for (const Pass& child : children) out = child(out, ctx);
          now_ += nanoseconds(after_ns);
          return out;
        },
        0, name);
  }
  static int64_t Us(int64_t us) { return us * 1000; }

  nanoseconds now_{0};
  std::shared_ptr<PassTimingInstrument> timing_;
};

TEST_F(TimingTest, RendersTheTutorialsProfileExactly) {
  Pass infer_type = Work("InferType", Us(7168));
  Pass fold_scale_axis =
      Work("FoldScaleAxis", Us(3), {Work("FoldConstant", Us(1701), {Work("InferType", Us(6534))})},
           Us(4));
  std::string profile;
  {
    PassContextScope scope(PassContext({.instruments = {timing_}}));
    ir::IRModule mod = infer_type(testing::TinyModule());
    mod = fold_scale_axis(mod);
    profile = timing_->render();
  }
  EXPECT_EQ(profile,
            "InferType: 7168us [7168us] (46.52%; 46.52%)\n"
            "FoldScaleAxis: 8242us [7us] (53.48%; 53.48%)\n"
            "\tFoldConstant: 8235us [1701us] (53.44%; 99.92%)\n"
            "\t\tInferType: 6534us [6534us] (42.40%; 79.34%)\n");
}

TEST_F(TimingTest, RoundsToWholeMicrosecondsAndComputesSelfFromExactTimes) {
  // Parent 2.6us with a 1.4us child: self is 1.2us -> "1", not 3 - 1 = 2.
  Pass pass = Work("Outer", 600, {Work("Inner", 1400)}, 600);
  std::string profile;
  {
    PassContextScope scope(PassContext({.instruments = {timing_}}));
    pass(testing::TinyModule());
    profile = timing_->render();
  }
  EXPECT_EQ(profile,
            "Outer: 3us [1us] (100.00%; 100.00%)\n"
            "\tInner: 1us [1us] (53.85%; 53.85%)\n");
}

TEST_F(TimingTest, SequentialAndRequiredPassesNest) {
  testing::EnsureTestPassesRegistered();
  Pass seq = Sequential({Work("A", Us(10)), Work("B", Us(30))}, "Pipeline");
  std::string profile;
  {
    PassContextScope scope(PassContext({.instruments = {timing_}}));
    seq(testing::TinyModule());
    profile = timing_->render();
  }
  EXPECT_EQ(profile,
            "Pipeline: 40us [0us] (100.00%; 100.00%)\n"
            "\tA: 10us [10us] (25.00%; 25.00%)\n"
            "\tB: 30us [30us] (75.00%; 75.00%)\n");
}

TEST_F(TimingTest, RecordsAreClearedWhenTheContextExits) {
  {
    PassContextScope scope(PassContext({.instruments = {timing_}}));
    Work("A", Us(5))(testing::TinyModule());
  }
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(timing_->render(), "");
  EXPECT_EQ(::testing::internal::GetCapturedStderr(),
            "Warning: no passes have been profiled, did you enable pass profiling?\n");
}

TEST_F(TimingTest, OverrideInstrumentsOnTheCurrentContext) {
  PassContext::Current().override_instruments({timing_});
  Work("A", Us(5))(testing::TinyModule());
  EXPECT_EQ(timing_->render(), "A: 5us [5us] (100.00%; 100.00%)\n");
  PassContext::Current().override_instruments({});  // exit_pass_ctx clears the profile
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(timing_->render(), "");
  ::testing::internal::GetCapturedStderr();
}

TEST_F(TimingTest, RenderWhileAPassRunsIsAnError) {
  bool threw = false;
  Pass probe = CreateModulePass(
      [&](const ir::IRModule& mod, const PassContext&) {
        try {
          timing_->render();
        } catch (const PassError&) {
          threw = true;
        }
        return mod;
      },
      0, "Probe");
  probe(testing::TinyModule(), PassContext({.instruments = {timing_}}));
  EXPECT_TRUE(threw);
}

TEST_F(TimingTest, AThrowingPassDoesNotCorruptTheTree) {
  Pass failing = CreateModulePass(
      [this](const ir::IRModule&, const PassContext&) -> ir::IRModule {
        now_ += nanoseconds(Us(2));
        throw testing::HookError("failed");
      },
      0, "Failing");
  Pass deep_failing = Work("Deep", Us(1), {failing});
  Pass outer = CreateModulePass(
      [&](const ir::IRModule& mod, const PassContext& ctx) {
        now_ += nanoseconds(Us(1));
        try {
          deep_failing(mod, ctx);
        } catch (const testing::HookError&) {
        }
        return Work("After", Us(4))(mod, ctx);
      },
      0, "Outer");
  std::string profile;
  {
    PassContextScope scope(PassContext({.instruments = {timing_}}));
    outer(testing::TinyModule());
    EXPECT_THROW(deep_failing(testing::TinyModule()), testing::HookError);
    Work("Last", Us(2))(testing::TinyModule());
    profile = timing_->render();
  }
  EXPECT_EQ(profile,
            "Outer: 8us [1us] (61.54%; 61.54%)\n"
            "\tDeep: 3us [1us] (23.08%; 37.50%)\n"
            "\t\tFailing: 2us [2us] (15.38%; 66.67%)\n"
            "\tAfter: 4us [4us] (30.77%; 50.00%)\n"
            "Deep: 3us [1us] (23.08%; 23.08%)\n"
            "\tFailing: 2us [2us] (15.38%; 66.67%)\n"
            "Last: 2us [2us] (15.38%; 15.38%)\n");
}

}  // namespace
}  // namespace relaypass::transform
