// Running a pass (pass_infra.md "Running a pass"): should_run, before/after hooks, direct calls.
#include <gtest/gtest.h>

#include "relaypass/support/error.h"
#include "relaypass/transform/pass.h"
#include "relaypass/transform/pass_context.h"
#include "relaypass/transform/sequential.h"
#include "test_util.h"

namespace relaypass::transform {
namespace {

using testing::Log;
using testing::LoggingPass;
using testing::RecordingInstrument;

PassContext ContextWith(Log* log, std::vector<std::shared_ptr<RecordingInstrument>> list,
                        PassContextOptions options = {}) {
  for (auto& instrument : list) options.instruments.push_back(instrument);
  return PassContext(std::move(options));
}

TEST(PassRunTest, HooksRunInInstrumentOrderAroundThePass) {
  Log log;
  auto a = std::make_shared<RecordingInstrument>("A", &log);
  auto b = std::make_shared<RecordingInstrument>("B", &log);
  PassContext ctx = ContextWith(&log, {a, b});
  LoggingPass("P", 0, &log)(testing::TinyModule(), ctx);
  EXPECT_EQ(log, Log({"A should_run P", "B should_run P", "A run_before_pass P",
                      "B run_before_pass P", "run P", "A run_after_pass P", "B run_after_pass P"}));
}

TEST(PassRunTest, ShouldRunIsAskedOfEveryInstrumentAndAnded) {
  for (int vetoer = 0; vetoer < 3; ++vetoer) {
    Log log;
    std::vector<std::shared_ptr<RecordingInstrument>> list;
    for (const char* name : {"A", "B", "C"}) {
      list.push_back(std::make_shared<RecordingInstrument>(name, &log));
    }
    list[vetoer]->Veto();
    ir::IRModule mod = testing::TinyModule();
    ir::IRModule out = LoggingPass("P", 0, &log)(mod, ContextWith(&log, list));
    // No short-circuit; the pass does not run and no before/after hook fires.
    EXPECT_EQ(log, Log({"A should_run P", "B should_run P", "C should_run P"})) << vetoer;
    EXPECT_TRUE(out.same_as(mod));
  }
}

TEST(PassRunTest, RequiredPassIsNotAskedShouldRun) {
  Log log;
  auto a = std::make_shared<RecordingInstrument>("A", &log);
  a->Veto();
  PassContext ctx = ContextWith(&log, {a}, {.required_pass = {"P"}});
  LoggingPass("P", 0, &log)(testing::TinyModule(), ctx);
  EXPECT_EQ(log, Log({"A run_before_pass P", "run P", "A run_after_pass P"}));
}

TEST(PassRunTest, DirectCallIgnoresOptLevelDisabledAndRequired) {
  Log log;
  testing::EnsureTestPassesRegistered();
  testing::RegisteredPassLog().clear();
  PassContext ctx({.opt_level = 0, .disabled_pass = {"P"}});
  LoggingPass("P", 3, &log, {"TestRequired"})(testing::TinyModule(), ctx);
  EXPECT_EQ(log, Log({"run P"}));
  EXPECT_TRUE(testing::RegisteredPassLog().empty());
}

TEST(PassRunTest, CallWithoutContextUsesTheCurrentOne) {
  Log log;
  auto a = std::make_shared<RecordingInstrument>("A", &log);
  PassContext ctx = ContextWith(&log, {a});
  {
    PassContextScope scope(ctx);
    LoggingPass("P", 0, &log)(testing::TinyModule());
  }
  LoggingPass("Q", 0, &log)(testing::TinyModule());  // the default context: no instruments
  EXPECT_EQ(log, Log({"A enter_pass_ctx", "A should_run P", "A run_before_pass P", "run P",
                      "A run_after_pass P", "A exit_pass_ctx", "run Q"}));
}

TEST(PassRunTest, PassesCalledFromPassesNest) {
  Log log;
  auto a = std::make_shared<RecordingInstrument>("A", &log);
  Pass inner = LoggingPass("Inner", 0, &log);
  Pass outer = CreateModulePass(
      [&](const ir::IRModule& mod, const PassContext& ctx) { return inner(mod, ctx); }, 0, "Outer");
  outer(testing::TinyModule(), ContextWith(&log, {a}));
  EXPECT_EQ(log, Log({"A should_run Outer", "A run_before_pass Outer", "A should_run Inner",
                      "A run_before_pass Inner", "run Inner", "A run_after_pass Inner",
                      "A run_after_pass Outer"}));
}

TEST(PassRunTest, RunAfterPassSeesTheResult) {
  struct ResultChecker : PassInstrument {
    ir::IRModule seen;
    void run_after_pass(const ir::IRModule& mod, const PassInfo&) override { seen = mod; }
  };
  auto checker = std::make_shared<ResultChecker>();
  ir::IRModule other = testing::TinyModule();
  Pass replace = CreateModulePass([&](const ir::IRModule&, const PassContext&) { return other; }, 0,
                                  "Replace");
  ir::IRModule out = replace(testing::TinyModule(), PassContext({.instruments = {checker}}));
  EXPECT_TRUE(out.same_as(other));
  EXPECT_TRUE(checker->seen.same_as(other));
}

TEST(PassRunTest, UndefinedPassIsAnError) {
  EXPECT_THROW(Pass()(testing::TinyModule()), InternalError);
}

TEST(PassRunTest, LegacyTraceCallbackWrapsModuleAndFunctionPasses) {
  Log log;
  auto a = std::make_shared<RecordingInstrument>("A", &log);
  PassContext ctx = ContextWith(
      &log, {a}, {.trace = [&](const ir::IRModule&, const PassInfo& info, bool is_before) {
        log.push_back(std::string("trace ") + (is_before ? "before " : "after ") + info.name);
      }});
  LoggingPass("P", 0, &log)(testing::TinyModule(), ctx);
  EXPECT_EQ(log, Log({"A should_run P", "A run_before_pass P", "trace before P", "run P",
                      "A run_after_pass P", "trace after P"}));
  log.clear();
  Sequential({LoggingPass("Q", 0, &log)})(testing::TinyModule(),
                                          PassContext({.trace = ctx.trace()}));
  EXPECT_EQ(log, Log({"trace before Q", "run Q", "trace after Q"}));  // not for the Sequential
}

TEST(PassRunTest, StatusHookReportsOkAndSkips) {
  Log log;
  auto a = std::make_shared<RecordingInstrument>("A", &log);
  a->RecordStatus();
  auto b = std::make_shared<RecordingInstrument>("B", &log);
  b->RecordStatus();
  LoggingPass("P", 0, &log)(testing::TinyModule(), ContextWith(&log, {a, b}));
  EXPECT_EQ(log, Log({"A should_run P", "B should_run P", "A run_before_pass P",
                      "B run_before_pass P", "run P", "A run_after_pass P", "A status P ok",
                      "B run_after_pass P", "B status P ok"}));
  log.clear();
  b->Veto();
  LoggingPass("P", 0, &log)(testing::TinyModule(), ContextWith(&log, {a, b}));
  EXPECT_EQ(log, Log({"A should_run P", "B should_run P", "A status P skipped (should_run)",
                      "B status P skipped (should_run)"}));
}

}  // namespace
}  // namespace relaypass::transform
