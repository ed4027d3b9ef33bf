// The matcher, on the cases of TVM v0.13's tests/python/relay/test_dataflow_pattern.py
// (test_match_op, test_match_call_commutive, test_match_tuple, test_match_if, test_match_let,
// test_match_alt, test_match_optional, test_match_type / dtype / shape, test_match_attr,
// test_match_dominator, ...): same graphs, same expected answers.
#include <gtest/gtest.h>

#include "relaypass/ir/type_infer.h"
#include "relaypass/op/registry.h"
#include "relaypass/pattern/match.h"
#include "relaypass/relay.h"

namespace relaypass::pattern {
namespace {

using ir::AttrValue;
using ir::Expr;
namespace relay = relaypass::relay;

TEST(PatternMatchTest, Op) {
  EXPECT_TRUE(Match(IsOp("add"), op::GetOp("add")));
  EXPECT_FALSE(Match(IsOp("add"), op::GetOp("subtract")));
  EXPECT_TRUE(Match(IsOp("add") | IsOp("subtract"), op::GetOp("subtract")));
}

TEST(PatternMatchTest, CallAndCommutative) {
  Expr x = relay::var("x"), y = relay::var("y");
  EXPECT_TRUE(Match(IsOp("add")({Wildcard(), Wildcard()}), relay::add(x, y)));
  EXPECT_FALSE(Match(IsOp("add")({Wildcard(), Wildcard()}), relay::subtract(x, y)));
  DFPattern add = IsOp("add")({IsVar("x"), IsVar("y")});
  EXPECT_TRUE(Match(add, relay::add(x, y)));
  EXPECT_TRUE(Match(add, relay::add(y, x)));  // add and multiply commute
  DFPattern sub = IsOp("subtract")({IsVar("x"), IsVar("y")});
  EXPECT_TRUE(Match(sub, relay::subtract(x, y)));
  EXPECT_FALSE(Match(sub, relay::subtract(y, x)));
  // Any arguments.
  EXPECT_TRUE(Match(IsOp("add").CallAnyArgs(), relay::add(x, y)));
  // Wrong arity.
  EXPECT_FALSE(Match(IsOp("add")({Wildcard()}), relay::add(x, y)));
}

TEST(PatternMatchTest, SamePatternNodeMatchesOneExpression) {
  Expr x = relay::var("x"), y = relay::var("y");
  DFPattern w = Wildcard();
  DFPattern p = IsOp("add")({w, w});
  EXPECT_TRUE(Match(p, relay::add(x, x)));
  EXPECT_FALSE(Match(p, relay::add(x, y)));
}

TEST(PatternMatchTest, AssociativeDivideMultiply) {
  // test_match_commutative / test_match_nested: (a * b) / c also matches a * (b / c).
  Expr a = relay::var("a"), b = relay::var("b"), c = relay::var("c");
  DFPattern pa = IsVar("a"), pb = IsVar("b"), pc = IsVar("c");
  DFPattern div_of_mul = IsOp("divide")({IsOp("multiply")({pa, pb}), pc});
  EXPECT_TRUE(Match(div_of_mul, relay::divide(relay::multiply(a, b), c)));
  EXPECT_TRUE(Match(div_of_mul, relay::multiply(a, relay::divide(b, c))));
  EXPECT_TRUE(Match(div_of_mul, relay::multiply(relay::divide(a, c), b)));
  DFPattern mul_of_div = IsOp("multiply")({IsOp("divide")({pa, pc}), pb});
  EXPECT_TRUE(Match(mul_of_div, relay::divide(relay::multiply(a, b), c)));
}

TEST(PatternMatchTest, VarConstantExpr) {
  Expr x = relay::var("x");
  EXPECT_TRUE(Match(IsVar(), x));
  EXPECT_TRUE(Match(IsVar("x"), x));
  EXPECT_FALSE(Match(IsVar("y"), x));
  EXPECT_FALSE(Match(IsVar(), relay::const_(1.0f)));
  EXPECT_TRUE(Match(IsConstant(), relay::const_(1.0f)));
  EXPECT_FALSE(Match(IsConstant(), x));
  // is_expr: structural equality.
  EXPECT_TRUE(
      Match(IsExpr(relay::add(x, relay::const_(1.0f))), relay::add(x, relay::const_(1.0f))));
  EXPECT_FALSE(
      Match(IsExpr(relay::add(x, relay::const_(1.0f))), relay::add(x, relay::const_(2.0f))));
}

TEST(PatternMatchTest, TupleAndGetItem) {
  Expr x = relay::var("x"), y = relay::var("y"), z = relay::var("z");
  Expr tuple = relay::tuple({x, y, z});
  EXPECT_TRUE(Match(IsTuple({IsVar("x"), Wildcard(), IsVar("z")}), tuple));
  EXPECT_FALSE(Match(IsTuple({IsVar("x"), Wildcard()}), tuple));
  EXPECT_TRUE(Match(IsTupleAny(), tuple));
  Expr item = relay::get_item(tuple, 1);
  EXPECT_TRUE(Match(IsTupleGetItem(IsTupleAny(), 1), item));
  EXPECT_TRUE(Match(IsTupleGetItem(IsTupleAny()), item));
  EXPECT_FALSE(Match(IsTupleGetItem(IsTupleAny(), 2), item));
}

TEST(PatternMatchTest, IfAndLet) {
  Expr x = relay::var("x"), y = relay::var("y"), cond = relay::var("cond");
  Expr if_expr = ir::MakeIf(cond, x, y);
  EXPECT_TRUE(Match(IsIf(IsVar("cond"), IsVar("x"), IsVar("y")), if_expr));
  EXPECT_FALSE(Match(IsIf(IsVar("cond"), IsVar("y"), IsVar("x")), if_expr));
  ir::Var v = relay::var("v");
  Expr let = ir::MakeLet(v, x, relay::add(v, y));
  EXPECT_TRUE(Match(IsLet(IsVar("v"), IsVar("x"), IsOp("add")({Wildcard(), Wildcard()})), let));
  EXPECT_FALSE(Match(IsLet(IsVar("v"), IsVar("y"), Wildcard()), let));
}

TEST(PatternMatchTest, AltAndOptional) {
  Expr x = relay::var("x"), w = relay::var("w");
  Expr conv = relay::nn::conv2d(x, w);
  DFPattern conv_p = IsOp("nn.conv2d")({Wildcard(), Wildcard()});
  DFPattern p = conv_p.Optional([](const DFPattern& c) { return IsOp("nn.relu")({c}); });
  EXPECT_TRUE(Match(p, conv));
  EXPECT_TRUE(Match(p, relay::nn::relu(conv)));
  EXPECT_FALSE(Match(p, relay::nn::relu(x)));
  EXPECT_FALSE(Match(p, relay::sigmoid(conv)));
  DFPattern either = IsOp("nn.relu")({Wildcard()}) | IsOp("sigmoid")({Wildcard()});
  EXPECT_TRUE(Match(either, relay::sigmoid(x)));
  EXPECT_FALSE(Match(either, relay::tanh(x)));
}

TEST(PatternMatchTest, TypeDtypeShape) {
  Expr x = relay::var("x", {10, 10}, "float32");
  Expr typed = ir::InferExprTypes(relay::add(x, x));
  EXPECT_TRUE(Match(HasType(ir::TensorType({10, 10}, ir::DataType::Float32())), typed));
  EXPECT_FALSE(Match(HasType(ir::TensorType({10, 10}, ir::DataType::Int32())), typed));
  EXPECT_TRUE(Match(HasDtype(ir::DataType::Float32()), typed));
  EXPECT_FALSE(Match(HasDtype(ir::DataType::Float(16)), typed));
  EXPECT_TRUE(Match(HasShape({10, 10}), typed));
  EXPECT_FALSE(Match(HasShape({10, 5}), typed));
  // An untyped expression is typed on demand, as TVM's matcher does.
  EXPECT_TRUE(Match(IsOp("add")({Wildcard(), Wildcard()}).HasShape({10, 10}), relay::add(x, x)));
}

TEST(PatternMatchTest, Attrs) {
  Expr x = relay::var("x"), w = relay::var("w");
  Expr conv = relay::nn::conv2d(x, w);
  DFPattern conv_p = IsOp("nn.conv2d")({Wildcard(), Wildcard()});
  EXPECT_TRUE(Match(conv_p.HasAttr({{"data_layout", AttrValue::Str("NCHW")}}), conv));
  EXPECT_FALSE(Match(conv_p.HasAttr({{"data_layout", AttrValue::Str("NHWC")}}), conv));
  EXPECT_FALSE(Match(conv_p.HasAttr({{"no_such_attr", AttrValue::Int(1)}}), conv));
  EXPECT_TRUE(Match(conv_p.HasAttr({{"strides", AttrValue::Ints({1, 1})}}), conv));
  // Op attributes: TOpPattern (kElemWise = 0, kOutEWiseFusable = 4).
  EXPECT_TRUE(
      Match(IsOp("nn.relu").HasAttr({{"TOpPattern", AttrValue::Int(0)}}), op::GetOp("nn.relu")));
  EXPECT_TRUE(
      Match(Wildcard().HasAttr({{"TOpPattern", AttrValue::Int(4)}}), op::GetOp("nn.conv2d")));
  // Function attributes.
  ir::Var p = relay::var("p");
  Expr fn = ir::MakeFunction({p}, p, nullptr, {{"Composite", AttrValue::Str("dnnl.relu")}});
  EXPECT_TRUE(Match(Wildcard().HasAttr({{"Composite", AttrValue::Str("dnnl.relu")}}), fn));
  EXPECT_FALSE(Match(Wildcard().HasAttr({{"Composite", AttrValue::Str("dnnl.add")}}), fn));
}

// test_match_dominator: conv2d dominating an add through unary elementwise ops.
TEST(PatternMatchTest, Dominator) {
  DFPattern is_conv2d = IsOp("nn.conv2d")({Wildcard(), Wildcard()});
  DFPattern is_unary_elemwise =
      Wildcard().HasAttr({{"TOpPattern", AttrValue::Int(0)}})({Wildcard()});
  DFPattern reduction = IsOp("add")({Wildcard(), Wildcard()});
  DFPattern diamond = Dominates(is_conv2d, is_unary_elemwise, reduction);

  Expr inp = relay::var("input"), weight = relay::var("weight");
  Expr conv2d = relay::nn::conv2d(inp, weight);
  // Classic diamond.
  Expr relu = relay::nn::relu(relay::nn::relu(conv2d));
  Expr leaky = relay::nn::leaky_relu(conv2d, 0);
  EXPECT_TRUE(Match(diamond, relay::add(relu, leaky)));
  // Deeper branch.
  Expr deep = relay::nn::relu(relay::tanh(relay::nn::relu(conv2d)));
  EXPECT_TRUE(Match(diamond, relay::add(deep, leaky)));
  // A branch through a non-elementwise op (test_not_match_dominator).
  Expr bad = relay::nn::relu(relay::add(relay::nn::relu(conv2d), relay::const_(1.0f)));
  EXPECT_FALSE(Match(diamond, relay::add(bad, leaky)));
  // No conv2d at the top.
  Expr other = relay::nn::relu(relay::nn::relu(inp));
  EXPECT_FALSE(Match(diamond, relay::add(other, relay::nn::leaky_relu(inp, 0))));
}

}  // namespace
}  // namespace relaypass::pattern
