// Polymorphic functions and constructors through the passes relay.build and the VM compiler run
// last. TVM v0.13's LabelOps (and every pass rebuilding a function) keeps a function's
// type_params; its FuseOps takes a call argument that is a constructor or a global function as
// opaque (not a tensor), whatever type it carries.
#include <gtest/gtest.h>

#include "relaypass/ir/type_infer.h"
#include "relaypass/passes/fuse_ops.h"
#include "relaypass/passes/label_ops.h"
#include "relaypass/text/parser.h"

namespace relaypass::passes {
namespace {

// A polymorphic function and a constructor passed as a value (@apply(Some, ...)).
ir::IRModule OptionModule() {
  return ir::InferTypes(text::ParseModule(R"(#[version = "0.0.5"]
type Option[A] {
  Some(A),
  None,
}

def @apply[A, B](%f: fn (A) -> B, %x: A) -> B {
  %f(%x)
}

def @main(%x: float32) -> Option[float32] {
  @apply(Some, add(%x, 1f))
}
)"));
}

TEST(AdtThroughPasses, LabelOpsKeepsTypeParams) {
  ir::IRModule labelled = LabelOps()(OptionModule());
  ir::Function apply = labelled.Lookup("apply");
  ASSERT_EQ(apply->type_params.size(), 2u);  // [A, B], as written
  EXPECT_NE(apply->attrs.find("hash"), nullptr);
  // Without them @apply's A and B are free: @main's call would not type-check.
  EXPECT_NO_THROW(ir::InferTypes(labelled));
}

TEST(AdtThroughPasses, FuseOpsTakesAConstructorArgumentAsOpaque) {
  ir::IRModule fused;
  ASSERT_NO_THROW(fused = FuseOps(2)(OptionModule()));
  EXPECT_NO_THROW(ir::InferTypes(fused));
  EXPECT_EQ(fused.Lookup("apply")->type_params.size(), 2u);
}

}  // namespace
}  // namespace relaypass::passes
