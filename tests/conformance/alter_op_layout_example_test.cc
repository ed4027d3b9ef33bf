// Issue 5's acceptance for the AlterOpLayout example of pass_infra_tutorial_zh.txt:
// examples/alter_op_layout prints a module that, parsed back, is structurally equal to the one
// the tutorial prints (kept in tests/data/layout/alter_op_layout.txt). The tutorial was printed
// by an older TVM, whose binding order differs, so the graphs are compared, not the text.
#include <gtest/gtest.h>

#include "example_runner.h"

#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "relaypass/ir/structural.h"
#include "relaypass/text/parser.h"

namespace relaypass {
namespace {

TEST(AlterOpLayoutExampleTest, PrintsTheTutorialsGraph) {
  int status = -1;
  std::string out = conformance::RunExample("alter_op_layout", &status);
  EXPECT_EQ(status, 0);
  // Constants print as meta[relay.Constant][i] with their type; both sides read them back as
  // zeros of that type (the example's constant is zeros too).
  ir::IRModule actual = text::ParseModule(out);
  ir::IRModule expected =
      text::ParseModule(conformance::ReadFile(RELAYPASS_TEST_DATA "/layout/alter_op_layout.txt"));
  EXPECT_TRUE(ir::StructuralEqual(actual, expected)) << "output was:\n" << out;
}

}  // namespace
}  // namespace relaypass
