// Operators registered at run time (op/user_ops.h) and support levels. Expected levels are TVM
// v0.13's (src/relay/op/tensor/unary.cc, binary.cc; 10 is TVM's default); the registration
// errors follow TVM's ir.RegisterOp.
#include "relaypass/op/user_ops.h"

#include <gtest/gtest.h>

#include "relaypass/ir/type_infer.h"
#include "relaypass/op/registry.h"
#include "relaypass/relay.h"
#include "relaypass/support/error.h"

namespace relaypass::op {
namespace {

TEST(UserOpsTest, SupportLevelsAreTVMs) {
  EXPECT_EQ(SupportLevel("exp"), 1);
  EXPECT_EQ(SupportLevel("divide"), 1);
  EXPECT_EQ(SupportLevel("round"), 3);
  EXPECT_EQ(SupportLevel("greater_equal"), 4);
  EXPECT_EQ(SupportLevel("nn.dense"), 10);
}

TEST(UserOpsTest, ARegisteredOperatorTypesCallsWithItsNamedRelation) {
  RegisterUserOp("user_ops_test.add", "broadcasting add");
  EXPECT_TRUE(IsUserOp("user_ops_test.add"));
  SetUserOpNumInputs("user_ops_test.add", 2);
  SetUserOpTypeRelation("user_ops_test.add", "Broadcast");
  SetUserOpSupportLevel("user_ops_test.add", 2);
  SetUserOpPattern("user_ops_test.add", 1);
  SetUserOpStateful("user_ops_test.add", true);
  const ir::OpDef* def = ir::OpRegistry::Global().Find("user_ops_test.add");
  ASSERT_NE(def, nullptr);
  EXPECT_EQ(def->num_inputs, 2);
  EXPECT_EQ(def->pattern, ir::OpPattern::kBroadcast);
  EXPECT_TRUE(def->stateful);
  EXPECT_EQ(SupportLevel("user_ops_test.add"), 2);
  // TVM's BroadcastRel: (2, 1) with (3) is (2, 3).
  auto f32 = ir::DataType::Float32();
  ir::Var x = ir::MakeVar("x", ir::TensorType({2, 1}, f32));
  ir::Var y = ir::MakeVar("y", ir::TensorType({3}, f32));
  ir::Expr call = ir::MakeCall(GetOp("user_ops_test.add"), {x, y});
  ir::Function f =
      ir::InferTypes(ir::IRModule::FromExpr(ir::MakeFunction({x, y}, call))).Lookup("main");
  EXPECT_TRUE(ir::TypeEqual(f->body->checked_type, ir::TensorType({2, 3}, f32)));
}

TEST(UserOpsTest, BuiltinOperatorsAndBadSettingsAreRefused) {
  EXPECT_THROW(RegisterUserOp("add", ""), Error);
  EXPECT_THROW(SetUserOpNumInputs("add", 3), Error);
  EXPECT_THROW(SetUserOpSupportLevel("add", 2), Error);
  EXPECT_FALSE(IsUserOp("add"));
  RegisterUserOp("user_ops_test.bad", "");
  EXPECT_THROW(SetUserOpTypeRelation("user_ops_test.bad", "NoSuchRel"), Error);
  EXPECT_THROW(SetUserOpPattern("user_ops_test.bad", 5), Error);
  EXPECT_THROW(SetUserOpNumInputs("user_ops_test.bad", -2), Error);
}

}  // namespace
}  // namespace relaypass::op
