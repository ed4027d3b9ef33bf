// Issue 19, class 2 (the evaluator's part): a recursion that never stops is a ResourceError at
// eval::kMaxCallDepth nested calls (or kMaxFrameSlots values held by the nested frames), naming
// the callee and the call's place; before, it grew memory until the machine gave out.
#include <gtest/gtest.h>

#include <string>

#include "limited_tool.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/support/resource_error.h"
#include "relaypass/text/parser.h"

namespace relaypass::bad_input {
namespace {

const std::string kForever =
    "#[version = \"0.0.5\"]\n"
    "def @forever(%n: int32) -> int32 {\n  @forever(add(%n, 1))\n}\n"
    "def @main() -> int32 {\n  @forever(0)\n}\n";

TEST(CallDepthTest, EndlessRecursionStopsAtTheLimit) {
  eval::Interpreter interp(text::ParseModule(kForever));
  try {
    interp.RunMain({});
    ADD_FAILURE() << "no error";
  } catch (const ResourceError& e) {
    const std::string message = e.what();
    // The call inside @forever, at line 3, column 3 of the text above.
    EXPECT_EQ(message.rfind("3:3: evaluator: calling @forever nests calls deeper than 1000000", 0),
              0u)
        << message;
  }
  // The interpreter is usable afterwards: its frames were released.
  EXPECT_GE(interp.stats().function_calls, eval::kMaxCallDepth);
}

// A function with a big body (2,000 nodes in the branch it never takes, so each call is cheap)
// that calls itself: the frames' slots run out (2^24 / 2,000 calls) before the depth does.
TEST(CallDepthTest, BigFramesStopAtTheSlotLimit) {
  std::string chain = "add(%n, 1)";
  for (int i = 1; i < 2000; ++i) chain = "add(" + chain + ", 1)";
  const std::string text =
      "#[version = \"0.0.5\"]\n"
      "def @deep(%n: int32) -> int32 {\n"
      "  if (True) { @deep(%n) } else { " +
      chain + " }\n}\ndef @main() -> int32 {\n  @deep(0)\n}\n";
  eval::Interpreter interp(text::ParseModule(text));
  try {
    interp.RunMain({});
    ADD_FAILURE() << "no error";
  } catch (const ResourceError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("evaluator: calling @deep at call depth "), std::string::npos)
        << message;
    EXPECT_NE(message.find("more than 16777216 pending values"), std::string::npos) << message;
  }
}

// Recursion that ends well inside the limit still runs (the interpreter tests run 20,000 deep).
TEST(CallDepthTest, DeepButFiniteRecursionRuns) {
  const std::string text =
      "#[version = \"0.0.5\"]\n"
      "def @count(%n: int32) -> int32 {\n"
      "  if (greater(%n, 0)) { add(@count(subtract(%n, 1)), 1) } else { 0 }\n}\n"
      "def @main() -> int32 {\n  @count(200000)\n}\n";
  eval::Interpreter interp(text::ParseModule(text));
  EXPECT_EQ(interp.RunMain({}).tensor().data<int32_t>()[0], 200000);
}

TEST(CallDepthTest, RelayOptUnderMemoryAndTimeLimits) {
  const ToolRun run = RunLimited(kForever, "--run");
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.first_err_line().rfind("relay-opt: error: ", 0), 0u) << run.err;
  EXPECT_NE(run.first_err_line().find("evaluator: calling @forever nests calls deeper than"),
            std::string::npos)
      << run.err;
}

}  // namespace
}  // namespace relaypass::bad_input
