// Instrument failures (pass_infra.md "Instrument failures"): each case with the exact sequence
// of hook calls, and the balanced run_after_pass_status of our extension.
#include <gtest/gtest.h>

#include "relaypass/transform/pass_context.h"
#include "test_util.h"

namespace relaypass::transform {
namespace {

using testing::HookError;
using testing::Log;
using testing::LoggingPass;
using testing::RecordingInstrument;

class InstrumentFailureTest : public ::testing::Test {
 protected:
  // Instruments Fine_0, <bad>, Fine_1 where <bad> throws in `hook`.
  PassInstruments ThreeWithBadOne(const std::string& bad_name, const std::string& hook) {
    auto bad = std::make_shared<RecordingInstrument>(bad_name, &log_);
    bad->ThrowIn(hook);
    return {std::make_shared<RecordingInstrument>("Fine_0", &log_), bad,
            std::make_shared<RecordingInstrument>("Fine_1", &log_)};
  }
  // Runs `fn` and returns the message of the HookError it throws ("" if none).
  std::string Catch(const std::function<void()>& fn) {
    try {
      fn();
    } catch (const HookError& e) {
      return e.what();
    }
    return "";
  }
  Pass P() { return LoggingPass("P", 0, &log_); }
  Log log_;
};

TEST_F(InstrumentFailureTest, EnterFailureExitsTheEnteredAndClearsTheInstruments) {
  PassContext ctx({.instruments = ThreeWithBadOne("BadEnter", "enter_pass_ctx")});
  PassContext before = PassContext::Current();
  EXPECT_EQ(Catch([&] {
              PassContextScope scope(ctx);
              P()(testing::TinyModule());
            }),
            "BadEnter enter_pass_ctx");
  EXPECT_EQ(log_,
            Log({"Fine_0 enter_pass_ctx", "BadEnter enter_pass_ctx", "Fine_0 exit_pass_ctx"}));
  EXPECT_TRUE(ctx.instruments().empty());
  EXPECT_TRUE(PassContext::Current().same_as(before));  // never entered
  log_.clear();
  ctx.override_instruments({});  // nothing left to exit
  EXPECT_TRUE(log_.empty());
}

TEST_F(InstrumentFailureTest, ExitFailureSkipsLaterExitsAndClearsTheInstruments) {
  PassContext ctx({.instruments = ThreeWithBadOne("BadExit", "exit_pass_ctx")});
  EXPECT_EQ(Catch([&] {
              PassContextScope scope(ctx);
              P()(testing::TinyModule());
            }),
            "BadExit exit_pass_ctx");
  EXPECT_EQ(log_, Log({"Fine_0 enter_pass_ctx", "BadExit enter_pass_ctx", "Fine_1 enter_pass_ctx",
                       "Fine_0 should_run P", "BadExit should_run P", "Fine_1 should_run P",
                       "Fine_0 run_before_pass P", "BadExit run_before_pass P",
                       "Fine_1 run_before_pass P", "run P", "Fine_0 run_after_pass P",
                       "BadExit run_after_pass P", "Fine_1 run_after_pass P",
                       "Fine_0 exit_pass_ctx", "BadExit exit_pass_ctx"}));
  EXPECT_TRUE(ctx.instruments().empty());
  EXPECT_FALSE(PassContext::Current().same_as(ctx));  // popped before the exit hooks
}

TEST_F(InstrumentFailureTest, RunBeforeFailureInAScopeExitsEveryInstrument) {
  PassContext ctx({.instruments = ThreeWithBadOne("BadRunBefore", "run_before_pass")});
  EXPECT_EQ(Catch([&] {
              PassContextScope scope(ctx);
              P()(testing::TinyModule());
            }),
            "BadRunBefore run_before_pass");
  EXPECT_EQ(log_,
            Log({"Fine_0 enter_pass_ctx", "BadRunBefore enter_pass_ctx", "Fine_1 enter_pass_ctx",
                 "Fine_0 should_run P", "BadRunBefore should_run P", "Fine_1 should_run P",
                 "Fine_0 run_before_pass P", "BadRunBefore run_before_pass P",
                 "Fine_0 exit_pass_ctx", "BadRunBefore exit_pass_ctx", "Fine_1 exit_pass_ctx"}));
  // Instrumentation stays on: override_instruments exits them again.
  log_.clear();
  ctx.override_instruments({});
  EXPECT_EQ(log_,
            Log({"Fine_0 exit_pass_ctx", "BadRunBefore exit_pass_ctx", "Fine_1 exit_pass_ctx"}));
}

TEST_F(InstrumentFailureTest, RunBeforeFailureWithoutAScopeExitsNothing) {
  PassContext current = PassContext::Current();
  current.override_instruments(ThreeWithBadOne("BadRunBefore", "run_before_pass"));
  EXPECT_EQ(Catch([&] { P()(testing::TinyModule()); }), "BadRunBefore run_before_pass");
  current.override_instruments({});
  EXPECT_EQ(log_,
            Log({"Fine_0 enter_pass_ctx", "BadRunBefore enter_pass_ctx", "Fine_1 enter_pass_ctx",
                 "Fine_0 should_run P", "BadRunBefore should_run P", "Fine_1 should_run P",
                 "Fine_0 run_before_pass P", "BadRunBefore run_before_pass P",
                 "Fine_0 exit_pass_ctx", "BadRunBefore exit_pass_ctx", "Fine_1 exit_pass_ctx"}));
}

TEST_F(InstrumentFailureTest, ShouldRunFailurePropagatesAtOnce) {
  PassContext ctx({.instruments = ThreeWithBadOne("BadShouldRun", "should_run")});
  EXPECT_EQ(Catch([&] { P()(testing::TinyModule(), ctx); }), "BadShouldRun should_run");
  EXPECT_EQ(log_, Log({"Fine_0 should_run P", "BadShouldRun should_run P"}));
}

TEST_F(InstrumentFailureTest, RunAfterFailurePropagatesAtOnce) {
  PassContext ctx({.instruments = ThreeWithBadOne("BadRunAfter", "run_after_pass")});
  EXPECT_EQ(Catch([&] { P()(testing::TinyModule(), ctx); }), "BadRunAfter run_after_pass");
  EXPECT_EQ(log_, Log({"Fine_0 should_run P", "BadRunAfter should_run P", "Fine_1 should_run P",
                       "Fine_0 run_before_pass P", "BadRunAfter run_before_pass P",
                       "Fine_1 run_before_pass P", "run P", "Fine_0 run_after_pass P",
                       "BadRunAfter run_after_pass P"}));
}

TEST_F(InstrumentFailureTest, PassFailurePropagatesWithoutAfterHooks) {
  auto a = std::make_shared<RecordingInstrument>("A", &log_);
  Pass failing =
      CreateModulePass([](const ir::IRModule&,
                          const PassContext&) -> ir::IRModule { throw HookError("pass failed"); },
                       0, "Failing");
  PassContext ctx({.instruments = {a}});
  EXPECT_EQ(Catch([&] {
              PassContextScope scope(ctx);
              failing(testing::TinyModule());
            }),
            "pass failed");
  EXPECT_EQ(log_, Log({"A enter_pass_ctx", "A should_run Failing", "A run_before_pass Failing",
                       "A exit_pass_ctx"}));
}

TEST_F(InstrumentFailureTest, ScopeKeepsTheFirstErrorWhenAnExitHookThrowsDuringUnwinding) {
  PassContext ctx({.instruments = ThreeWithBadOne("BadExit", "exit_pass_ctx")});
  Pass failing =
      CreateModulePass([](const ir::IRModule&,
                          const PassContext&) -> ir::IRModule { throw HookError("pass failed"); },
                       0, "Failing");
  // Must not call std::terminate; the pass's error is the one that arrives.
  EXPECT_EQ(Catch([&] {
              PassContextScope scope(ctx);
              failing(testing::TinyModule());
            }),
            "pass failed");
  EXPECT_EQ(log_.back(), "BadExit exit_pass_ctx");  // Fine_1 is not exited
  EXPECT_TRUE(ctx.instruments().empty());
  ASSERT_EQ(ctx.suppressed_errors().size(), 1u);
  EXPECT_EQ(Catch([&] { std::rethrow_exception(ctx.suppressed_errors()[0]); }),
            "BadExit exit_pass_ctx");
  EXPECT_FALSE(PassContext::Current().same_as(ctx));
}

TEST_F(InstrumentFailureTest, EnterFailureKeepsItsErrorWhenAnExitOfTheEnteredThrows) {
  auto bad_exit = std::make_shared<RecordingInstrument>("BadExit", &log_);
  bad_exit->ThrowIn("exit_pass_ctx");
  auto bad_enter = std::make_shared<RecordingInstrument>("BadEnter", &log_);
  bad_enter->ThrowIn("enter_pass_ctx");
  PassContext ctx({.instruments = {bad_exit, bad_enter}});
  EXPECT_EQ(Catch([&] { PassContextScope scope(ctx); }), "BadEnter enter_pass_ctx");
  EXPECT_EQ(ctx.suppressed_errors().size(), 1u);
}

TEST_F(InstrumentFailureTest, StatusIsBalancedWhenThePassThrows) {
  auto a = std::make_shared<RecordingInstrument>("A", &log_);
  auto b = std::make_shared<RecordingInstrument>("B", &log_);
  a->RecordStatus();
  b->RecordStatus();
  Pass failing =
      CreateModulePass([](const ir::IRModule&,
                          const PassContext&) -> ir::IRModule { throw HookError("pass failed"); },
                       0, "Failing");
  EXPECT_EQ(Catch([&] {
              failing(testing::TinyModule(), PassContext({.instruments = {a, b}}));
            }),
            "pass failed");
  EXPECT_EQ(log_, Log({"A should_run Failing", "B should_run Failing", "A run_before_pass Failing",
                       "B run_before_pass Failing", "A status Failing failed",
                       "B status Failing failed"}));
}

TEST_F(InstrumentFailureTest, StatusGoesOnlyToInstrumentsWhoseRunBeforeReturned) {
  PassInstruments list = ThreeWithBadOne("Bad", "run_before_pass");
  for (auto& i : list) static_cast<RecordingInstrument&>(*i).RecordStatus();
  EXPECT_EQ(Catch([&] {
              P()
              (testing::TinyModule(), PassContext({.instruments = list}));
            }),
            "Bad run_before_pass");
  EXPECT_EQ(log_,
            Log({"Fine_0 should_run P", "Bad should_run P", "Fine_1 should_run P",
                 "Fine_0 run_before_pass P", "Bad run_before_pass P", "Fine_0 status P failed"}));
}

TEST_F(InstrumentFailureTest, StatusAfterARunAfterFailure) {
  PassInstruments list = ThreeWithBadOne("Bad", "run_after_pass");
  for (auto& i : list) static_cast<RecordingInstrument&>(*i).RecordStatus();
  EXPECT_EQ(Catch([&] {
              P()
              (testing::TinyModule(), PassContext({.instruments = list}));
            }),
            "Bad run_after_pass");
  Log tail(log_.end() - 5, log_.end());
  EXPECT_EQ(tail, Log({"Fine_0 run_after_pass P", "Fine_0 status P ok", "Bad run_after_pass P",
                       "Bad status P failed", "Fine_1 status P failed"}));
}

TEST_F(InstrumentFailureTest, NestedFailureUnwindsEveryLevelInnermostFirst) {
  auto a = std::make_shared<RecordingInstrument>("A", &log_);
  a->RecordStatus();
  Pass inner =
      CreateModulePass([](const ir::IRModule&,
                          const PassContext&) -> ir::IRModule { throw HookError("inner failed"); },
                       0, "Inner");
  Pass outer = CreateModulePass(
      [&](const ir::IRModule& mod, const PassContext& ctx) { return inner(mod, ctx); }, 0, "Outer");
  EXPECT_EQ(Catch([&] { outer(testing::TinyModule(), PassContext({.instruments = {a}})); }),
            "inner failed");
  EXPECT_EQ(log_,
            Log({"A should_run Outer", "A run_before_pass Outer", "A should_run Inner",
                 "A run_before_pass Inner", "A status Inner failed", "A status Outer failed"}));
}

}  // namespace
}  // namespace relaypass::transform
