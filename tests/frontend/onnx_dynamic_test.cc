// Values known only at run time in the ONNX importer: a shape, pads, repeats, starts, k or If
// condition given as a graph input becomes TVM's dynamic ops (dyn.reshape, dyn.strided_slice, a
// Relay If, ...), and a dynamic input dimension is `?` with the shape arithmetic on it kept in
// the graph. Each model is imported ONCE and run with two different inputs; the expected values
// are hand-computed in the test (NumPy's semantics for each op, written out as index loops).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "onnx_builder.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/frontend/onnx.h"
#include "relaypass/text/printer.h"

namespace relaypass::frontend {
namespace {

using test::Floats;
using test::OnnxGraph;

ir::NDArray Int64s(const std::vector<int64_t>& values) {
  ir::NDArray a = ir::NDArray::Empty({static_cast<int64_t>(values.size())}, ir::DataType::Int64());
  std::copy(values.begin(), values.end(), a.mutable_data<int64_t>());
  return a;
}
// 0, 1, 2, ... in `shape`.
ir::NDArray Iota(const ir::Shape& shape) {
  ir::NDArray a = ir::NDArray::Empty(shape, ir::DataType::Float32());
  for (int64_t i = 0; i < a.size(); ++i) a.mutable_data<float>()[i] = static_cast<float>(i);
  return a;
}
std::vector<float> Values(const ir::NDArray& a) {
  std::vector<float> out;
  for (int64_t i = 0; i < a.size(); ++i) out.push_back(static_cast<float>(a.GetAsDouble(i)));
  return out;
}

std::vector<ir::NDArray> RunModel(const OnnxModel& m, const std::vector<ir::NDArray>& args) {
  return eval::RunMain(m.mod, args);
}

TEST(OnnxDynamicTest, ReshapeShapeFromGraphInput) {
  OnnxGraph g;
  g.Input("x", {2, 3, 4});
  g.Input("shape", {2}, onnx::TensorProto::INT64);
  g.Node("Reshape", {"x", "shape"}, {"y"});
  g.Output("y");
  const OnnxModel m = FromOnnxBytes(g.Bytes());
  const std::string printed = text::PrettyPrint(m.mod);
  EXPECT_NE(printed.find("dyn.reshape(%x, %shape"), std::string::npos) << printed;
  EXPECT_NE(printed.find("Tensor[(?, ?), float32]"), std::string::npos) << printed;
  // Reshape keeps the row-major order: the values stay 0..23.
  auto out = RunModel(m, {Iota({2, 3, 4}), Int64s({4, 6})});
  EXPECT_EQ(out[0].shape(), (ir::Shape{4, 6}));
  EXPECT_EQ(Values(out[0]), Values(Iota({24})));
  out = RunModel(m, {Iota({2, 3, 4}), Int64s({-1, 2})});  // -1: 24 / 2 = 12
  EXPECT_EQ(out[0].shape(), (ir::Shape{12, 2}));
  EXPECT_EQ(Values(out[0]), Values(Iota({24})));
}

TEST(OnnxDynamicTest, ExpandShapeFromGraphInput) {
  OnnxGraph g;
  g.Input("x", {3, 1});
  g.Input("shape", {3}, onnx::TensorProto::INT64);
  g.Node("Expand", {"x", "shape"}, {"y"});
  g.Output("y");
  const OnnxModel m = FromOnnxBytes(g.Bytes());
  EXPECT_NE(text::PrettyPrint(m.mod).find("dyn.broadcast_to"), std::string::npos);
  const ir::NDArray x = Floats({3, 1}, {1, 2, 3});
  // numpy.broadcast_to(x, (2, 3, 4)): out[b][i][j] = x[i].
  auto out = RunModel(m, {x, Int64s({2, 1, 4})});
  ASSERT_EQ(out[0].shape(), (ir::Shape{2, 3, 4}));
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t i = 0; i < 3; ++i)
      for (int64_t j = 0; j < 4; ++j)
        EXPECT_EQ(out[0].data<float>()[(b * 3 + i) * 4 + j], static_cast<float>(i + 1));
  // ONNX's Expand broadcasts both ways: shape (1, 1, 1) keeps x's (3, 1) under a new axis.
  out = RunModel(m, {x, Int64s({1, 1, 1})});
  EXPECT_EQ(out[0].shape(), (ir::Shape{1, 3, 1}));
  EXPECT_EQ(Values(out[0]), (std::vector<float>{1, 2, 3}));
}

TEST(OnnxDynamicTest, TileRepeatsFromGraphInput) {
  OnnxGraph g;
  g.Input("x", {2, 2});
  g.Input("repeats", {2}, onnx::TensorProto::INT64);
  g.Node("Tile", {"x", "repeats"}, {"y"});
  g.Output("y");
  const OnnxModel m = FromOnnxBytes(g.Bytes());
  EXPECT_NE(text::PrettyPrint(m.mod).find("dyn.tile"), std::string::npos);
  const ir::NDArray x = Floats({2, 2}, {1, 2, 3, 4});
  auto out = RunModel(m, {x, Int64s({1, 2})});  // numpy.tile(x, (1, 2))
  EXPECT_EQ(out[0].shape(), (ir::Shape{2, 4}));
  EXPECT_EQ(Values(out[0]), (std::vector<float>{1, 2, 1, 2, 3, 4, 3, 4}));
  out = RunModel(m, {x, Int64s({2, 1})});  // numpy.tile(x, (2, 1))
  EXPECT_EQ(out[0].shape(), (ir::Shape{4, 2}));
  EXPECT_EQ(Values(out[0]), (std::vector<float>{1, 2, 3, 4, 1, 2, 3, 4}));
}

TEST(OnnxDynamicTest, SliceStartsEndsAxesStepsFromGraphInputs) {
  OnnxGraph g;
  g.Input("x", {3, 4});
  for (const char* name : {"starts", "ends", "axes", "steps"})
    g.Input(name, {1}, onnx::TensorProto::INT64);
  g.Node("Slice", {"x", "starts", "ends", "axes", "steps"}, {"y"});
  g.Output("y");
  const OnnxModel m = FromOnnxBytes(g.Bytes());
  EXPECT_NE(text::PrettyPrint(m.mod).find("dyn.strided_slice"), std::string::npos);
  const ir::NDArray x = Iota({3, 4});
  // x[:, 1:3] = [[1, 2], [5, 6], [9, 10]]
  auto out = RunModel(m, {x, Int64s({1}), Int64s({3}), Int64s({1}), Int64s({1})});
  EXPECT_EQ(out[0].shape(), (ir::Shape{3, 2}));
  EXPECT_EQ(Values(out[0]), (std::vector<float>{1, 2, 5, 6, 9, 10}));
  // x[::-1] through a negative axis (-2 is axis 0) and an end past the start: rows reversed.
  out = RunModel(m, {x, Int64s({-1}), Int64s({-100}), Int64s({-2}), Int64s({-1})});
  EXPECT_EQ(out[0].shape(), (ir::Shape{3, 4}));
  EXPECT_EQ(Values(out[0]), (std::vector<float>{8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3}));
}

TEST(OnnxDynamicTest, PadPadsFromGraphInput) {
  OnnxGraph g;
  g.Input("x", {2, 2});
  g.Input("pads", {4}, onnx::TensorProto::INT64);
  g.Node("Pad", {"x", "pads"}, {"y"});
  g.Output("y");
  const OnnxModel m = FromOnnxBytes(g.Bytes());
  EXPECT_NE(text::PrettyPrint(m.mod).find("dyn.nn.pad"), std::string::npos);
  const ir::NDArray x = Floats({2, 2}, {1, 2, 3, 4});
  // ONNX pads [begin0, begin1, end0, end1]: numpy.pad(x, ((0, 1), (0, 1))).
  auto out = RunModel(m, {x, Int64s({0, 0, 1, 1})});
  EXPECT_EQ(out[0].shape(), (ir::Shape{3, 3}));
  EXPECT_EQ(Values(out[0]), (std::vector<float>{1, 2, 0, 3, 4, 0, 0, 0, 0}));
  out = RunModel(m, {x, Int64s({1, 0, 0, 0})});  // numpy.pad(x, ((1, 0), (0, 0)))
  EXPECT_EQ(out[0].shape(), (ir::Shape{3, 2}));
  EXPECT_EQ(Values(out[0]), (std::vector<float>{0, 0, 1, 2, 3, 4}));
}

TEST(OnnxDynamicTest, ConstantOfShapeFromGraphInput) {
  OnnxGraph g;
  g.Input("shape", {2}, onnx::TensorProto::INT64);
  onnx::NodeProto& n = g.Node("ConstantOfShape", {"shape"}, {"y"});
  auto* a = n.add_attribute();
  a->set_name("value");
  a->set_type(onnx::AttributeProto::TENSOR);
  a->mutable_t()->set_data_type(onnx::TensorProto::FLOAT);
  a->mutable_t()->add_dims(1);
  a->mutable_t()->add_float_data(2.5f);
  g.Output("y");
  const OnnxModel m = FromOnnxBytes(g.Bytes());
  EXPECT_NE(text::PrettyPrint(m.mod).find("dyn.full"), std::string::npos);
  auto out = RunModel(m, {Int64s({2, 3})});
  EXPECT_EQ(out[0].shape(), (ir::Shape{2, 3}));
  EXPECT_EQ(Values(out[0]), std::vector<float>(6, 2.5f));
  out = RunModel(m, {Int64s({1, 4})});
  EXPECT_EQ(out[0].shape(), (ir::Shape{1, 4}));
  EXPECT_EQ(Values(out[0]), std::vector<float>(4, 2.5f));
}

TEST(OnnxDynamicTest, TopKFromGraphInput) {
  OnnxGraph g;
  g.Input("x", {5});
  g.Input("k", {1}, onnx::TensorProto::INT64);
  g.Node("TopK", {"x", "k"}, {"values", "indices"});
  g.Output("values").Output("indices");
  const OnnxModel m = FromOnnxBytes(g.Bytes());
  EXPECT_NE(text::PrettyPrint(m.mod).find("dyn.topk"), std::string::npos);
  const ir::NDArray x = Floats({5}, {3, 1, 4, 1, 5});
  // The k largest, in descending order, and their positions.
  auto out = RunModel(m, {x, Int64s({2})});
  EXPECT_EQ(Values(out[0]), (std::vector<float>{5, 4}));
  EXPECT_EQ(Values(out[1]), (std::vector<float>{4, 2}));
  EXPECT_EQ(out[1].dtype(), ir::DataType::Int64());
  out = RunModel(m, {x, Int64s({3})});
  EXPECT_EQ(Values(out[0]), (std::vector<float>{5, 4, 3}));
  EXPECT_EQ(Values(out[1]), (std::vector<float>{4, 2, 0}));
}

// If on a graph-input condition: a Relay If whose branches read the outer x (x + x, x * x).
TEST(OnnxDynamicTest, IfConditionFromGraphInput) {
  OnnxGraph g;
  g.Input("cond", {}, onnx::TensorProto::BOOL);
  g.Input("x", {3});
  onnx::NodeProto& n = g.Node("If", {"cond"}, {"y"});
  auto branch = [&](const std::string& name, const std::string& op) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::GRAPH);
    onnx::GraphProto* b = a->mutable_g();
    b->set_name(name);
    onnx::NodeProto* node = b->add_node();
    node->set_op_type(op);
    node->add_input("x");
    node->add_input("x");
    node->add_output(name + "_out");
    onnx::ValueInfoProto* o = b->add_output();
    o->set_name(name + "_out");
    o->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
    o->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(3);
  };
  branch("then_branch", "Add");
  branch("else_branch", "Mul");
  g.Output("y");
  const OnnxModel m = FromOnnxBytes(g.Bytes());
  const std::string printed = text::PrettyPrint(m.mod);
  EXPECT_NE(printed.find("if (%cond)"), std::string::npos) << printed;
  const ir::NDArray x = Floats({3}, {1, 2, 3});
  auto out = RunModel(m, {ir::NDArray::Scalar<bool>(true, ir::DataType::Bool()), x});
  EXPECT_EQ(Values(out[0]), (std::vector<float>{2, 4, 6}));
  out = RunModel(m, {ir::NDArray::Scalar<bool>(false, ir::DataType::Bool()), x});
  EXPECT_EQ(Values(out[0]), (std::vector<float>{1, 4, 9}));
}

// Loop with a graph-input trip count: TVM's while_loop (a let-bound recursive function). The
// body adds x to the carried value and emits it as a scan output; after M trips the carried
// value is M * x and the scan output stacks x, 2x, ..., Mx.
TEST(OnnxDynamicTest, LoopTripCountFromGraphInput) {
  OnnxGraph g;
  g.Input("M", {}, onnx::TensorProto::INT64);
  g.Input("x", {2});
  g.Initializer("zeros", {2}, {0, 0});
  onnx::NodeProto& n = g.Node("Loop", {"M", "", "zeros"}, {"y", "ys"});
  auto* a = n.add_attribute();
  a->set_name("body");
  a->set_type(onnx::AttributeProto::GRAPH);
  onnx::GraphProto* body = a->mutable_g();
  body->set_name("body");
  auto value = [](onnx::ValueInfoProto* v, const std::string& name, int elem,
                  const std::vector<int64_t>& shape) {
    v->set_name(name);
    v->mutable_type()->mutable_tensor_type()->set_elem_type(elem);
    auto* s = v->mutable_type()->mutable_tensor_type()->mutable_shape();
    for (int64_t d : shape) s->add_dim()->set_dim_value(d);
  };
  value(body->add_input(), "iter", onnx::TensorProto::INT64, {});
  value(body->add_input(), "cond_in", onnx::TensorProto::BOOL, {});
  value(body->add_input(), "y_in", onnx::TensorProto::FLOAT, {2});
  auto node = [&](const std::string& op, const std::vector<std::string>& ins,
                  const std::string& out) {
    onnx::NodeProto* b = body->add_node();
    b->set_op_type(op);
    for (const std::string& i : ins) b->add_input(i);
    b->add_output(out);
  };
  node("Identity", {"cond_in"}, "cond_out");
  node("Add", {"y_in", "x"}, "y_out");
  node("Identity", {"y_out"}, "y_scan");
  value(body->add_output(), "cond_out", onnx::TensorProto::BOOL, {});
  value(body->add_output(), "y_out", onnx::TensorProto::FLOAT, {2});
  value(body->add_output(), "y_scan", onnx::TensorProto::FLOAT, {2});
  g.Output("y").Output("ys");
  const OnnxModel m = FromOnnxBytes(g.Bytes());
  const std::string printed = text::PrettyPrint(m.mod);
  EXPECT_NE(printed.find("%while_loop"), std::string::npos) << printed;
  const ir::NDArray x = Floats({2}, {1, 10});
  auto out = RunModel(m, {ir::NDArray::Scalar<int64_t>(3, ir::DataType::Int64()), x});
  EXPECT_EQ(Values(out[0]), (std::vector<float>{3, 30}));
  EXPECT_EQ(out[1].shape(), (ir::Shape{3, 2}));
  EXPECT_EQ(Values(out[1]), (std::vector<float>{1, 10, 2, 20, 3, 30}));
  out = RunModel(m, {ir::NDArray::Scalar<int64_t>(1, ir::DataType::Int64()), x});
  EXPECT_EQ(Values(out[0]), (std::vector<float>{1, 10}));
  EXPECT_EQ(out[1].shape(), (ir::Shape{1, 2}));
}

// PyTorch's exported attention splits heads with Reshape(x, Concat(Shape(x)[0], Shape(x)[1],
// [2, 2])): with a `?` sequence axis the shape arithmetic stays in the graph (shape_of, take,
// concatenate) and one import runs at two sequence lengths.
TEST(OnnxDynamicTest, SequenceAxisShapeArithmeticAtRunTime) {
  OnnxGraph g;
  g.DynamicInput("x", {1, 1, 4}, 1);
  g.IntInitializer("zero", {0});
  g.IntInitializer("one", {1});
  g.IntInitializer("heads", {2, 2});
  g.Node("Shape", {"x"}, {"s"});
  g.Node("Gather", {"s", "zero"}, {"b"});
  g.Node("Gather", {"s", "one"}, {"n"});
  onnx::NodeProto& c = g.Node("Concat", {"b", "n", "heads"}, {"newshape"});
  OnnxGraph::IntAttr(c, "axis", 0);
  g.Node("Reshape", {"x", "newshape"}, {"r"});
  onnx::NodeProto& t = g.Node("Transpose", {"r"}, {"y"});
  OnnxGraph::IntsAttr(t, "perm", {0, 2, 1, 3});
  g.Output("y");
  const OnnxModel m = FromOnnxBytes(g.Bytes());
  const std::string printed = text::PrettyPrint(m.mod);
  EXPECT_NE(printed.find("%x: Tensor[(1, ?, 4), float32]"), std::string::npos) << printed;
  EXPECT_NE(printed.find("shape_of(%x"), std::string::npos) << printed;
  EXPECT_NE(printed.find("dyn.reshape"), std::string::npos) << printed;
  for (int64_t len : {3, 5}) {
    auto out = RunModel(m, {Iota({1, len, 4})});
    // y[0][h][s][d] = x[0][s][2 h + d] (numpy: x.reshape(1, len, 2, 2).transpose(0, 2, 1, 3)).
    ASSERT_EQ(out[0].shape(), (ir::Shape{1, 2, len, 2}));
    for (int64_t h = 0; h < 2; ++h)
      for (int64_t s = 0; s < len; ++s)
        for (int64_t d = 0; d < 2; ++d)
          EXPECT_EQ(out[0].data<float>()[(h * len + s) * 2 + d],
                    static_cast<float>(s * 4 + 2 * h + d));
  }
  // A shape given by the caller still fixes the dim: the arithmetic folds to constants.
  OnnxOptions options;
  options.shape["x"] = {1, 3, 4};
  const std::string fixed = text::PrettyPrint(FromOnnxBytes(g.Bytes(), options).mod);
  EXPECT_EQ(fixed.find("shape_of"), std::string::npos) << fixed;
  EXPECT_EQ(fixed.find("dyn."), std::string::npos) << fixed;
}

// MatMul on a `?` sequence axis (a transformer's projections and attention scores): x [1, S, 4]
// times W [4, 2] (dense, output reshaped at run time) and x times x^T [1, 4, S] (batch_matmul
// on reverse_reshape'd operands), checked against hand-written matrix products at S = 2 and 3.
TEST(OnnxDynamicTest, MatMulOnSequenceAxis) {
  OnnxGraph g;
  g.DynamicInput("x", {1, 1, 4}, 1);
  const std::vector<float> w{1, 0, 0, 1, 1, 1, 2, -1};  // [4, 2], row-major
  g.Initializer("w", {4, 2}, w);
  g.Node("MatMul", {"x", "w"}, {"p"});
  onnx::NodeProto& t = g.Node("Transpose", {"x"}, {"xt"});
  OnnxGraph::IntsAttr(t, "perm", {0, 2, 1});
  g.Node("MatMul", {"x", "xt"}, {"scores"});
  g.Output("p").Output("scores");
  const OnnxModel m = FromOnnxBytes(g.Bytes());
  for (int64_t len : {2, 3}) {
    const ir::NDArray x = Iota({1, len, 4});
    const float* xv = x.data<float>();
    auto out = RunModel(m, {x});
    ASSERT_EQ(out[0].shape(), (ir::Shape{1, len, 2}));
    ASSERT_EQ(out[1].shape(), (ir::Shape{1, len, len}));
    for (int64_t i = 0; i < len; ++i) {
      for (int64_t j = 0; j < 2; ++j) {
        float want = 0;
        for (int64_t k = 0; k < 4; ++k) want += xv[i * 4 + k] * w[k * 2 + j];
        EXPECT_EQ(out[0].data<float>()[i * 2 + j], want);
      }
      for (int64_t j = 0; j < len; ++j) {
        float want = 0;
        for (int64_t k = 0; k < 4; ++k) want += xv[i * 4 + k] * xv[j * 4 + k];
        EXPECT_EQ(out[1].data<float>()[i * len + j], want);
      }
    }
  }
}

// A converter that computes sizes from the extents at import (EyeLike's constant) rejects `?`
// extents with an unsupported-node error naming why, never a wrong size.
TEST(OnnxDynamicTest, StaticOnlyConverterRejectsAnyExtents) {
  OnnxGraph g;
  g.DynamicInput("x", {1, 3}, 0);
  g.Node("EyeLike", {"x"}, {"y"});
  g.Output("y");
  try {
    FromOnnxBytes(g.Bytes());
    FAIL() << "expected an OnnxError";
  } catch (const OnnxError& e) {
    EXPECT_TRUE(e.unsupported());
    EXPECT_EQ(e.op_type(), "EyeLike");
    EXPECT_NE(std::string(e.what()).find("`?` extents"), std::string::npos) << e.what();
  }
  OnnxOptions options;
  options.shape["x"] = {3, 3};  // fixed by the caller: the constant folds as before
  EXPECT_NO_THROW(FromOnnxBytes(g.Bytes(), options));
}

// Dropout's training_mode known only at run time could ask for random dropping, which TVM's
// converter ignores (it would answer the identity): refused with the reason, unless the ratio is
// a constant 0 (training mode is then the identity as well).
TEST(OnnxDynamicTest, DropoutTrainingModeAtRunTimeIsRefusedUnlessTheRatioIsZero) {
  auto graph = [](float ratio) {
    OnnxGraph g(13);
    g.Input("x", {2, 3});
    g.Input("training_mode", {}, onnx::TensorProto::BOOL);
    g.Initializer("ratio", {}, {ratio});
    g.Node("Dropout", {"x", "ratio", "training_mode"}, {"y"}, "drop");
    g.Output("y");
    return g;
  };
  try {
    FromOnnxBytes(graph(0.5f).Bytes());
    FAIL() << "expected an OnnxError";
  } catch (const OnnxError& e) {
    EXPECT_TRUE(e.unsupported());
    EXPECT_EQ(e.node_name(), "drop");
    EXPECT_NE(std::string(e.what()).find("training_mode given at run time"), std::string::npos)
        << e.what();
  }
  EXPECT_NO_THROW(FromOnnxBytes(graph(0.0f).Bytes()));
}

// With dynamic_values off (the backend runner's bound mode) a shape input is still an error
// naming the graph input to bind, as before dynamic ops.
TEST(OnnxDynamicTest, DynamicValuesOffAsksForTheInput) {
  OnnxGraph g;
  g.Input("x", {2, 3});
  g.Input("shape", {1}, onnx::TensorProto::INT64);
  g.Node("Reshape", {"x", "shape"}, {"y"});
  g.Output("y");
  OnnxOptions options;
  options.dynamic_values = false;
  try {
    FromOnnxBytes(g.Bytes(), options);
    FAIL() << "expected an OnnxError";
  } catch (const OnnxError& e) {
    EXPECT_TRUE(e.needs_input_value);
    EXPECT_EQ(e.input_name, "shape");
  }
  options.input_values["shape"] = Int64s({6});
  auto out = RunModel(FromOnnxBytes(g.Bytes(), options), {Iota({2, 3})});
  EXPECT_EQ(out[0].shape(), (ir::Shape{6}));
}

}  // namespace
}  // namespace relaypass::frontend
