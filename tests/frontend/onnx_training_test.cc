// The optimizer steps of ai.onnx.preview.training (Adagrad, Adam, Momentum) through the importer
// and the evaluator. Expected values: the update formulas of ONNX's operator specification
// (Operators.md / the reference functions of its adagrad.py, adam.py and momentum.py) evaluated
// with NumPy on the inputs below (float32 for Adagrad, float64 for the others, printed to 7
// digits), with TVM v0.13's defaults where an attribute is unset; Gradient stays unsupported.
#include <gtest/gtest.h>

#include "onnx_builder.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/frontend/onnx.h"
#include "relaypass/text/printer.h"

namespace relaypass::frontend {
namespace {

using test::ImportError;
using test::OnnxGraph;

constexpr const char* kTraining = "ai.onnx.preview.training";

// A model of one training-domain node on R, T and the float [n] tensors `names`.
OnnxGraph TrainingGraph(const std::string& op, const std::vector<std::string>& names, int64_t n,
                        const std::vector<std::string>& outputs) {
  OnnxGraph g(12);
  auto* id = g.model().add_opset_import();
  id->set_domain(kTraining);
  id->set_version(1);
  g.Input("R", {});
  g.Input("T", {}, onnx::TensorProto::INT64);
  std::vector<std::string> inputs = {"R", "T"};
  for (const std::string& name : names) {
    g.Input(name, {n});
    inputs.push_back(name);
  }
  onnx::NodeProto& node = g.Node(op, inputs, outputs, "step");
  node.set_domain(kTraining);
  for (const std::string& o : outputs) g.Output(o);
  return g;
}

ir::NDArray Vec(const std::vector<float>& v) {
  ir::NDArray a = ir::NDArray::Empty({static_cast<int64_t>(v.size())}, ir::DataType::Float32());
  std::copy(v.begin(), v.end(), a.mutable_data<float>());
  return a;
}

std::vector<ir::NDArray> RunStep(const OnnxGraph& g, float r, int64_t t,
                                 const std::vector<std::vector<float>>& tensors) {
  OnnxModel m = FromOnnxBytes(g.Bytes());
  std::vector<ir::NDArray> args = {ir::NDArray::Scalar<float>(r, ir::DataType::Float32()),
                                   ir::NDArray::Scalar<int64_t>(t, ir::DataType::Int64())};
  for (const auto& v : tensors) args.push_back(Vec(v));
  return eval::RunMain(m.mod, args);
}

void ExpectNear(const ir::NDArray& a, const std::vector<double>& expected) {
  ASSERT_EQ(a.size(), static_cast<int64_t>(expected.size()));
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_NEAR(a.data<float>()[i], expected[i], 1e-5 * (1 + std::abs(expected[i]))) << i;
  }
}

// ONNX's Adagrad example: r = 0.1, t = 0, x = 1, g = -1, h = 2, norm_coefficient 0.001,
// epsilon 1e-5, decay_factor 0.1.
TEST(OnnxTrainingTest, AdagradStep) {
  OnnxGraph g = TrainingGraph("Adagrad", {"X", "G", "H"}, 1, {"X_new", "H_new"});
  onnx::NodeProto& n = *g.model().mutable_graph()->mutable_node(0);
  OnnxGraph::FloatAttr(n, "norm_coefficient", 0.001f);
  OnnxGraph::FloatAttr(n, "epsilon", 1e-5f);
  OnnxGraph::FloatAttr(n, "decay_factor", 0.1f);
  std::vector<ir::NDArray> out = RunStep(g, 0.1f, 0, {{1.0f}, {-1.0f}, {2.0f}});
  ASSERT_EQ(out.size(), 2u);
  ExpectNear(out[0], {1.0576962});
  ExpectNear(out[1], {2.998001});
}

// r = 0.1, t = 3 (the bias correction applies), alpha 0.95, beta 0.1, epsilon 1e-7,
// norm_coefficient 0.001, norm_coefficient_post 0.2.
TEST(OnnxTrainingTest, AdamStepWithBiasCorrectionAndPostNorm) {
  OnnxGraph g = TrainingGraph("Adam", {"X", "G", "V", "H"}, 2, {"X_new", "V_new", "H_new"});
  onnx::NodeProto& n = *g.model().mutable_graph()->mutable_node(0);
  OnnxGraph::FloatAttr(n, "alpha", 0.95f);
  OnnxGraph::FloatAttr(n, "beta", 0.1f);
  OnnxGraph::FloatAttr(n, "epsilon", 1e-7f);
  OnnxGraph::FloatAttr(n, "norm_coefficient", 0.001f);
  OnnxGraph::FloatAttr(n, "norm_coefficient_post", 0.2f);
  std::vector<ir::NDArray> out =
      RunStep(g, 0.1f, 3, {{1.2f, 2.8f}, {-0.94f, -2.5f}, {1.7f, 3.6f}, {0.1f, 0.1f}});
  ASSERT_EQ(out.size(), 3u);
  ExpectNear(out[0], {-0.02090039, 1.46090614});
  ExpectNear(out[1], {1.56806, 3.29514});
  ExpectNear(out[2], {0.8032109, 5.62240706});
}

// TVM's Adam default epsilon is 1e-2 (ONNX's schema: 1e-6); norm_coefficient_post unset (0).
TEST(OnnxTrainingTest, AdamTakesTvmsDefaultEpsilon) {
  OnnxGraph g = TrainingGraph("Adam", {"X", "G", "V", "H"}, 2, {"X_new"});
  onnx::NodeProto& n = *g.model().mutable_graph()->mutable_node(0);
  OnnxGraph::FloatAttr(n, "alpha", 0.95f);
  OnnxGraph::FloatAttr(n, "beta", 0.1f);
  OnnxGraph::FloatAttr(n, "norm_coefficient", 0.001f);
  std::vector<ir::NDArray> out =
      RunStep(g, 0.1f, 3, {{1.2f, 2.8f}, {-0.94f, -2.5f}, {1.7f, 3.6f}, {0.1f, 0.1f}});
  ASSERT_EQ(out.size(), 1u);
  ExpectNear(out[0], {-0.01259552, 1.83022251});
  // TVM's graph: the bias correction chosen by a Relay If on T > 0.
  const std::string printed = text::PrettyPrint(FromOnnxBytes(g.Bytes()).mod);
  EXPECT_NE(printed.find("if ("), std::string::npos) << printed;
}

// alpha 0.95, beta 0.1, norm_coefficient 0.001; at t = 0 beta counts as 1.
TEST(OnnxTrainingTest, MomentumStandardAndNesterov) {
  const std::vector<std::vector<float>> xgv = {{1.2f, 2.8f}, {-0.94f, -2.5f}, {1.7f, 3.6f}};
  struct Case {
    const char* mode;
    int64_t t;
    std::vector<double> x_new, v_new;
  };
  const Case cases[] = {{"standard", 0, {1.13238, 2.70772}, {0.6762, 0.9228}},
                        {"nesterov", 0, {1.229641, 2.962054}, {0.6762, 0.9228}},
                        {"standard", 1, {1.047888, 2.482972}, {1.52112, 3.17028}},
                        {"nesterov", 1, {1.1493736, 2.7485434}, {1.52112, 3.17028}}};
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.mode) + " t=" + std::to_string(c.t));
    OnnxGraph g = TrainingGraph("Momentum", {"X", "G", "V"}, 2, {"X_new", "V_new"});
    onnx::NodeProto& n = *g.model().mutable_graph()->mutable_node(0);
    OnnxGraph::FloatAttr(n, "alpha", 0.95f);
    OnnxGraph::FloatAttr(n, "beta", 0.1f);
    OnnxGraph::FloatAttr(n, "norm_coefficient", 0.001f);
    OnnxGraph::StringAttr(n, "mode", c.mode);
    std::vector<ir::NDArray> out = RunStep(g, 0.1f, c.t, xgv);
    ASSERT_EQ(out.size(), 2u);
    ExpectNear(out[0], c.x_new);
    ExpectNear(out[1], c.v_new);
  }
}

TEST(OnnxTrainingTest, BadNodesAreNodeErrors) {
  OnnxGraph mode = TrainingGraph("Momentum", {"X", "G", "V"}, 2, {"X_new"});
  onnx::NodeProto& n = *mode.model().mutable_graph()->mutable_node(0);
  OnnxGraph::FloatAttr(n, "alpha", 0.95f);
  OnnxGraph::FloatAttr(n, "beta", 0.1f);
  OnnxGraph::FloatAttr(n, "norm_coefficient", 0.001f);
  OnnxGraph::StringAttr(n, "mode", "heavy_ball");
  OnnxError bad_mode = ImportError(mode);
  EXPECT_EQ(bad_mode.node_name(), "step");
  EXPECT_NE(std::string(bad_mode.what()).find("mode must be standard or nesterov"),
            std::string::npos)
      << bad_mode.what();
  // Adagrad takes X, G, H per tensor: two tensors after R and T do not split into triples.
  OnnxError count = ImportError(TrainingGraph("Adagrad", {"X", "G"}, 2, {"X_new"}));
  EXPECT_EQ(count.node_name(), "step");
  EXPECT_NE(std::string(count.what()).find("3 inputs per updated tensor"), std::string::npos)
      << count.what();
  // A vector learning rate.
  OnnxGraph r = TrainingGraph("Adagrad", {"X", "G", "H"}, 2, {"X_new"});
  auto* shape = r.model()
                    .mutable_graph()
                    ->mutable_input(0)
                    ->mutable_type()
                    ->mutable_tensor_type()
                    ->mutable_shape();
  shape->add_dim()->set_dim_value(2);
  OnnxError vector_r = ImportError(r);
  EXPECT_EQ(vector_r.node_name(), "step");
  EXPECT_NE(std::string(vector_r.what()).find("R must be a scalar"), std::string::npos)
      << vector_r.what();
}

}  // namespace
}  // namespace relaypass::frontend
