// Issue 19, class 7: a fold that cannot be done is not fatal. FoldConstant leaves a call the
// evaluator cannot compute (an integer division by zero, a cast to a dtype without a kernel) as
// it is, as TVM's FoldConstant does, so a branch that never runs cannot stop the compile; when
// the program does run it, the error names the op and the call's place.
#include <gtest/gtest.h>

#include <string>

#include "limited_tool.h"
#include "relaypass/passes/fold_constant.h"
#include "relaypass/support/error.h"
#include "relaypass/text/parser.h"
#include "relaypass/text/printer.h"
#include "relaypass/transform/infer_type.h"

namespace relaypass::bad_input {
namespace {

const std::string kDivideInDeadBranch =
    "#[version = \"0.0.5\"]\n"
    "def @main(%c: bool) -> int32 {\n"
    "  if (%c) {\n    divide(1, 0)\n  } else {\n    add(2, 3)\n  }\n}\n";

TEST(FoldFailuresTest, DivisionByZeroStaysUnfolded) {
  ir::IRModule mod = text::ParseModule(kDivideInDeadBranch);
  ir::IRModule folded = passes::FoldConstant()(mod);
  const std::string printed = text::PrettyPrint(folded);
  EXPECT_NE(printed.find("divide(1 /* ty=int32 */, 0 /* ty=int32 */)"), std::string::npos)
      << printed;
  EXPECT_EQ(printed.find("add("), std::string::npos) << "the other branch still folds";
  EXPECT_NE(printed.find("    5 /* ty=int32 */"), std::string::npos) << printed;
}

TEST(FoldFailuresTest, CastWithoutAKernelStaysUnfolded) {
  // (uint1 is not one: it is TVM's bool, which casts and folds.)
  for (const char* dtype : {"int4", "float32x4", "int2"}) {
    ir::IRModule mod =
        text::ParseModule("#[version = \"0.0.5\"]\ndef @main() {\n  cast(1f, dtype=\"" +
                          std::string(dtype) + "\")\n}\n");
    const std::string printed = text::PrettyPrint(passes::FoldConstant()(mod));
    EXPECT_NE(printed.find("cast(1f"), std::string::npos) << dtype << "\n" << printed;
  }
}

TEST(FoldFailuresTest, RelayOptCompilesAndRunFailsAtThePlace) {
  const ToolRun fold = RunLimited(kDivideInDeadBranch, "--pipeline=FoldConstant");
  EXPECT_EQ(fold.exit_code, 0) << fold.err;
  EXPECT_NE(fold.out.find("divide(1 /* ty=int32 */, 0 /* ty=int32 */)"), std::string::npos)
      << fold.out;
  // Running the taken branch fails where the division is: line 4, column 5.
  const std::string taken =
      "#[version = \"0.0.5\"]\n"
      "def @main() -> int32 {\n"
      "  if (True) {\n    divide(1, 0)\n  } else {\n    add(2, 3)\n  }\n}\n";
  const ToolRun run = RunLimited(taken, "--pipeline=FoldConstant --run");
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_EQ(run.out, "");
  EXPECT_NE(run.first_err_line().find(":4:5: divide: integer division by zero"), std::string::npos)
      << run.err;
}

}  // namespace
}  // namespace relaypass::bad_input
