// AlterOpLayout with user hooks: the pass-infra tutorial's example (tests/data/layout/
// alter_op_layout.txt is what the tutorial prints), hook levels, and the target scope.
#include <gtest/gtest.h>

#include "relaypass/ir/structural.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/op/registry.h"
#include "relaypass/passes/alter_op_layout.h"
#include "relaypass/passes/target.h"
#include "relaypass/relay.h"
#include "relaypass/support/error.h"
#include "relaypass/text/printer.h"
#include "relaypass/transform.h"
#include "relaypass/workloads/workloads.h"
#include "test_util.h"

namespace relaypass {
namespace {

// The tutorial's alter_conv2d: the same conv2d with data_layout="NCHW16c".
ir::Expr AlterConv2D(const ir::Attrs& attrs, const std::vector<ir::Expr>& inputs,
                     const std::vector<ir::Type>&, const ir::Type&) {
  return ir::MakeCall(op::GetOp("nn.conv2d"), inputs,
                      attrs->With("data_layout", ir::AttrValue::Str("NCHW16c")));
}

TEST(AlterOpLayoutTest, TutorialExamplePrintsWhatTheTutorialPrints) {
  passes::AlterOpLayoutHook hook = passes::RegisterAlterOpLayout("nn.conv2d", AlterConv2D, 101);
  ir::Function example = workloads::Example();
  ir::IRModule mod = ir::IRModule::FromExpr(example);
  ir::IRModule out;
  {
    passes::TargetScope llvm(passes::Target("llvm"));
    out = layout_testing::RunAtLevel3(passes::AlterOpLayout(), mod);
  }
  ir::IRModule expected =
      layout_testing::ParseExpected(layout_testing::ReadTestData("layout/alter_op_layout.txt"),
                                    layout_testing::ConstantsOf(example));
  EXPECT_TRUE(ir::StructuralEqual(out, expected)) << text::PrettyPrint(out);
}

TEST(AlterOpLayoutTest, WithoutHooksItChangesNothing) {
  ir::IRModule mod = ir::InferTypes(ir::IRModule::FromExpr(workloads::Example()));
  ir::IRModule out = layout_testing::RunAtLevel3(passes::AlterOpLayout(), mod);
  EXPECT_TRUE(ir::StructuralEqual(out, mod));
}

TEST(AlterOpLayoutTest, NeverChangesItsInput) {
  passes::AlterOpLayoutHook hook = passes::RegisterAlterOpLayout("nn.conv2d", AlterConv2D, 101);
  ir::IRModule mod = ir::InferTypes(ir::IRModule::FromExpr(workloads::Example()));
  const std::string before = text::PrettyPrint(mod);
  ir::IRModule out = passes::AlterOpLayout()(mod);
  EXPECT_EQ(text::PrettyPrint(mod), before);
  EXPECT_EQ(layout_testing::CountOps(out)["layout_transform"], 4);
}

TEST(AlterOpLayoutTest, TheHighestLevelHookWinsAndUnregisteringRestoresTheOthers) {
  auto returns = [](const char* layout) {
    return [layout](const ir::Attrs& attrs, const std::vector<ir::Expr>& inputs,
                    const std::vector<ir::Type>&, const ir::Type&) -> ir::Expr {
      return ir::MakeCall(op::GetOp("nn.conv2d"), inputs,
                          attrs->With("data_layout", ir::AttrValue::Str(layout)));
    };
  };
  auto data_layout = [] {
    ir::IRModule out =
        passes::AlterOpLayout()(ir::InferTypes(ir::IRModule::FromExpr(workloads::Example())));
    std::string layout;
    ir::post_order_visit(out.Lookup("main"), [&](const ir::Expr& e) {
      auto* call = e.as<ir::CallNode>();
      if (call && call->op_node() && call->op_node()->name == "nn.conv2d") {
        layout = call->attrs->get_string("data_layout");
      }
    });
    return layout;
  };
  EXPECT_EQ(data_layout(), "NCHW");
  passes::AlterOpLayoutHook high =
      passes::RegisterAlterOpLayout("nn.conv2d", returns("NCHW8c"), 20);
  EXPECT_EQ(data_layout(), "NCHW8c");
  {
    passes::AlterOpLayoutHook low =
        passes::RegisterAlterOpLayout("nn.conv2d", returns("NCHW4c"), 5);
    EXPECT_EQ(data_layout(), "NCHW8c");
    EXPECT_THROW(passes::RegisterAlterOpLayout("nn.conv2d", returns("NCHW2c"), 20), InternalError);
    high.Unregister();
    EXPECT_FALSE(high.registered());
    EXPECT_EQ(data_layout(), "NCHW4c");
  }
  EXPECT_EQ(data_layout(), "NCHW");
  EXPECT_FALSE(passes::GetAlterOpLayout("nn.conv2d"));
  EXPECT_THROW(passes::RegisterAlterOpLayout("no.such_op", returns("NCHW"), 1), InternalError);
}

TEST(AlterOpLayoutTest, HooksSeeTheCurrentTarget) {
  std::vector<std::string> seen;
  passes::AlterOpLayoutHook hook = passes::RegisterAlterOpLayout(
      "nn.conv2d",
      [&](const ir::Attrs&, const std::vector<ir::Expr>&, const std::vector<ir::Type>& tinfos,
          const ir::Type& out_type) -> ir::Expr {
        std::optional<passes::Target> target = passes::Target::Current();
        seen.push_back(target ? target->str() : "none");
        EXPECT_EQ(tinfos.size(), 2u);
        EXPECT_EQ(ir::TypeToString(out_type), "Tensor[(1, 64, 54, 54), float32]");
        return nullptr;
      },
      101);
  ir::IRModule mod = ir::InferTypes(ir::IRModule::FromExpr(workloads::Example()));
  passes::AlterOpLayout()(mod);
  {
    passes::TargetScope llvm(passes::Target("llvm"));
    passes::AlterOpLayout()(mod);
    {
      passes::TargetScope avx(passes::Target("llvm -mcpu=skylake-avx512"));
      passes::AlterOpLayout()(mod);
    }
  }
  // TVM's string form of a target (src/target/target.cc, TargetNode::str): keys, then options.
  EXPECT_EQ(seen, (std::vector<std::string>{"none", "llvm -keys=cpu ",
                                            "llvm -keys=cpu -mcpu=skylake-avx512"}));
}

TEST(AlterOpLayoutTest, TargetParsesKindAndOptions) {
  // Kinds, options and their types: TVM v0.13's src/target/target_kind.cc.
  passes::Target t("llvm -mcpu=core-avx2 -fast-math -mattr=+avx2,+fma");
  EXPECT_EQ(t.kind(), "llvm");
  EXPECT_EQ(t.device_type(), 1);
  EXPECT_EQ(t.keys(), (std::vector<std::string>{"cpu"}));
  EXPECT_EQ(t.GetAttr("mcpu"), "core-avx2");
  EXPECT_EQ(t.GetAttr("fast-math"), "1");
  EXPECT_EQ(t.GetAttr("mattr"), "+avx2,+fma");
  EXPECT_FALSE(t.GetAttr("mtriple"));
  EXPECT_EQ(t.str(), "llvm -keys=cpu -fast-math=1 -mattr=+avx2,+fma -mcpu=core-avx2");
  EXPECT_EQ(passes::Target("llvm -device=arm_cpu").keys(),
            (std::vector<std::string>{"arm_cpu", "cpu"}));
  EXPECT_THROW(passes::Target(""), ValueError);
  EXPECT_THROW(passes::Target("-mcpu=x"), ValueError);
  EXPECT_THROW(passes::Target("woof"), ValueError);
  // TVM v0.13 moved these to Runtime and Executor: on a target they are unknown.
  EXPECT_THROW(passes::Target("c -runtime=c"), ValueError);
  EXPECT_THROW(passes::Target("c -system-lib=1"), ValueError);
  EXPECT_THROW(passes::Target("llvm -num-cores=four"), ValueError);
  EXPECT_FALSE(passes::Target::Current());
}

TEST(AlterOpLayoutTest, InfoAndRegistration) {
  transform::Pass pass = passes::AlterOpLayout();
  EXPECT_EQ(pass.info().name, "AlterOpLayout");
  EXPECT_EQ(pass.info().opt_level, 3);
  EXPECT_EQ(pass.info().required, std::vector<std::string>{"InferType"});
  layout_testing::EnsureLayoutPassesRegistered();
  EXPECT_EQ(transform::CreatePass("AlterOpLayout").info().name, "AlterOpLayout");
}

}  // namespace
}  // namespace relaypass
