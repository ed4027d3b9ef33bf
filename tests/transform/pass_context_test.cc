// PassContext (pass_infra.md "PassContext"): defaults, the thread-local stack, enter/exit order,
// override_instruments, and the typed config.
#include <gtest/gtest.h>

#include <barrier>
#include <thread>

#include "relaypass/support/error.h"
#include "relaypass/transform/pass_config.h"
#include "relaypass/transform/pass_context.h"
#include "test_util.h"

namespace relaypass::transform {
namespace {

using testing::Log;
using testing::LoggingPass;
using testing::RecordingInstrument;

std::string MessageOf(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const PassError& e) {
    return e.what();
  }
  return "(no PassError)";
}

TEST(PassContextTest, Defaults) {
  PassContext ctx;
  EXPECT_EQ(ctx.opt_level(), 2);
  EXPECT_TRUE(ctx.required_pass().empty());
  EXPECT_TRUE(ctx.disabled_pass().empty());
  EXPECT_TRUE(ctx.instruments().empty());
  EXPECT_TRUE(ctx.config().empty());
  EXPECT_FALSE(ctx.trace());
}

TEST(PassContextTest, HandlesShareTheContext) {
  PassContext a;
  PassContext b = a;
  b.set_opt_level(3);
  EXPECT_EQ(a.opt_level(), 3);
  EXPECT_TRUE(a.same_as(b));
  EXPECT_FALSE(a.same_as(PassContext()));
}

TEST(PassContextTest, CurrentIsTheInnermostScopeOrTheThreadDefault) {
  PassContext fallback = PassContext::Current();
  EXPECT_TRUE(PassContext::Current().same_as(fallback));  // the same default every time
  PassContext outer({.opt_level = 3});
  PassContext inner({.opt_level = 1});
  {
    PassContextScope s1(outer);
    EXPECT_TRUE(PassContext::Current().same_as(outer));
    {
      PassContextScope s2(inner);
      EXPECT_EQ(PassContext::Current().opt_level(), 1);
    }
    EXPECT_TRUE(PassContext::Current().same_as(outer));
  }
  EXPECT_TRUE(PassContext::Current().same_as(fallback));
}

TEST(PassContextTest, EnterHooksRunBeforePushAndExitHooksAfterPop) {
  Log log;
  PassContext ctx;
  struct Probe : PassInstrument {
    Log* log;
    PassContext* ctx;
    void enter_pass_ctx() override { Note("enter"); }
    void exit_pass_ctx() override { Note("exit"); }
    void Note(const std::string& what) {
      log->push_back(what + (PassContext::Current().same_as(*ctx) ? " current" : " not current"));
    }
  };
  auto probe = std::make_shared<Probe>();
  probe->log = &log;
  probe->ctx = &ctx;
  ctx = PassContext({.instruments = {probe}});
  {
    PassContextScope scope(ctx);
    log.push_back(PassContext::Current().same_as(ctx) ? "body current" : "body not current");
  }
  EXPECT_EQ(log, Log({"enter not current", "body current", "exit not current"}));
}

TEST(PassContextTest, EnterAndExitCallEveryInstrumentInOrder) {
  Log log;
  auto a = std::make_shared<RecordingInstrument>("A", &log);
  auto b = std::make_shared<RecordingInstrument>("B", &log);
  PassContext ctx({.instruments = {a, b}});
  { PassContextScope scope(ctx); }
  EXPECT_EQ(log,
            Log({"A enter_pass_ctx", "B enter_pass_ctx", "A exit_pass_ctx", "B exit_pass_ctx"}));
}

TEST(PassContextTest, OverrideInstrumentsExitsOldAndEntersNew) {
  Log log;
  auto a = std::make_shared<RecordingInstrument>("A", &log);
  auto b = std::make_shared<RecordingInstrument>("B", &log);
  auto c = std::make_shared<RecordingInstrument>("C", &log);
  PassContext ctx({.instruments = {a, b}});
  ctx.override_instruments({c});
  EXPECT_EQ(log, Log({"A exit_pass_ctx", "B exit_pass_ctx", "C enter_pass_ctx"}));
  ASSERT_EQ(ctx.instruments().size(), 1u);
  EXPECT_EQ(ctx.instruments()[0], c);
}

TEST(PassContextTest, OverrideInstrumentsOnTheCurrentDefaultInstrumentsDirectCalls) {
  // The instrument tutorial: PassContext.current().override_instruments([timing_inst]).
  Log log;
  auto a = std::make_shared<RecordingInstrument>("A", &log);
  PassContext::Current().override_instruments({a});
  LoggingPass("P", 0, &log)(testing::TinyModule());
  PassContext::Current().override_instruments({});
  EXPECT_EQ(log, Log({"A enter_pass_ctx", "A should_run P", "A run_before_pass P", "run P",
                      "A run_after_pass P", "A exit_pass_ctx"}));
}

TEST(PassContextTest, ContextsAreThreadLocal) {
  std::barrier sync(2);
  PassContext main_default = PassContext::Current();
  int seen[2] = {0, 0};
  bool default_shared[2] = {true, true};
  auto work = [&](int i) {
    default_shared[i] = PassContext::Current().same_as(main_default);
    PassContextScope scope(PassContext({.opt_level = i == 0 ? 0 : 3}));
    sync.arrive_and_wait();  // both scopes are entered now
    seen[i] = PassContext::Current().opt_level();
    sync.arrive_and_wait();
  };
  std::thread t0(work, 0);
  std::thread t1(work, 1);
  t0.join();
  t1.join();
  EXPECT_EQ(seen[0], 0);
  EXPECT_EQ(seen[1], 3);
  EXPECT_FALSE(default_shared[0]);
  EXPECT_FALSE(default_shared[1]);
  EXPECT_TRUE(PassContext::Current().same_as(main_default));
}

TEST(PassContextTest, ConfigTakesRegisteredOptionsAndDefaults) {
  PassContext ctx({.config = {{"relay.FuseOps.max_depth", OptionValue::Int(10)}}});
  EXPECT_EQ(ctx.GetConfig("relay.FuseOps.max_depth").as_int(), 10);
  EXPECT_EQ(ctx.GetConfig("relay.FuseOps.link_params").as_bool(), false);  // the default
  EXPECT_EQ(PassContext().GetConfig("relay.FuseOps.max_depth").as_int(), 256);
  ctx.SetConfig("relay.FuseOps.link_params", OptionValue::Bool(true));
  EXPECT_EQ(ctx.GetConfig("relay.FuseOps.link_params").as_bool(), true);
  EXPECT_EQ(ctx.config().size(), 2u);
}

TEST(PassContextTest, UnknownConfigKeyNamesTheValidOnes) {
  std::string message = MessageOf([] {
    PassContext({.config = {{"relay.FuseOps.maxdepth", OptionValue::Int(1)}}});
  });
  EXPECT_NE(message.find("unknown PassContext config option \"relay.FuseOps.maxdepth\""),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("did you mean \"relay.FuseOps.max_depth\"?"), std::string::npos)
      << message;
  EXPECT_NE(message.find("valid options: "), std::string::npos) << message;
  EXPECT_NE(message.find("relay.FuseOps.link_params"), std::string::npos) << message;
  EXPECT_NE(MessageOf([] { PassContext().GetConfig("no.such.key"); }), "(no PassError)");
}

TEST(PassContextTest, WrongConfigTypeIsAPassError) {
  EXPECT_EQ(MessageOf([] {
              PassContext().SetConfig("relay.FuseOps.max_depth", OptionValue::Bool(true));
            }),
            "PassContext config option \"relay.FuseOps.max_depth\" expects int, got bool True");
  EXPECT_EQ(MessageOf([] {
              PassContext().SetConfig("relay.FuseOps.link_params", OptionValue::Str("yes"));
            }),
            "PassContext config option \"relay.FuseOps.link_params\" expects bool, got str "
            "\"yes\"");
}

TEST(PassContextTest, ConfigRegistryConvertsIntsToFloatsAndRejectsDuplicates) {
  PassConfigRegistry& registry = PassConfigRegistry::Global();
  if (!registry.Find("testing.float_option")) {
    registry.Register({"testing.float_option", OptionType::kFloat, OptionValue::Int(1), ""});
  }
  EXPECT_EQ(registry.Find("testing.float_option")->default_value, OptionValue::Double(1.0));
  PassContext ctx({.config = {{"testing.float_option", OptionValue::Int(2)}}});
  EXPECT_EQ(ctx.GetConfig("testing.float_option"), OptionValue::Double(2.0));
  EXPECT_THROW(
      registry.Register({"testing.float_option", OptionType::kFloat, OptionValue::Double(0), ""}),
      PassError);
  EXPECT_THROW(
      registry.Register({"testing.bad_default", OptionType::kInt, OptionValue::Str("x"), ""}),
      PassError);
}

TEST(PassContextTest, GateDecidesForSequentialMembers) {
  PassContext ctx({.opt_level = 2, .required_pass = {"R", "D"}, .disabled_pass = {"D"}});
  EXPECT_EQ(ctx.Gate({3, "R", {}}), PassStatus::kOk);
  EXPECT_EQ(ctx.Gate({0, "D", {}}), PassStatus::kSkippedDisabled);
  EXPECT_EQ(ctx.Gate({2, "X", {}}), PassStatus::kOk);
  EXPECT_EQ(ctx.Gate({3, "X", {}}), PassStatus::kSkippedOptLevel);
}

}  // namespace
}  // namespace relaypass::transform
