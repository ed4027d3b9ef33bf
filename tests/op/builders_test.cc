#include <gtest/gtest.h>

#include "relaypass/op/registry.h"
#include "relaypass/relay.h"

namespace relaypass::relay {
namespace {

const ir::AttrsNode& AttrsOf(const Expr& e) {
  return *e.as<ir::CallNode>()->attrs;
}

TEST(BuildersTest, ScalarConstants) {
  Constant f = const_(2.0f);
  EXPECT_TRUE(f->is_scalar());
  EXPECT_EQ(f->data.dtype(), DataType::Float32());
  EXPECT_EQ(f->data.GetAsDouble(0), 2.0);
  Constant i = const_(int32_t{7});
  EXPECT_EQ(i->data.dtype(), DataType::Int32());
  EXPECT_EQ(i->data.GetAsDouble(0), 7.0);
  Constant d = const_(1.5, "float64");
  EXPECT_EQ(d->data.dtype(), DataType::Float(64));
  EXPECT_EQ(d->data.GetAsDouble(0), 1.5);
  EXPECT_EQ(const_(3, "int8")->data.dtype(), DataType::Int(8));
  EXPECT_EQ(const_(1, "bool")->data.GetAsDouble(0), 1.0);
  EXPECT_THROW(const_(1, "float16x"), InternalError);
  // Half precision rounds through float32, as TVM's MakeConstantScalar: 0.1 is 0x2E66 in
  // float16 and 0x3DCD in bfloat16.
  Constant h = const_(0.1, "float16");
  EXPECT_EQ(h->data.dtype(), DataType::Float(16));
  EXPECT_EQ(*static_cast<const uint16_t*>(h->data.raw_data()), 0x2E66);
  Constant b = const_(0.1, "bfloat16");
  EXPECT_EQ(b->data.dtype(), DataType::BFloat16());
  EXPECT_EQ(*static_cast<const uint16_t*>(b->data.raw_data()), 0x3DCD);
  // Read back as the nearest float16 / bfloat16 values (hand computation: 0x2E66 is
  // 0.0999755859375, 0x3DCD is 0.10009765625); SimplifyExpr reads constants this way (the Python
  // fuzzer's simplify_expr_float16_divide case).
  EXPECT_EQ(h->data.GetAsDouble(0), 0.0999755859375);
  EXPECT_EQ(b->data.GetAsDouble(0), 0.10009765625);
}

TEST(BuildersTest, VarsFunctionsTuples) {
  Var x = var("x", {1, 3}, "float16");
  EXPECT_EQ(x->name_hint, "x");
  EXPECT_EQ(ir::TypeToString(x->type_annotation), "Tensor[(1, 3), float16]");
  EXPECT_EQ(var("w")->type_annotation, nullptr);
  EXPECT_THROW(var("x", {1}, "floaty"), InternalError);
  Expr t = tuple({x, x});
  ASSERT_NE(t.as<ir::TupleNode>(), nullptr);
  EXPECT_EQ(t.as<ir::TupleNode>()->fields.size(), 2u);
  Expr g = get_item(t, 1);
  EXPECT_EQ(g.as<ir::TupleGetItemNode>()->index, 1);
  Function f = function({x}, nn::relu(x));
  EXPECT_EQ(f->params.size(), 1u);
  EXPECT_EQ(f->body.as<ir::CallNode>()->op_node()->name, "nn.relu");
}

TEST(BuildersTest, CallsUseTheRegisteredOps) {
  Var x = var("x");
  Expr call = add(x, const_(1.0f));
  const ir::CallNode* node = call.as<ir::CallNode>();
  EXPECT_TRUE(node->op.same_as(op::GetOp("add")));
  EXPECT_EQ(node->args.size(), 2u);
  EXPECT_EQ(node->attrs, nullptr);
}

// relay::call, the generic builder: any registered op by name, named attribute fields given,
// the others at the schema's defaults (TVM's ReshapeAttrs: allowzero defaults to False).
TEST(BuildersTest, GenericCallByOpName) {
  Var x = var("x", {2, 3});
  Expr reshaped = call("reshape", {x}, {{"newshape", ir::AttrValue::Ints({3, 2})}});
  EXPECT_TRUE(reshaped.as<ir::CallNode>()->op.same_as(op::GetOp("reshape")));
  EXPECT_EQ(AttrsOf(reshaped).get("newshape").as_ints(), (std::vector<int64_t>{3, 2}));
  EXPECT_FALSE(AttrsOf(reshaped).get_bool("allowzero"));
  EXPECT_EQ(call("less", {x, x}).as<ir::CallNode>()->attrs, nullptr);
  EXPECT_ANY_THROW(call("nn.no_such_op", {x}));
  EXPECT_ANY_THROW(call("reshape", {x}, {{"no_such_field", ir::AttrValue::Int(1)}}));
}

TEST(BuildersTest, PaddingNormalisedToFourValues) {
  Var x = var("x"), w = var("w");
  EXPECT_EQ(AttrsOf(nn::conv2d(x, w, {.padding = {1}})).get("padding").ToString(), "[1, 1, 1, 1]");
  EXPECT_EQ(AttrsOf(nn::conv2d(x, w, {.padding = {1, 2}})).get("padding").ToString(),
            "[1, 2, 1, 2]");
  EXPECT_EQ(AttrsOf(nn::conv2d(x, w, {.padding = {1, 2, 3, 4}})).get("padding").ToString(),
            "[1, 2, 3, 4]");
  // A user's mistake, not a bug: an Error naming the op (Python's wrapper raises TVM's
  // ValueError "Size of padding can only be 2 or 4" before it gets here).
  EXPECT_THROW(nn::conv2d(x, w, {.padding = {1, 2, 3}}), Error);
  EXPECT_EQ(
      AttrsOf(nn::max_pool2d(x, {.pool_size = {3}, .padding = {2}})).get("padding").ToString(),
      "[2, 2, 2, 2]");
  EXPECT_EQ(AttrsOf(nn::max_pool2d(x, {.pool_size = {3}})).get("pool_size").ToString(), "[3, 3]");
  EXPECT_EQ(AttrsOf(nn::avg_pool2d(x, {.pool_size = {2, 2}, .padding = {0, 1}}))
                .get("padding")
                .ToString(),
            "[0, 1, 0, 1]");
  EXPECT_EQ(AttrsOf(nn::conv2d(x, w, {.strides = {2}, .kernel_size = Ints{3}}))
                .get("kernel_size")
                .ToString(),
            "[3, 3]");
}

TEST(BuildersTest, OptionalAttrsAreNull) {
  Var x = var("x"), w = var("w");
  // The calls are kept alive: AttrsOf returns a reference into the call's attrs.
  const Expr conv_call = nn::conv2d(x, w);
  const ir::AttrsNode& conv = AttrsOf(conv_call);
  EXPECT_TRUE(conv.get("channels").is_null());
  EXPECT_TRUE(conv.get("kernel_size").is_null());
  EXPECT_EQ(conv.get_string("out_dtype"), "");
  const Expr set_call = nn::conv2d(x, w, {.channels = 64, .kernel_size = Ints{3, 3}});
  const ir::AttrsNode& set = AttrsOf(set_call);
  EXPECT_EQ(set.get("channels"), ir::AttrValue::Int(64));
  EXPECT_TRUE(AttrsOf(nn::dense(x, w)).get("units").is_null());
  EXPECT_EQ(AttrsOf(nn::dense(x, w, 10)).get("units"), ir::AttrValue::Int(10));
  EXPECT_TRUE(AttrsOf(squeeze(x)).get("axis").is_null());
  EXPECT_TRUE(AttrsOf(sum(x)).get("axis").is_null());
}

TEST(BuildersTest, PadValueDefaultsToInt32Zero) {
  Expr p = nn::pad(var("x"), {{1, 1}});
  const ir::CallNode* node = p.as<ir::CallNode>();
  ASSERT_EQ(node->args.size(), 2u);
  const ir::ConstantNode* value = node->args[1].as<ir::ConstantNode>();
  ASSERT_NE(value, nullptr);
  EXPECT_TRUE(value->is_scalar());
  EXPECT_EQ(value->data.dtype(), DataType::Int32());
  EXPECT_EQ(value->data.GetAsDouble(0), 0.0);
  EXPECT_EQ(AttrsOf(p).get_string("pad_mode"), "constant");
}

TEST(BuildersTest, ConcatenateTakesOneTuple) {
  Var a = var("a"), b = var("b");
  Expr cat = concatenate({a, b}, 1);
  const ir::CallNode* node = cat.as<ir::CallNode>();
  ASSERT_EQ(node->args.size(), 1u);
  const ir::TupleNode* t = node->args[0].as<ir::TupleNode>();
  ASSERT_NE(t, nullptr);
  EXPECT_TRUE(t->fields[0].same_as(a));
  EXPECT_TRUE(t->fields[1].same_as(b));
}

}  // namespace
}  // namespace relaypass::relay
