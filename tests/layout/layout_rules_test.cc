// The layout rule of each operator (TVM's FInferCorrectLayout), asked as the layout passes ask:
// first about the original call (no new layouts), then after a rewrite.
#include <gtest/gtest.h>

#include "relaypass/op/registry.h"
#include "relaypass/relay.h"

namespace relaypass {
namespace {

using op::Layout;
using op::Layouts;

ir::Type T(std::vector<ir::Dim> shape) {
  return ir::TensorType(std::move(shape), ir::DataType::Float32());
}

Layouts L(std::initializer_list<const char*> names) {
  Layouts out;
  for (const char* n : names) out.push_back(n == nullptr ? Layout() : Layout(n));
  return out;
}

// The layouts as strings, "" for undefined.
std::vector<std::string> Names(const Layouts& layouts) {
  std::vector<std::string> out;
  for (const Layout& l : layouts) out.push_back(l.defined() ? l.name() : "undef");
  return out;
}

struct Result {
  std::vector<std::string> inputs, outputs;
  ir::Attrs attrs;
};

// Runs `op`'s rule with the attrs of `call` (a call built by the relay:: builders).
Result Infer(const relay::Expr& call, const Layouts* new_in, const Layouts& old_in,
             const std::vector<ir::Type>& types) {
  auto* node = call.as<ir::CallNode>();
  const op::OpDef& def = *op::Def(node->op_node());
  EXPECT_TRUE(def.infer_layout) << def.name;
  op::InferLayoutOutput out = def.infer_layout(node->attrs, new_in, old_in, types);
  return {Names(out.input_layouts), Names(out.output_layouts), out.new_attrs};
}

using S = std::vector<std::string>;

relay::Expr X(const std::vector<int64_t>& shape) {
  return relay::var("x", shape);
}

TEST(LayoutRulesTest, ElementwiseFollowsTheFirstDefinedInput) {
  relay::Expr relu = relay::nn::relu(X({1, 8, 4, 4}));
  Result r = Infer(relu, nullptr, L({"NCHW"}), {T({1, 8, 4, 4})});
  EXPECT_EQ(r.inputs, S{"NCHW"});
  EXPECT_EQ(r.outputs, S{"NCHW"});
  Layouts new_in = L({"NHWC"});
  r = Infer(relu, &new_in, L({"NCHW"}), {T({1, 8, 4, 4})});
  EXPECT_EQ(r.outputs, S{"NHWC"});
  r = Infer(relu, nullptr, L({nullptr}), {T({1, 8, 4, 4})});
  EXPECT_EQ(r.outputs, S{"undef"});
  for (const char* name : {"negative", "sqrt", "rsqrt", "exp", "log", "tanh", "sigmoid", "nn.relu",
                           "clip", "cast", "nn.dropout"}) {
    EXPECT_TRUE(op::OpRegistry::Global().Find(name)->infer_layout) << name;
  }
}

TEST(LayoutRulesTest, BroadcastBeforeTheRewrite) {
  relay::Expr add = relay::add(X({1, 8, 4, 4}), X({4}));
  std::vector<ir::Type> types = {T({1, 8, 4, 4}), T({4})};
  // Both undefined: no inference.
  EXPECT_EQ(Infer(add, nullptr, L({nullptr, nullptr}), types).outputs, S{"undef"});
  // One defined: the other gets the trailing sub-layout of its rank.
  Result r = Infer(add, nullptr, L({"NCHW", nullptr}), types);
  EXPECT_EQ(r.inputs, (S{"NCHW", "W"}));
  EXPECT_EQ(r.outputs, S{"NCHW"});
  // Only the smaller one known: the output is unknown.
  EXPECT_EQ(Infer(add, nullptr, L({nullptr, "W"}), types).outputs, S{"undef"});
  // Scalars get the rank-0 layout.
  r = Infer(relay::add(X({1, 8, 4, 4}), relay::const_(1.0f)), nullptr, L({"NCHW", nullptr}),
            {T({1, 8, 4, 4}), T({})});
  EXPECT_EQ(r.inputs, (S{"NCHW", ""}));
  for (const char* name :
       {"add", "subtract", "multiply", "divide", "maximum", "minimum", "power", "less", "greater",
        "equal", "not_equal", "less_equal", "greater_equal"}) {
    EXPECT_TRUE(op::OpRegistry::Global().Find(name)->infer_layout) << name;
  }
}

TEST(LayoutRulesTest, BroadcastTransformsTheSmallerOperandLikeTheLarger) {
  relay::Expr add = relay::add(X({1, 64, 54, 54}), X({1, 64, 54, 54}));
  // Same shapes: both NCHW16c.
  Layouts new_in = L({"NCHW16c", "NCHW"});
  Result r = Infer(add, &new_in, L({"NCHW", "NCHW"}), {T({1, 64, 54, 54}), T({1, 64, 54, 54})});
  EXPECT_EQ(r.inputs, (S{"NCHW16c", "NCHW16c"}));
  EXPECT_EQ(r.outputs, S{"NCHW16c"});
  // The smaller operand has C = 1: its split factor becomes 1.
  r = Infer(add, &new_in, L({"NCHW", "NCHW"}), {T({1, 64, 54, 54}), T({1, 1, 54, 54})});
  EXPECT_EQ(r.inputs, (S{"NCHW16c", "NCHW1c"}));
  // A lower-rank operand (a per-channel bias CHW) is transformed like NCHW -> NHWC.
  new_in = L({"NHWC", "CHW"});
  r = Infer(add, &new_in, L({"NCHW", "CHW"}), {T({1, 16, 8, 8}), T({16, 1, 1})});
  EXPECT_EQ(r.inputs, (S{"NHWC", "NHWC"}));
  EXPECT_EQ(r.outputs, S{"NHWC"});
  // Other axis names are renamed consistently: NW transformed like NC -> NC1c is NW1w.
  new_in = L({"NC1c", "NW"});
  r = Infer(add, &new_in, L({"NC", "NW"}), {T({2, 3}), T({2, 3})});
  EXPECT_EQ(r.inputs, (S{"NC1c", "NW1w"}));
}

TEST(LayoutRulesTest, Conv2DDictatesItsLayouts) {
  relay::Expr conv = relay::nn::conv2d(X({1, 56, 56, 64}), X({3, 3, 64, 32}),
                                       {.data_layout = "NHWC", .kernel_layout = "HWIO"});
  Result r = Infer(conv, nullptr, L({"NCHW", nullptr}), {T({1, 56, 56, 64}), T({3, 3, 64, 32})});
  EXPECT_EQ(r.inputs, (S{"NHWC", "HWIO"}));
  EXPECT_EQ(r.outputs, S{"NHWC"});
  conv = relay::nn::conv2d(X({1, 64, 56, 56}), X({32, 64, 3, 3}),
                           {.data_layout = "NCHW16c", .out_layout = "NCHW8c"});
  r = Infer(conv, nullptr, L({nullptr, nullptr}), {T({1, 4, 56, 56, 16}), T({32, 64, 3, 3})});
  EXPECT_EQ(r.inputs, (S{"NCHW16c", "OIHW"}));
  EXPECT_EQ(r.outputs, S{"NCHW8c"});
}

TEST(LayoutRulesTest, BatchNormMovesItsAxis) {
  relay::Expr c = X({16});
  relay::Expr bn = relay::nn::batch_norm(X({1, 16, 8, 8}), c, c, c, c);
  std::vector<ir::Type> types = {T({1, 16, 8, 8}), T({16}), T({16}), T({16}), T({16})};
  Layouts old_in = L({"NCHW", nullptr, nullptr, nullptr, nullptr});
  Result r = Infer(bn, nullptr, old_in, types);
  EXPECT_EQ(r.inputs, (S{"NCHW", "C", "C", "C", "C"}));
  EXPECT_EQ(r.outputs, (S{"NCHW", "C", "C"}));
  Layouts new_in = L({"NHWC", "C", "C", "C", "C"});
  r = Infer(bn, &new_in, L({"NCHW", "C", "C", "C", "C"}), types);
  EXPECT_EQ(r.inputs[0], "NHWC");
  EXPECT_EQ(r.attrs->get_int("axis"), 3);
  EXPECT_EQ(Infer(bn, nullptr, L({nullptr, nullptr, nullptr, nullptr, nullptr}), types).outputs[0],
            "undef");
}

// TVM's NormalizationInferCorrectLayout and PReluInferCorrectLayout.
TEST(LayoutRulesTest, NormsMoveTheirAxisAndPReluKeepsItsLayout) {
  relay::Expr c = X({16});
  relay::Expr in = relay::nn::instance_norm(X({1, 16, 8, 8}), c, c);
  std::vector<ir::Type> types = {T({1, 16, 8, 8}), T({16}), T({16})};
  Result r = Infer(in, nullptr, L({"NCHW", nullptr, nullptr}), types);
  EXPECT_EQ(r.inputs, (S{"NCHW", "C", "C"}));
  EXPECT_EQ(r.outputs, S{"NCHW"});
  Layouts new_in = L({"NHWC", "C", "C"});
  r = Infer(in, &new_in, L({"NCHW", "C", "C"}), types);
  EXPECT_EQ(r.outputs, S{"NHWC"});
  EXPECT_EQ(r.attrs->get_int("axis"), 3);
  relay::Expr ln = relay::nn::layer_norm(X({1, 16, 8, 8}), X({8}), X({8}));
  r = Infer(ln, &new_in, L({"NCHW", "C", "C"}), {T({1, 16, 8, 8}), T({8}), T({8})});
  EXPECT_EQ(r.attrs->get_int("axis"), 2);  // W moves from 3 to 2 in NHWC
  relay::Expr prelu = relay::nn::prelu(X({1, 16, 8, 8}), c);
  Layouts prelu_new = L({"NHWC", "C"});
  r = Infer(prelu, &prelu_new, L({"NCHW", nullptr}), {T({1, 16, 8, 8}), T({16})});
  EXPECT_EQ(r.inputs, (S{"NCHW", "C"}));
  EXPECT_EQ(r.outputs, S{"NCHW"});
}

TEST(LayoutRulesTest, PoolingLayoutFollowsItsInput) {
  relay::Expr pool = relay::nn::max_pool2d(X({1, 8, 8, 8}), {.pool_size = {2, 2}});
  Result r = Infer(pool, nullptr, L({"NCHW"}), {T({1, 8, 8, 8})});
  EXPECT_EQ(r.outputs, S{"NCHW"});
  Layouts new_in = L({"NHWC"});
  r = Infer(pool, &new_in, L({"NCHW"}), {T({1, 8, 8, 8})});
  EXPECT_EQ(r.inputs, S{"NHWC"});
  EXPECT_EQ(r.attrs->get_string("layout"), "NHWC");
  relay::Expr global = relay::nn::global_avg_pool2d(X({1, 8, 8, 8}));
  EXPECT_EQ(Infer(global, &new_in, L({"NCHW"}), {T({1, 8, 8, 8})}).attrs->get_string("layout"),
            "NHWC");
  // A fixed out_layout wins, and must equal the layout.
  relay::Expr fixed = relay::nn::avg_pool2d(
      X({1, 8, 8, 8}), {.pool_size = {2, 2}, .layout = "NCHW", .out_layout = "NCHW"});
  EXPECT_EQ(Infer(fixed, &new_in, L({"NCHW"}), {T({1, 8, 8, 8})}).outputs, S{"NCHW"});
}

TEST(LayoutRulesTest, DenseIsNC) {
  relay::Expr dense = relay::nn::dense(X({1, 8}), X({4, 8}));
  Layouts new_in = L({"CN", "NC"});
  Result r = Infer(dense, &new_in, L({nullptr, nullptr}), {T({1, 8}), T({4, 8})});
  EXPECT_EQ(r.inputs, (S{"NC", "NC"}));
  EXPECT_EQ(r.outputs, S{"NC"});
}

TEST(LayoutRulesTest, ConcatenateMovesItsAxisWhenAllFieldsAgree) {
  relay::Expr cat = relay::concatenate({X({1, 8, 4, 4}), X({1, 8, 4, 4})}, 1);
  std::vector<ir::Type> types = {ir::TupleType({T({1, 8, 4, 4}), T({1, 8, 4, 4})})};
  Result r = Infer(cat, nullptr, L({"NCHW", nullptr}), types);
  EXPECT_EQ(r.inputs, (S{"NCHW", "NCHW"}));
  Layouts new_in = L({"NHWC", "NHWC"});
  r = Infer(cat, &new_in, L({"NCHW", "NCHW"}), types);
  EXPECT_EQ(r.outputs, S{"NHWC"});
  EXPECT_EQ(r.attrs->get_int("axis"), 3);
  new_in = L({"NHWC", "NCHW"});
  r = Infer(cat, &new_in, L({"NCHW", "NCHW"}), types);
  EXPECT_EQ(r.inputs, (S{"NCHW", "NCHW"}));
  EXPECT_EQ(r.attrs->get_int("axis"), 1);
  // Concatenating along a sub-axis is not supported.
  EXPECT_EQ(Infer(relay::concatenate({X({1, 2, 4, 4, 4})}, 4), nullptr, L({"NCHW4c"}),
                  {ir::TupleType({T({1, 2, 4, 4, 4})})})
                .outputs,
            S{"undef"});
}

TEST(LayoutRulesTest, TransposeReexpressesItsAxes) {
  relay::Expr tr = relay::transpose(X({1, 8, 4, 2}), std::vector<int64_t>{0, 2, 3, 1});
  Result r = Infer(tr, nullptr, L({"NCHW"}), {T({1, 8, 4, 2})});
  EXPECT_EQ(r.inputs, S{"NCHW"});
  EXPECT_EQ(r.outputs, S{"NHWC"});
  Layouts new_in = L({"NHWC"});
  r = Infer(tr, &new_in, L({"NCHW"}), {T({1, 8, 4, 2})});
  EXPECT_EQ(r.inputs, S{"NHWC"});
  EXPECT_EQ(r.outputs, S{"NHWC"});
  EXPECT_EQ(r.attrs->get_ints("axes"), (std::vector<int64_t>{0, 1, 2, 3}));
  // axes=None becomes explicit.
  r = Infer(relay::transpose(X({1, 8, 4, 2})), nullptr, L({"NCHW"}), {T({1, 8, 4, 2})});
  EXPECT_EQ(r.outputs, S{"WHCN"});
  EXPECT_EQ(r.attrs->get_ints("axes"), (std::vector<int64_t>{3, 2, 1, 0}));
  EXPECT_EQ(Infer(tr, nullptr, L({nullptr}), {T({1, 8, 4, 2})}).outputs, S{"undef"});
}

TEST(LayoutRulesTest, PadReordersItsWidthsUnlessASplitAxisIsPadded) {
  relay::Expr pad = relay::nn::pad(X({1, 8, 4, 4}), {{0, 0}, {0, 0}, {1, 1}, {2, 2}});
  std::vector<ir::Type> types = {T({1, 8, 4, 4}), ir::ScalarType(ir::DataType::Int32())};
  Result r = Infer(pad, nullptr, L({"NCHW", nullptr}), types);
  EXPECT_EQ(r.inputs, (S{"NCHW", ""}));
  Layouts new_in = L({"NHWC", ""});
  r = Infer(pad, &new_in, L({"NCHW", ""}), types);
  EXPECT_EQ(r.outputs, S{"NHWC"});
  EXPECT_EQ(r.attrs->get("pad_width").ToString(), "[[0, 0], [1, 1], [2, 2], [0, 0]]");
  new_in = L({"NCHW4c", ""});
  EXPECT_EQ(Infer(pad, &new_in, L({"NCHW", ""}), types).outputs, S{"NCHW4c"});
  relay::Expr pad_c = relay::nn::pad(X({1, 8, 4, 4}), {{0, 0}, {1, 1}, {0, 0}, {0, 0}});
  r = Infer(pad_c, &new_in, L({"NCHW", ""}), types);
  EXPECT_EQ(r.outputs, S{"NCHW"});  // C is padded: the split layout is refused
}

TEST(LayoutRulesTest, SqueezeDropsItsAxes) {
  relay::Expr sq = relay::squeeze(X({1, 8, 1, 1}));
  Result r = Infer(sq, nullptr, L({"NCHW"}), {T({1, 8, 1, 1})});
  EXPECT_EQ(r.outputs, S{"C"});
  Layouts new_in = L({"NHWC"});
  r = Infer(relay::squeeze(X({1, 8, 1, 1}), std::vector<int64_t>{2, 3}), &new_in, L({"NCHW"}),
            {T({1, 8, 1, 1})});
  EXPECT_EQ(r.outputs, S{"NC"});
  EXPECT_EQ(r.attrs->get_ints("axis"), (std::vector<int64_t>{1, 2}));
}

TEST(LayoutRulesTest, ReduceFollowsItsAxesIntoSplitLayouts) {
  relay::Expr sum = relay::sum(X({1, 32, 4, 4}), std::vector<int64_t>{1});
  Result r = Infer(sum, nullptr, L({"NCHW"}), {T({1, 32, 4, 4})});
  EXPECT_EQ(r.outputs, S{"NHW"});
  Layouts new_in = L({"NCHW8c"});
  r = Infer(sum, &new_in, L({"NCHW"}), {T({1, 32, 4, 4})});
  EXPECT_EQ(r.inputs, S{"NCHW8c"});
  EXPECT_EQ(r.outputs, S{"NHW"});
  EXPECT_EQ(r.attrs->get_ints("axis"), (std::vector<int64_t>{1, 4}));
  relay::Expr mean = relay::mean(X({1, 32, 4, 4}), std::vector<int64_t>{1}, true);
  EXPECT_EQ(Infer(mean, &new_in, L({"NCHW"}), {T({1, 32, 4, 4})}).outputs, S{"NCHW1c"});
  // Reducing everything without keepdims leaves no layout: not converted.
  EXPECT_EQ(Infer(relay::sum(X({1, 32, 4, 4})), nullptr, L({"NCHW"}), {T({1, 32, 4, 4})}).outputs,
            S{"undef"});
}

TEST(LayoutRulesTest, OpsWithoutRules) {
  for (const char* name : {"nn.bias_add", "nn.softmax", "nn.batch_flatten", "expand_dims",
                           "reshape", "layout_transform"}) {
    EXPECT_FALSE(op::OpRegistry::Global().Find(name)->infer_layout) << name;
  }
}

}  // namespace
}  // namespace relaypass
