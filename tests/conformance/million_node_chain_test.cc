// Issue 2's depth acceptance: a chain of 1,000,000 add/nn.relu calls is type-checked, printed,
// parsed back, hashed, compared and destroyed with the default 8 MiB stack.
#include <gtest/gtest.h>

#include "../depth_scale.h"
#include "relaypass/ir/structural.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/text/parser.h"
#include "relaypass/text/printer.h"
#include "relaypass/workloads/workloads.h"

namespace relaypass {
namespace {

TEST(MillionNodeChainTest, TypeCheckPrintParseHashCompareDestroy) {
  // 1,000,000, or fewer under RELAYPASS_DEPTH_SCALE (the sanitizer builds).
  const int64_t kLength = relaypass::testing::ScaledDepth(1000000);
  ir::IRModule typed = ir::InferTypes(ir::IRModule::FromExpr(workloads::Chain(kLength)));
  EXPECT_EQ(ir::TypeToString(typed.Lookup("main")->ret_type), "Tensor[(1, 16), float32]");

  std::string text = text::PrettyPrint(typed);
  const std::string last_add = std::to_string(kLength - 2);  // "999998"
  const std::string before = std::to_string(kLength - 3);
  EXPECT_NE(text.find("  %" + last_add + " = add(%" + before + ", 1f /* ty=float32 */)"),
            std::string::npos);
  EXPECT_NE(text.find("  nn.relu(%" + last_add + ") /* ty=Tensor[(1, 16), float32] */\n}"),
            std::string::npos);

  ir::IRModule parsed = text::ParseModule(text);
  EXPECT_TRUE(ir::StructuralEqual(parsed, typed));
  EXPECT_EQ(ir::StructuralHash(parsed), ir::StructuralHash(typed));
  EXPECT_EQ(text::PrettyPrint(parsed), text);

  parsed = ir::IRModule();  // destroying a million-node graph must not recurse
  typed = ir::IRModule();
  SUCCEED();
}

}  // namespace
}  // namespace relaypass
