// The worked example of docs/writing-a-pass.md: the tutorial's CustomPipeline, which replaces
// each constant c by multiply(3f, c). Keep the two in sync.
#include <gtest/gtest.h>

#include "relaypass/ir/visitor.h"
#include "relaypass/relay.h"
#include "relaypass/text/printer.h"
#include "relaypass/transform/pass.h"

namespace {

using namespace relaypass;

// @relay.transform.function_pass(opt_level=1)
class CustomPipeline {
 public:
  explicit CustomPipeline(ir::Expr multiplier) : multiplier_(std::move(multiplier)) {}

  // This function can define a pass.
  ir::Function transform_function(const ir::Function& func, const ir::IRModule& mod,
                                  const transform::PassContext& ctx) const {
    class ReplaceConstant : public ir::ExprMutator {
     public:
      explicit ReplaceConstant(ir::Expr multiplier) : multiplier_(std::move(multiplier)) {}

     protected:
      ir::Expr RewriteConstant(const ir::ConstantNode* pre, const ir::Expr& post) override {
        return relay::multiply(multiplier_, post);
      }

     private:
      ir::Expr multiplier_;
    };
    return ReplaceConstant(multiplier_).Mutate(func).downcast<ir::FunctionNode>();
  }

 private:
  ir::Expr multiplier_;
};

TEST(CustomPipelineTest, ReplacesEachConstantByAMultiple) {
  relay::Var x = relay::var("x", {1, 4});
  ir::Constant c = relay::const_(2.0f);
  ir::IRModule mod = ir::IRModule::FromExpr(relay::function({x}, relay::add(relay::add(x, c), c)));

  transform::Pass custom_pass =
      transform::function_pass(CustomPipeline(relay::const_(3, "float32")), /*opt_level=*/1);
  ASSERT_EQ(custom_pass.info().name, "CustomPipeline");
  ir::IRModule mod3 = custom_pass(mod);
  EXPECT_EQ(text::PrettyPrint(mod3),
            "def @main(%x: Tensor[(1, 4), float32] /* ty=Tensor[(1, 4), float32] */) -> "
            "Tensor[(1, 4), float32] {\n"
            "  %0 = multiply(3f /* ty=float32 */, 2f /* ty=float32 */) /* ty=float32 */;\n"
            "  %1 = add(%x, %0) /* ty=Tensor[(1, 4), float32] */;\n"
            "  add(%1, %0) /* ty=Tensor[(1, 4), float32] */\n"
            "}\n");
}

}  // namespace
