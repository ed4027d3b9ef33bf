// Sequential (pass_infra.md "Sequential"): gating, required passes, disabled passes, nesting.
#include <gtest/gtest.h>

#include <algorithm>

#include "relaypass/support/error.h"
#include "relaypass/transform/pass_context.h"
#include "relaypass/transform/sequential.h"
#include "test_util.h"

namespace relaypass::transform {
namespace {

using testing::Log;
using testing::LoggingPass;
using testing::RecordingInstrument;

class SequentialTest : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::EnsureTestPassesRegistered();
    testing::RegisteredPassLog().clear();
  }
  // Runs `seq` under a context with one recording instrument "I"; returns everything logged
  // (hooks, passes run, and passes run from the registry).
  Log Run(const Pass& seq, PassContextOptions options) {
    Log& log = testing::RegisteredPassLog();
    options.instruments.push_back(std::make_shared<RecordingInstrument>("I", &log));
    seq(testing::TinyModule(), PassContext(std::move(options)));
    return log;
  }
  Log& log() { return testing::RegisteredPassLog(); }
};

TEST_F(SequentialTest, DefaultsToNameSequentialAndOptLevelZero) {
  Pass seq = Sequential({});
  EXPECT_EQ(seq.info().name, "sequential");
  EXPECT_EQ(seq.info().opt_level, 0);
  EXPECT_TRUE(seq.info().required.empty());
  EXPECT_EQ(seq.kind(), PassKind::kSequential);
  EXPECT_EQ(SequentialPasses(seq)->size(), 0u);
  EXPECT_EQ(SequentialPasses(LoggingPass("P", 0, &log())), nullptr);
}

TEST_F(SequentialTest, RunsMembersAtOrBelowTheContextOptLevel) {
  Pass seq = Sequential(
      {LoggingPass("L1", 1, &log()), LoggingPass("L3", 3, &log()), LoggingPass("L2", 2, &log())});
  EXPECT_EQ(Run(seq, {}),  // opt_level 2 by default
            Log({"I should_run sequential", "I run_before_pass sequential", "I should_run L1",
                 "I run_before_pass L1", "run L1", "I run_after_pass L1", "I should_run L2",
                 "I run_before_pass L2", "run L2", "I run_after_pass L2",
                 "I run_after_pass sequential"}));
  log().clear();
  Log at3 = Run(seq, {.opt_level = 3});
  EXPECT_EQ(std::count(at3.begin(), at3.end(), "run L3"), 1);
  EXPECT_EQ(at3.size(), 15u);
}

TEST_F(SequentialTest, RequiredPassRunsWhateverItsLevelAndSkipsShouldRun) {
  Pass seq = Sequential({LoggingPass("L3", 3, &log())});
  EXPECT_EQ(Run(seq, {.opt_level = 0, .required_pass = {"L3"}}),
            Log({"I should_run sequential", "I run_before_pass sequential", "I run_before_pass L3",
                 "run L3", "I run_after_pass L3", "I run_after_pass sequential"}));
}

TEST_F(SequentialTest, DisabledBeatsRequired) {
  Pass seq = Sequential({LoggingPass("A", 0, &log()), LoggingPass("B", 0, &log())});
  EXPECT_EQ(
      Run(seq, {.required_pass = {"A"}, .disabled_pass = {"A"}}),
      Log({"I should_run sequential", "I run_before_pass sequential", "I should_run B",
           "I run_before_pass B", "run B", "I run_after_pass B", "I run_after_pass sequential"}));
}

TEST_F(SequentialTest, RequiredPassesComeFromTheRegistryBeforeEveryRun) {
  // As EliminateCommonSubexpr and FuseOps each require InferType: not de-duplicated.
  Pass seq = Sequential({LoggingPass("X", 0, &log(), {"TestRequired", "TestRequiredOther"}),
                         LoggingPass("Y", 0, &log(), {"TestRequired"})});
  EXPECT_EQ(Run(seq, {}), Log({"I should_run sequential",
                               "I run_before_pass sequential",
                               "I should_run TestRequired",
                               "I run_before_pass TestRequired",
                               "run TestRequired",
                               "I run_after_pass TestRequired",
                               "I should_run TestRequiredOther",
                               "I run_before_pass TestRequiredOther",
                               "run TestRequiredOther",
                               "I run_after_pass TestRequiredOther",
                               "I should_run X",
                               "I run_before_pass X",
                               "run X",
                               "I run_after_pass X",
                               "I should_run TestRequired",
                               "I run_before_pass TestRequired",
                               "run TestRequired",
                               "I run_after_pass TestRequired",
                               "I should_run Y",
                               "I run_before_pass Y",
                               "run Y",
                               "I run_after_pass Y",
                               "I run_after_pass sequential"}));
}

TEST_F(SequentialTest, RequiredPassesOfASkippedMemberDoNotRun) {
  Pass seq = Sequential({LoggingPass("X", 3, &log(), {"TestRequired"}),
                         LoggingPass("Y", 0, &log(), {"TestRequired"})});
  Log out = Run(seq, {.disabled_pass = {"Y"}});
  EXPECT_EQ(std::count(out.begin(), out.end(), "run TestRequired"), 0);
}

TEST_F(SequentialTest, RequiredPassIsGatedOnlyByInstruments) {
  // A required pass is run directly: its own opt_level and disabled_pass do not apply to it.
  Pass seq = Sequential({LoggingPass("X", 0, &log(), {"TestRequired"})});
  Log out = Run(seq, {.opt_level = 0, .disabled_pass = {"TestRequired"}});
  EXPECT_EQ(std::count(out.begin(), out.end(), "run TestRequired"), 1);
}

TEST_F(SequentialTest, UnregisteredRequiredPassIsAPassError) {
  Pass seq = Sequential({LoggingPass("X", 0, &log(), {"NoSuchPass"})});
  try {
    seq(testing::TinyModule(), PassContext());
    FAIL() << "expected PassError";
  } catch (const PassError& e) {
    EXPECT_NE(std::string(e.what()).find("\"X\" requires \"NoSuchPass\""), std::string::npos);
  }
}

TEST_F(SequentialTest, NestedSequentialIsGatedByItsOwnLevelAndRequired) {
  Pass inner = Sequential({LoggingPass("A", 0, &log())}, "Inner", 3, {"TestRequired"});
  Pass outer = Sequential({inner, LoggingPass("B", 0, &log())});
  Log at2 = Run(outer, {});
  EXPECT_EQ(at2, Log({"I should_run sequential", "I run_before_pass sequential", "I should_run B",
                      "I run_before_pass B", "run B", "I run_after_pass B",
                      "I run_after_pass sequential"}));
  log().clear();
  EXPECT_EQ(
      Run(outer, {.opt_level = 3}),
      Log({"I should_run sequential", "I run_before_pass sequential", "I should_run TestRequired",
           "I run_before_pass TestRequired", "run TestRequired", "I run_after_pass TestRequired",
           "I should_run Inner", "I run_before_pass Inner", "I should_run A", "I run_before_pass A",
           "run A", "I run_after_pass A", "I run_after_pass Inner", "I should_run B",
           "I run_before_pass B", "run B", "I run_after_pass B", "I run_after_pass sequential"}));
  log().clear();
  // Called directly, a Sequential's own level and required list do not matter.
  Log direct = Run(inner, {.opt_level = 0});
  EXPECT_EQ(std::count(direct.begin(), direct.end(), "run A"), 1);
  EXPECT_EQ(std::count(direct.begin(), direct.end(), "run TestRequired"), 0);
}

TEST_F(SequentialTest, FoldScaleAxisShapeRunsOnlyFoldConstantAtLevelTwo) {
  // relay_semantics.md 3.0: FoldScaleAxis() at the default opt_level runs only FoldConstant.
  Pass fold_scale_axis =
      Sequential({LoggingPass("BackwardFoldScaleAxis", 3, &log(), {"TestRequired"}),
                  LoggingPass("ForwardFoldScaleAxis", 3, &log(), {"TestRequired"}),
                  LoggingPass("FoldConstant", 2, &log())},
                 "FoldScaleAxis");
  fold_scale_axis(testing::TinyModule(), PassContext());
  EXPECT_EQ(log(), Log({"run FoldConstant"}));
}

TEST_F(SequentialTest, StatusHookNamesWhySequentialSkippedAMember) {
  auto status = std::make_shared<RecordingInstrument>("S", &log());
  status->RecordStatus();
  Pass seq = Sequential({LoggingPass("D", 0, &log()), LoggingPass("L3", 3, &log())});
  seq(testing::TinyModule(), PassContext({.disabled_pass = {"D"}, .instruments = {status}}));
  EXPECT_EQ(log(), Log({"S should_run sequential", "S run_before_pass sequential",
                        "S status D skipped (disabled)", "S status L3 skipped (opt_level)",
                        "S run_after_pass sequential", "S status sequential ok"}));
}

TEST_F(SequentialTest, UndefinedMemberIsRejected) {
  EXPECT_THROW(Sequential({Pass()}), InternalError);
}

}  // namespace
}  // namespace relaypass::transform
