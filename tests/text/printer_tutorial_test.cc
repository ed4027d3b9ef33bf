// The modules printed in the pass-infra and pass-instrument tutorials, built by hand (types set
// the way InferType sets them, or by InferTypes) and printed byte for byte as TVM v0.13 prints
// them.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "relaypass/ir/type_infer.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/relay.h"
#include "relaypass/text/printer.h"

namespace relaypass::text {
namespace {

using ir::DataType;
using ir::DictAttrs;
using ir::Expr;
using ir::Type;
using ir::Var;

std::string ReadGolden(const std::string& name) {
  std::ifstream in(std::string(RELAYPASS_TEST_DATA) + "/printer/" + name, std::ios::binary);
  EXPECT_TRUE(in) << "missing golden file " << name;
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

Type F32(std::vector<int64_t> shape) {
  return ir::TensorType(std::move(shape), DataType::Float32());
}

// A copy of the fresh node `e` carrying the checked type `t`, as InferType leaves it.
Expr Typed(const Expr& e, const Type& t) {
  return ir::WithCheckedType(e, t);
}
Var TypedVar(const std::string& name, const Type& t) {
  return Typed(ir::MakeVar(name, t), t).downcast<ir::VarNode>();
}
Expr TypedConst(const Type& t) {
  auto* tensor = t.as<ir::TensorTypeNode>();
  return Typed(relay::const_(ir::NDArray::Empty(tensor->shape, tensor->dtype)), t);
}

// A function with its ret_type and checked type set; `primitive` adds the `Primitive=1` attribute.
ir::Function TypedFunction(std::vector<Var> params, Expr body, bool primitive) {
  std::vector<Type> arg_types;
  for (const Var& p : params) arg_types.push_back(p->type_annotation);
  Type ret = body->checked_type;
  DictAttrs attrs;
  if (primitive) attrs.Set("Primitive", ir::AttrValue::Int(1));
  Expr fn = ir::MakeFunction(std::move(params), std::move(body), ret, attrs);
  return Typed(fn, ir::FuncType(arg_types, ret)).downcast<ir::FunctionNode>();
}

std::string PrintMain(const Expr& main) {
  return PrettyPrint(ir::IRModule::FromExpr(main));
}

// The graph shapes of the tutorial's example().
struct Shapes {
  Type x = F32({1, 64, 56, 56});
  Type weight = F32({64, 64, 3, 3});
  Type act = F32({1, 64, 54, 54});
};

TEST(PrinterTutorialTest, ExampleUntyped) {
  // The tutorial's example(), exactly as written there.
  Expr c = relay::const_(ir::NDArray::Empty({1, 64, 54, 54}, DataType::Float32()));
  Var weight = relay::var("weight", {64, 64, 3, 3});
  Var x = relay::var("x", ir::TensorType({1, 64, 56, 56}, DataType::Float32()));
  Expr conv = relay::nn::conv2d(x, weight);
  Expr y = relay::add(c, c);
  y = relay::multiply(y, relay::const_(2, "float32"));
  y = relay::add(conv, y);
  Expr z = relay::add(y, c);
  Expr z1 = relay::add(y, c);
  Expr z2 = relay::add(z, z1);
  EXPECT_EQ(PrintMain(relay::function({x, weight}, z2)),
            ReadGolden("tutorial_example_untyped.txt"));
}

TEST(PrinterTutorialTest, FoldedUntyped) {
  Var x = relay::var("x", {1, 64, 56, 56});
  Var weight = relay::var("weight", {64, 64, 3, 3});
  Expr c0 = relay::const_(ir::NDArray::Empty({1, 64, 54, 54}, DataType::Float32()));
  Expr c1 = relay::const_(ir::NDArray::Empty({1, 64, 54, 54}, DataType::Float32()));
  Expr y = relay::add(relay::nn::conv2d(x, weight), c0);
  Expr main = relay::function({x, weight}, relay::add(relay::add(y, c1), relay::add(y, c1)));
  EXPECT_EQ(PrintMain(main), ReadGolden("tutorial_folded_untyped.txt"));
}

// After FoldConstant: conv2d, then adds of two folded constants; `cse` shares the last add.
Expr FoldedTyped(bool cse) {
  Shapes s;
  Var x = TypedVar("x", s.x);
  Var weight = TypedVar("weight", s.weight);
  Expr c0 = TypedConst(s.act);
  Expr c1 = TypedConst(s.act);
  Expr conv = Typed(relay::nn::conv2d(x, weight), s.act);
  Expr y = Typed(relay::add(conv, c0), s.act);
  Expr z = Typed(relay::add(y, c1), s.act);
  Expr z1 = cse ? z : Typed(relay::add(y, c1), s.act);
  return TypedFunction({x, weight}, Typed(relay::add(z, z1), s.act), false);
}

TEST(PrinterTutorialTest, FoldConstantTyped) {
  EXPECT_EQ(PrintMain(FoldedTyped(false)), ReadGolden("tutorial_fold_constant.txt"));
}

TEST(PrinterTutorialTest, EliminateCommonSubexprTyped) {
  EXPECT_EQ(PrintMain(FoldedTyped(true)), ReadGolden("tutorial_cse.txt"));
}

TEST(PrinterTutorialTest, FuseOpsLevel0ClosuresShareTheNameTable) {
  // Every closure names its parameters p0, p1; the printer's global name table makes them
  // %p03/%p12 in the closure it reaches last (the callee of the innermost call).
  Shapes s;
  Var x = TypedVar("x", s.x);
  Var weight = TypedVar("weight", s.weight);
  Expr c0 = TypedConst(s.act);
  Expr c1 = TypedConst(s.act);

  Var a0 = TypedVar("p0", s.x), a1 = TypedVar("p1", s.weight);
  Expr conv_fn = TypedFunction({a0, a1}, Typed(relay::nn::conv2d(a0, a1), s.act), true);
  Expr conv = Typed(ir::MakeCall(conv_fn, {x, weight}), s.act);

  auto add_fn = [&] {
    Var p0 = TypedVar("p0", s.act), p1 = TypedVar("p1", s.act);
    return TypedFunction({p0, p1}, Typed(relay::add(p0, p1), s.act), true);
  };
  Expr y = Typed(ir::MakeCall(add_fn(), {conv, c0}), s.act);
  Expr z = Typed(ir::MakeCall(add_fn(), {y, c1}), s.act);

  Var d0 = TypedVar("p0", s.act);
  Expr double_fn = TypedFunction({d0}, Typed(relay::add(d0, d0), s.act), true);
  Expr out = Typed(ir::MakeCall(double_fn, {z}), s.act);
  EXPECT_EQ(PrintMain(TypedFunction({x, weight}, out, false)),
            ReadGolden("tutorial_fuse_opt0.txt"));
}

// After FuseOps at level 2: one primitive function for the whole graph. `typed_inside` = false
// leaves the closure and the call without types, as the InferType dump before the last one
// shows them.
Expr FusedWhole(bool cse, bool typed_inside) {
  Shapes s;
  auto typed = [&](const Expr& e, const Type& t) { return typed_inside ? Typed(e, t) : e; };
  auto param = [&](const std::string& name, const Type& t) {
    return typed_inside ? TypedVar(name, t) : ir::MakeVar(name, t);
  };
  Var p0 = param("p0", s.x), p1 = param("p1", s.weight);
  Var p2 = param("p2", s.act), p3 = param("p3", s.act);
  Expr y = typed(relay::add(typed(relay::nn::conv2d(p0, p1), s.act), p2), s.act);
  Expr z = typed(relay::add(y, p3), s.act);
  Expr z1 = cse ? z : typed(relay::add(y, p3), s.act);
  Expr body = typed(relay::add(z, z1), s.act);
  Expr fn;
  if (typed_inside) {
    fn = TypedFunction({p0, p1, p2, p3}, body, true);
  } else {
    fn = ir::MakeFunction({p0, p1, p2, p3}, body, s.act,
                          DictAttrs{{"Primitive", ir::AttrValue::Int(1)}});
  }
  Var x = TypedVar("x", s.x);
  Var weight = TypedVar("weight", s.weight);
  Expr call = typed(ir::MakeCall(fn, {x, weight, TypedConst(s.act), TypedConst(s.act)}), s.act);
  return ir::MakeFunction({x, weight}, call, s.act);
}

TEST(PrinterTutorialTest, FusedLevel2) {
  EXPECT_EQ(PrintMain(FusedWhole(false, true)), ReadGolden("tutorial_fused_opt2.txt"));
}

TEST(PrinterTutorialTest, FusedLevel3WithCse) {
  EXPECT_EQ(PrintMain(FusedWhole(true, true)), ReadGolden("tutorial_fused_opt3.txt"));
}

TEST(PrinterTutorialTest, FusedPartiallyTyped) {
  EXPECT_EQ(PrintMain(FusedWhole(true, false)), ReadGolden("tutorial_fused_partially_typed.txt"));
}

TEST(PrinterTutorialTest, CustomPipelineVisitOrder) {
  // example() with every constant k replaced by multiply(3f, k), one shared 3f node.
  Shapes s;
  Type scalar = ir::ScalarType(DataType::Float32());
  Expr three = Typed(relay::const_(3.0f), scalar);
  Var x = TypedVar("x", s.x);
  Var weight = TypedVar("weight", s.weight);
  Expr c = Typed(relay::multiply(three, TypedConst(s.act)), s.act);
  Expr two = Typed(relay::multiply(three, Typed(relay::const_(2.0f), scalar)), scalar);
  Expr conv = Typed(relay::nn::conv2d(x, weight), s.act);
  Expr y = Typed(relay::multiply(Typed(relay::add(c, c), s.act), two), s.act);
  y = Typed(relay::add(conv, y), s.act);
  Expr z = Typed(relay::add(y, c), s.act);
  Expr z1 = Typed(relay::add(y, c), s.act);
  Expr main = TypedFunction({x, weight}, Typed(relay::add(z, z1), s.act), false);
  EXPECT_EQ(PrintMain(main), ReadGolden("tutorial_custom_pipeline.txt"));
}

// ResNet-18 as tvm.relay.testing.resnet builds it (relay_semantics.md 4.1), just enough of it to
// check the printer on the instrument tutorial's listing.
Expr ResNetBatchNorm(const Expr& x, const std::string& name, bool scale = true) {
  relay::nn::BatchNormArgs args;
  args.epsilon = 2e-5;
  args.scale = scale;
  Expr bn = relay::nn::batch_norm(x, relay::var(name + "_gamma"), relay::var(name + "_beta"),
                                  relay::var(name + "_moving_mean"),
                                  relay::var(name + "_moving_var"), args);
  return relay::get_item(bn, 0);
}

Expr ResNetConv(const Expr& x, const std::string& name, int channels, int kernel, int stride,
                int pad) {
  relay::nn::Conv2DArgs args;
  args.strides = {stride, stride};
  args.padding = {pad, pad};
  args.channels = channels;
  args.kernel_size = relay::Ints{kernel, kernel};
  return relay::nn::conv2d(x, relay::var(name + "_weight"), args);
}

Expr ResNetUnit(const Expr& x, int filters, int stride, bool dim_match, const std::string& name) {
  Expr act1 = relay::nn::relu(ResNetBatchNorm(x, name + "_bn1"));
  Expr conv1 = ResNetConv(act1, name + "_conv1", filters, 3, stride, 1);
  Expr act2 = relay::nn::relu(ResNetBatchNorm(conv1, name + "_bn2"));
  Expr conv2 = ResNetConv(act2, name + "_conv2", filters, 3, 1, 1);
  Expr shortcut = dim_match ? x : ResNetConv(act1, name + "_sc", filters, 1, stride, 0);
  return relay::add(conv2, shortcut);
}

ir::IRModule ResNet18() {
  Expr body = ResNetBatchNorm(relay::var("data", {1, 3, 224, 224}), "bn_data", false);
  body = ResNetConv(body, "conv0", 64, 7, 2, 3);
  body = relay::nn::relu(ResNetBatchNorm(body, "bn0"));
  relay::nn::Pool2DArgs pool;
  pool.pool_size = {3, 3};
  pool.strides = {2, 2};
  pool.padding = {1, 1};
  body = relay::nn::max_pool2d(body, pool);
  const int filters[] = {64, 128, 256, 512};
  for (int i = 0; i < 4; ++i) {
    std::string stage = "stage" + std::to_string(i + 1);
    body = ResNetUnit(body, filters[i], i == 0 ? 1 : 2, false, stage + "_unit1");
    body = ResNetUnit(body, filters[i], 1, true, stage + "_unit2");
  }
  body = relay::nn::relu(ResNetBatchNorm(body, "bn1"));
  body = relay::nn::batch_flatten(relay::nn::global_avg_pool2d(body));
  body = relay::nn::dense(body, relay::var("fc1_weight"), 1000);
  body = relay::nn::softmax(relay::nn::bias_add(body, relay::var("fc1_bias"), -1));
  return ir::IRModule::FromExpr(ir::MakeFunction(ir::FreeVars(body), body));
}

TEST(PrinterTutorialTest, ResNet18AsTextWithoutMetadata) {
  EXPECT_EQ(AsText(ir::InferTypes(ResNet18()), false), ReadGolden("resnet18_astext.txt"));
}

}  // namespace
}  // namespace relaypass::text
