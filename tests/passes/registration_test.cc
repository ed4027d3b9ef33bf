// The pass factories carry TVM's names, opt_levels and required passes (relay_semantics.md 3.0),
// and the Register functions expose them by name with their options.
#include <gtest/gtest.h>

#include "relaypass/passes/dead_code.h"
#include "relaypass/passes/eliminate_common_subexpr.h"
#include "relaypass/passes/fuse_ops.h"
#include "relaypass/passes/to_a_normal_form.h"
#include "relaypass/transform/infer_type.h"

namespace relaypass::passes {
namespace {

using transform::OptionValue;
using transform::PassInfo;

void ExpectInfo(const transform::Pass& pass, const std::string& name, int opt_level,
                const std::vector<std::string>& required) {
  const PassInfo& info = pass.info();
  EXPECT_EQ(info.name, name);
  EXPECT_EQ(info.opt_level, opt_level) << name;
  EXPECT_EQ(info.required, required) << name;
}

TEST(PassRegistrationTest, FactoriesCarryTvmPassInfo) {
  ExpectInfo(EliminateCommonSubexpr(), "EliminateCommonSubexpr", 3, {"InferType"});
  ExpectInfo(FuseOps(), "FuseOps", 0, {"InferType"});
  ExpectInfo(FuseOps(2), "FuseOps", 0, {"InferType"});
  ExpectInfo(ToANormalForm(), "ToANormalForm", 1, {});
  ExpectInfo(DeadCodeElimination(), "DeadCodeElimination", 1, {"InferType"});
  EXPECT_EQ(FuseOps().kind(), transform::PassKind::kFunction);
  EXPECT_EQ(EliminateCommonSubexpr().kind(), transform::PassKind::kFunction);
  EXPECT_EQ(ToANormalForm().kind(), transform::PassKind::kModule);
  EXPECT_EQ(DeadCodeElimination().kind(), transform::PassKind::kModule);
}

TEST(PassRegistrationTest, RegisteredWithOptionsAndDefaults) {
  transform::PassRegistry registry;
  registry.Register({"InferType",
                     {},
                     [](const transform::PassOptions&) { return transform::InferType(); },
                     "infers types"});
  RegisterEliminateCommonSubexpr(registry);
  RegisterFuseOps(registry);
  RegisterToANormalForm(registry);
  RegisterDeadCodeElimination(registry);
  EXPECT_TRUE(transform::LintPassRegistry(registry).empty());

  const transform::PassRegistration* fuse = registry.Find("FuseOps");
  ASSERT_NE(fuse, nullptr);
  ASSERT_EQ(fuse->options.size(), 1u);
  EXPECT_EQ(fuse->options[0].name, "fuse_opt_level");
  EXPECT_EQ(*fuse->options[0].default_value, OptionValue::Int(-1));

  const transform::PassRegistration* dce = registry.Find("DeadCodeElimination");
  ASSERT_NE(dce, nullptr);
  ASSERT_EQ(dce->options.size(), 2u);
  EXPECT_EQ(dce->options[0].name, "inline_once");
  EXPECT_EQ(dce->options[1].name, "ignore_impurity");
  EXPECT_EQ(*dce->options[1].default_value, OptionValue::Bool(false));

  EXPECT_TRUE(registry.Find("EliminateCommonSubexpr")->options.empty());
  EXPECT_TRUE(registry.Find("ToANormalForm")->options.empty());

  ExpectInfo(registry.Create("FuseOps", {{"fuse_opt_level", OptionValue::Int(2)}}), "FuseOps", 0,
             {"InferType"});
  ExpectInfo(registry.Create("DeadCodeElimination", {{"inline_once", OptionValue::Bool(true)}}),
             "DeadCodeElimination", 1, {"InferType"});
}

}  // namespace
}  // namespace relaypass::passes
