// The C++ API example of README.md and docs/cpp-api.md, kept compiling and checked.
#include <gtest/gtest.h>

#include <sstream>

#include "relaypass/relay.h"
#include "relaypass/text/printer.h"
#include "relaypass/transform.h"

namespace {

using namespace relaypass;  // NOLINT: as the README writes it

TEST(ReadmeExampleTest, BuildsFoldsFusesAndTimes) {
  if (!transform::PassRegistry::Global().Find("FuseOps")) GTEST_SKIP() << "FuseOps not registered";
  std::ostringstream out;
  relay::Var x = relay::var("x", {1, 16});
  ir::Expr six = relay::multiply(relay::const_(2.0f), relay::const_(3.0f));
  ir::IRModule mod =
      ir::IRModule::FromExpr(relay::function({x}, relay::nn::relu(relay::add(x, six))));

  auto timing = std::make_shared<transform::PassTimingInstrument>();
  transform::PassContextScope scope(
      transform::PassContext({.opt_level = 3, .instruments = {timing}}));
  mod = transform::ParsePipeline("FoldConstant,FuseOps")(mod);
  out << text::PrettyPrint(mod) << timing->render();

  const std::string text = out.str();
  EXPECT_NE(text.find("add(%p0, 6f"), std::string::npos) << text;
  EXPECT_NE(text.find("Primitive=1"), std::string::npos) << text;
  EXPECT_NE(text.find("sequential: "), std::string::npos) << text;
  EXPECT_NE(text.find("\tFuseOps: "), std::string::npos) << text;
}

}  // namespace
