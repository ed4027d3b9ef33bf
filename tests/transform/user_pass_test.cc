// Passes written by users: from lambdas and from classes (the tutorial's CustomPipeline).
#include <gtest/gtest.h>

#include "relaypass/ir/visitor.h"
#include "relaypass/support/error.h"
#include "relaypass/transform/pass.h"
#include "test_util.h"

namespace relaypass::transform {

namespace user {

// The shape of the tutorial's `@function_pass(opt_level=1) class CustomPipeline`: each constant
// is replaced (here by a constant of three times its value, to stay free of operators).
class CustomPipeline {
 public:
  explicit CustomPipeline(float multiplier) : multiplier_(multiplier) {}

  ir::Function transform_function(const ir::Function& func, const ir::IRModule&,
                                  const PassContext&) const {
    struct ReplaceConstant : ir::ExprMutator {
      float multiplier;
      ir::Expr RewriteConstant(const ir::ConstantNode* c, const ir::Expr&) override {
        float value = *c->data.data<float>() * multiplier;
        return ir::MakeConstant(ir::NDArray::Scalar(value, ir::DataType::Float32()));
      }
    } mutator;
    mutator.multiplier = multiplier_;
    return mutator.Mutate(func).downcast<ir::FunctionNode>();
  }

 private:
  float multiplier_;
};

template <typename T>
struct Templated {
  ir::IRModule transform_module(const ir::IRModule& mod, const PassContext&) { return mod; }
};

}  // namespace user

namespace {

struct CountingModulePass {
  int* calls;
  ir::IRModule transform_module(const ir::IRModule& mod, const PassContext&) {
    ++*calls;
    return mod;
  }
};

ir::IRModule ConstantModule(float value) {
  ir::Constant c = ir::MakeConstant(ir::NDArray::Scalar(value, ir::DataType::Float32()));
  return ir::IRModule::FromExpr(ir::MakeFunction({}, c));
}

float MainConstant(const ir::IRModule& mod) {
  return *mod.Lookup("main")->body.as<ir::ConstantNode>()->data.data<float>();
}

TEST(UserPassTest, ClassFunctionPassIsNamedAfterItsClass) {
  Pass custom_pass = function_pass(user::CustomPipeline(3.0f), /*opt_level=*/1);
  EXPECT_EQ(custom_pass.info().name, "CustomPipeline");
  EXPECT_EQ(custom_pass.info().opt_level, 1);
  EXPECT_EQ(custom_pass.kind(), PassKind::kFunction);
  EXPECT_EQ(MainConstant(custom_pass(ConstantModule(2.0f))), 6.0f);
}

TEST(UserPassTest, ClassModulePass) {
  int calls = 0;
  Pass pass = module_pass(CountingModulePass{&calls}, 2);
  EXPECT_EQ(pass.info().name, "CountingModulePass");  // anonymous namespace stripped
  EXPECT_EQ(pass.kind(), PassKind::kModule);
  pass(testing::TinyModule());
  pass(testing::TinyModule());
  EXPECT_EQ(calls, 2);
}

TEST(UserPassTest, TemplateArgumentsAndNamespacesAreStripped) {
  EXPECT_EQ(module_pass(user::Templated<std::vector<int>>{}, 0).info().name, "Templated");
  EXPECT_EQ(detail::ShortTypeName(typeid(user::CustomPipeline)), "CustomPipeline");
}

TEST(UserPassTest, ExplicitNameAndRequiredWin) {
  Pass pass = function_pass(user::CustomPipeline(1.0f), 3, "Renamed", {"InferType"});
  EXPECT_EQ(pass.info().ToString(),
            "The meta data of the pass - pass name: Renamed, opt_level: 3, required passes: "
            "[\nInferType, ]\n");
}

TEST(UserPassTest, LambdaPasses) {
  Pass mod_pass = module_pass(
      [](const ir::IRModule& mod, const PassContext&) { return ConstantModule(5.0f); }, 0, "Five");
  EXPECT_EQ(MainConstant(mod_pass(testing::TinyModule())), 5.0f);
  Pass func_pass =
      function_pass([](const ir::Function& f, const ir::IRModule&,
                       const PassContext&) { return ConstantModule(7.0f).Lookup("main"); },
                    1, "Seven");
  EXPECT_EQ(MainConstant(func_pass(ConstantModule(1.0f))), 7.0f);
}

TEST(UserPassTest, LambdaWithoutNameIsAPassError) {
  auto lambda = [](const ir::IRModule& mod, const PassContext&) { return mod; };
  EXPECT_EQ(detail::ShortTypeName(typeid(lambda)), "");
  EXPECT_THROW(module_pass(lambda, 0), PassError);
}

TEST(UserPassTest, CopiesOfAPassShareItsObject) {
  int calls = 0;
  Pass pass = module_pass(CountingModulePass{&calls}, 0);
  Pass copy = pass;
  EXPECT_EQ(copy.get(), pass.get());
  copy(testing::TinyModule());
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace relaypass::transform
