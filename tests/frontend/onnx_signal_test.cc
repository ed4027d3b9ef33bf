// DFT, STFT and MelWeightMatrix (opset 17) through the importer and the evaluator. Expected
// values: NumPy's np.fft.fft / ifft / rfft of the same inputs (ONNX's reference implementations
// are these) and, for MelWeightMatrix, the reference function of ONNX's melweightmatrix test
// generator run with NumPy on ONNX's test parameters; bad nodes give an OnnxError naming the node.
#include <gtest/gtest.h>

#include "onnx_builder.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/frontend/onnx.h"

namespace relaypass::frontend {
namespace {

using test::Floats;
using test::ImportError;
using test::OnnxGraph;

void ExpectNear(const ir::NDArray& a, const std::vector<double>& expected) {
  ASSERT_EQ(a.size(), static_cast<int64_t>(expected.size()));
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_NEAR(a.data<float>()[i], expected[i], 1e-5 * (1 + std::abs(expected[i]))) << i;
  }
}

// A model of `op` on graph inputs (name, shape, ONNX element type).
struct In {
  std::string name;
  std::vector<int64_t> shape;
  int elem = onnx::TensorProto::FLOAT;
};
OnnxGraph Graph(const std::string& op, const std::vector<In>& inputs) {
  OnnxGraph g(17);
  std::vector<std::string> names;
  for (const In& i : inputs) {
    g.Input(i.name, i.shape, i.elem);
    names.push_back(i.name);
  }
  g.Node(op, names, {"y"}, "signal");
  g.Output("y");
  return g;
}

// The graph's one node (after Graph returns, so the reference is into the caller's copy).
onnx::NodeProto& Node0(OnnxGraph& g) {
  return *g.model().mutable_graph()->mutable_node(0);
}

ir::NDArray Run1(const OnnxGraph& g, const std::vector<ir::NDArray>& args) {
  OnnxModel m = FromOnnxBytes(g.Bytes());
  std::vector<ir::NDArray> out = eval::RunMain(m.mod, args);
  EXPECT_EQ(out.size(), 1u);
  return out[0];
}

// np.fft.fft([1, 2, 3, 4]) = [10, -2+2j, -2, -2-2j]; onesided keeps the first 3.
TEST(OnnxSignalTest, DftOfARealSignalAndItsOnesidedForm) {
  for (int64_t onesided : {0, 1}) {
    OnnxGraph g = Graph("DFT", {{"x", {1, 4, 1}}});
    OnnxGraph::IntAttr(Node0(g), "onesided", onesided);
    ir::NDArray y = Run1(g, {Floats({1, 4, 1}, {1, 2, 3, 4})});
    if (onesided) {
      EXPECT_EQ(y.shape(), (ir::Shape{1, 3, 2}));
      ExpectNear(y, {10, 0, -2, 2, -2, 0});
    } else {
      EXPECT_EQ(y.shape(), (ir::Shape{1, 4, 2}));
      ExpectNear(y, {10, 0, -2, 2, -2, 0, -2, -2});
    }
  }
}

// The inverse of that spectrum is [1, 2, 3, 4] (np.fft.ifft).
TEST(OnnxSignalTest, InverseDftOfAComplexSignal) {
  OnnxGraph g = Graph("DFT", {{"x", {1, 4, 2}}});
  OnnxGraph::IntAttr(Node0(g), "inverse", 1);
  ir::NDArray y = Run1(g, {Floats({1, 4, 2}, {10, 0, -2, 2, -2, 0, -2, -2})});
  ExpectNear(y, {1, 0, 2, 0, 3, 0, 4, 0});
}

// dft_length 6 zero-pads: np.fft.fft([1, 2, 3, 4, 0, 0]).
TEST(OnnxSignalTest, DftLengthZeroPads) {
  OnnxGraph g = Graph("DFT", {{"x", {1, 4, 1}}, {"n", {}, onnx::TensorProto::INT64}});
  g.model().mutable_graph()->mutable_input()->RemoveLast();
  g.IntInitializer("n", {6});
  // A rank-1 initializer of one element: dft_length is read as a scalar value.
  ir::NDArray y = Run1(g, {Floats({1, 4, 1}, {1, 2, 3, 4})});
  EXPECT_EQ(y.shape(), (ir::Shape{1, 6, 2}));
  ExpectNear(
      y, {10, 0, -3.5, -4.33012702, 2.5, 0.866025404, -2, 0, 2.5, -0.866025404, -3.5, 4.33012702});
}

// Frames of 4 every 2 samples of 0..7, windowed by [0, 1, 1, 0.5]: np.fft.rfft of each.
TEST(OnnxSignalTest, StftFramesWindowsAndTransforms) {
  OnnxGraph g = Graph(
      "STFT", {{"signal", {1, 8, 1}}, {"step", {}, onnx::TensorProto::INT64}, {"window", {4}}});
  g.model().mutable_graph()->mutable_input()->DeleteSubrange(1, 1);
  g.IntInitializer("step", {2});
  std::vector<float> signal(8);
  for (int i = 0; i < 8; ++i) signal[i] = static_cast<float>(i);
  ir::NDArray y = Run1(g, {Floats({1, 8, 1}, signal), Floats({4}, {0, 1, 1, 0.5f})});
  EXPECT_EQ(y.shape(), (ir::Shape{1, 3, 3, 2}));
  ExpectNear(y, {4.5, 0, -2, 0.5, -0.5, 0, 9.5, 0, -4, -0.5, -1.5, 0, 14.5, 0, -6, -1.5, -2.5, 0});
}

// ONNX's test_melweightmatrix parameters: 8 mel bins, dft_length 16, 8192 Hz, 0 to 4096 Hz.
TEST(OnnxSignalTest, MelWeightMatrixIsAnImportConstant) {
  OnnxGraph g(17);
  auto scalar = [&](const std::string& name, int elem, double v) {
    onnx::TensorProto* t = g.model().mutable_graph()->add_initializer();
    t->set_name(name);
    t->set_data_type(elem);
    if (elem == onnx::TensorProto::INT32) t->add_int32_data(static_cast<int32_t>(v));
    if (elem == onnx::TensorProto::FLOAT) t->add_float_data(static_cast<float>(v));
  };
  scalar("bins", onnx::TensorProto::INT32, 8);
  scalar("n", onnx::TensorProto::INT32, 16);
  scalar("rate", onnx::TensorProto::INT32, 8192);
  scalar("low", onnx::TensorProto::FLOAT, 0);
  scalar("high", onnx::TensorProto::FLOAT, 4096);
  g.Node("MelWeightMatrix", {"bins", "n", "rate", "low", "high"}, {"y"}, "mel");
  g.Output("y");
  ir::NDArray y = Run1(g, {});
  EXPECT_EQ(y.shape(), (ir::Shape{9, 8}));
  std::vector<double> expected(72, 0.0);
  // Rows 0..5: 1 at (0, 0), (0, 1), (1, 2), (1, 3), (2, 4), (3, 5), (4, 6), (5, 7).
  for (auto [r, c] : std::vector<std::pair<int, int>>{
           {0, 0}, {0, 1}, {1, 2}, {1, 3}, {2, 4}, {3, 5}, {4, 6}, {5, 7}}) {
    expected[r * 8 + c] = 1;
  }
  ExpectNear(y, expected);
}

TEST(OnnxSignalTest, BadNodesAreNodeErrors) {
  OnnxGraph axis = Graph("DFT", {{"x", {1, 4, 1}}});
  OnnxGraph::IntAttr(Node0(axis), "axis", 2);  // the parts axis
  OnnxError e = ImportError(axis);
  EXPECT_EQ(e.node_name(), "signal");
  EXPECT_NE(std::string(e.what()).find("axis 2 is out of range"), std::string::npos) << e.what();
  OnnxGraph parts = Graph("DFT", {{"x", {1, 4, 3}}});
  e = ImportError(parts);
  EXPECT_EQ(e.node_name(), "signal");
  EXPECT_NE(std::string(e.what()).find("1 (real) or 2 (complex)"), std::string::npos) << e.what();
  OnnxGraph frame = Graph("STFT", {{"signal", {1, 8, 1}}, {"step", {}, onnx::TensorProto::INT64}});
  frame.model().mutable_graph()->mutable_input()->RemoveLast();
  frame.IntInitializer("step", {2});
  e = ImportError(frame);
  EXPECT_EQ(e.node_name(), "signal");
  EXPECT_NE(std::string(e.what()).find("needs a window or a frame_length"), std::string::npos)
      << e.what();
}

}  // namespace
}  // namespace relaypass::frontend
