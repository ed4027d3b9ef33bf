// A ResNet (18 or 50) or a MobileNet v2 as an ONNX model, built with ONNX's protobuf classes: the
// graph torchvision's resnet exports to at opset 13 in eval mode (batch norms folded into the
// convolutions' weights and biases, as torch.onnx's constant folding does): Conv, Relu, MaxPool,
// Add, GlobalAveragePool, Flatten, Gemm (and Clip for MobileNet's ReLU6). The benchmarks need such
// a file without PyTorch (no weights can be downloaded, and python3-torch is not a build
// dependency).
//
// Weights are seeded uniform values scaled by 1/sqrt(fan_in), with each residual branch's last
// convolution damped, so that every activation keeps a spread of order one through the network
// (a reference whose outputs vanish or explode would let any answer pass a tolerance).
#pragma once

#include <onnx/onnx_pb.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace relaypass::bench {

class OnnxModelBuilder {
 public:
  explicit OnnxModelBuilder(uint32_t seed) : rng_(seed) {}

  onnx::ModelProto Build(int depth) {
    Start("resnet" + std::to_string(depth));
    const bool bottleneck = depth >= 50;
    const std::vector<int> blocks =
        depth == 18 ? std::vector<int>{2, 2, 2, 2} : std::vector<int>{3, 4, 6, 3};
    std::string x = Conv("input", 3, 64, 7, 2, 3, 1.0f);
    x = Relu(x);
    x = MaxPool(x);
    int64_t channels = 64;
    for (size_t stage = 0; stage < blocks.size(); ++stage) {
      const int64_t width = 64 << stage;
      for (int b = 0; b < blocks[stage]; ++b) {
        const int stride = (stage > 0 && b == 0) ? 2 : 1;
        const int64_t out = bottleneck ? width * 4 : width;
        std::string shortcut = x;
        if (stride != 1 || channels != out) shortcut = Conv(x, channels, out, 1, stride, 0, 1.0f);
        std::string y;
        if (bottleneck) {  // torchvision's v1.5: the stride is on the 3x3 convolution
          y = Relu(Conv(x, channels, width, 1, 1, 0, 1.0f));
          y = Relu(Conv(y, width, width, 3, stride, 1, 1.0f));
          y = Conv(y, width, out, 1, 1, 0, kResidualDamping);
        } else {
          y = Relu(Conv(x, channels, width, 3, stride, 1, 1.0f));
          y = Conv(y, width, out, 3, 1, 1, kResidualDamping);
        }
        x = Relu(Node("Add", {y, shortcut}));
        channels = out;
      }
    }
    return Finish(x, channels);
  }

  // torchvision's mobilenet_v2 as exported (batch norms folded): inverted residual blocks of a
  // 1x1 expansion, a 3x3 depthwise convolution (group = channels) and a 1x1 projection, ReLU6 as
  // Clip(0, 6), the residual Add where the stride is 1 and the channels match.
  onnx::ModelProto BuildMobileNetV2() {
    Start("mobilenet_v2");
    std::string x = Clip6(Conv("input", 3, 32, 3, 2, 1, 1.0f));
    int64_t channels = 32;
    // (expansion t, output channels c, repeats n, first stride s): the paper's table 2.
    const int64_t settings[7][4] = {{1, 16, 1, 1}, {6, 24, 2, 2},  {6, 32, 3, 2}, {6, 64, 4, 2},
                                    {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};
    for (const auto& [t, c, n, s] : settings) {
      for (int64_t i = 0; i < n; ++i) {
        const int64_t stride = i == 0 ? s : 1;
        const int64_t hidden = channels * t;
        std::string y = x;
        if (t != 1) y = Clip6(Conv(y, channels, hidden, 1, 1, 0, 1.0f));
        y = Clip6(Conv(y, hidden, hidden, 3, stride, 1, 1.0f, hidden));
        y = Conv(y, hidden, c, 1, 1, 0, kResidualDamping);
        if (stride == 1 && channels == c) y = Node("Add", {y, x});
        x = y;
        channels = c;
      }
    }
    x = Clip6(Conv(x, channels, 1280, 1, 1, 0, 1.0f));
    return Finish(x, 1280);
  }

 private:
  static constexpr float kResidualDamping = 0.3f;

  void Start(const std::string& name) {
    model_ = onnx::ModelProto();
    model_.set_ir_version(8);
    model_.set_producer_name("relaypass bench/onnx_models.h");
    onnx::OperatorSetIdProto* opset = model_.add_opset_import();
    opset->set_domain("");
    opset->set_version(13);
    graph_ = model_.mutable_graph();
    graph_->set_name(name);
    AddValueInfo(graph_->add_input(), "input", {1, 3, 224, 224});
  }
  // The classifier head: global average pool, flatten, a 1000-way Gemm; the graph's output.
  onnx::ModelProto Finish(std::string x, int64_t channels) {
    x = Node("GlobalAveragePool", {x});
    onnx::NodeProto* flatten = nullptr;
    x = Node("Flatten", {x}, &flatten);
    AddInt(flatten, "axis", 1);
    const float bound = static_cast<float>(std::sqrt(3.0 / static_cast<double>(channels)));
    const std::string fc_w = Weight({1000, channels}, bound);
    const std::string fc_b = Weight({1000}, 0.1f);
    onnx::NodeProto* gemm = nullptr;
    x = Node("Gemm", {x, fc_w, fc_b}, &gemm);
    AddInt(gemm, "transB", 1);
    AddValueInfo(graph_->add_output(), x, {1, 1000});
    return model_;
  }
  std::string Clip6(const std::string& x) { return Node("Clip", {x, Scalar(0.0f), Scalar(6.0f)}); }
  // A float scalar initializer (Clip's bounds are inputs since opset 11).
  std::string Scalar(float v) {
    onnx::TensorProto* t = graph_->add_initializer();
    const std::string name = "s" + std::to_string(graph_->initializer_size());
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::FLOAT);
    t->add_float_data(v);
    return name;
  }

  std::string Conv(const std::string& x, int64_t in, int64_t out, int64_t k, int64_t stride,
                   int64_t pad, float scale, int64_t group = 1) {
    // sqrt(3) turns a unit-variance target into a uniform bound; sqrt(2) compensates the ReLUs.
    const int64_t fan_in = in / group * k * k;
    const float bound = scale * static_cast<float>(std::sqrt(6.0 / static_cast<double>(fan_in)));
    const std::string w = Weight({out, in / group, k, k}, bound);
    const std::string b = Weight({out}, 0.05f);
    onnx::NodeProto* node = nullptr;
    std::string y = Node("Conv", {x, w, b}, &node);
    AddInts(node, "kernel_shape", {k, k});
    AddInts(node, "strides", {stride, stride});
    AddInts(node, "pads", {pad, pad, pad, pad});
    AddInts(node, "dilations", {1, 1});
    AddInt(node, "group", group);
    return y;
  }
  std::string Relu(const std::string& x) { return Node("Relu", {x}); }
  std::string MaxPool(const std::string& x) {
    onnx::NodeProto* node = nullptr;
    std::string y = Node("MaxPool", {x}, &node);
    AddInts(node, "kernel_shape", {3, 3});
    AddInts(node, "strides", {2, 2});
    AddInts(node, "pads", {1, 1, 1, 1});
    return y;
  }

  std::string Node(const std::string& op, const std::vector<std::string>& inputs,
                   onnx::NodeProto** out_node = nullptr) {
    onnx::NodeProto* node = graph_->add_node();
    const std::string name = op + "_" + std::to_string(graph_->node_size());
    node->set_op_type(op);
    node->set_name(name);
    for (const std::string& i : inputs) node->add_input(i);
    node->add_output(name + "_out");
    if (out_node != nullptr) *out_node = node;
    return name + "_out";
  }
  // An initializer of uniform values in [-bound, bound], stored as raw little-endian bytes.
  std::string Weight(const std::vector<int64_t>& shape, float bound) {
    onnx::TensorProto* t = graph_->add_initializer();
    const std::string name = "w" + std::to_string(graph_->initializer_size());
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::FLOAT);
    int64_t count = 1;
    for (int64_t d : shape) {
      t->add_dims(d);
      count *= d;
    }
    std::uniform_real_distribution<float> dist(-bound, bound);
    std::string bytes(static_cast<size_t>(count) * sizeof(float), '\0');
    auto* values = reinterpret_cast<float*>(bytes.data());
    for (int64_t i = 0; i < count; ++i) values[i] = dist(rng_);
    t->set_raw_data(std::move(bytes));
    return name;
  }
  static void AddValueInfo(onnx::ValueInfoProto* v, const std::string& name,
                           const std::vector<int64_t>& shape) {
    v->set_name(name);
    onnx::TypeProto_Tensor* tensor = v->mutable_type()->mutable_tensor_type();
    tensor->set_elem_type(onnx::TensorProto::FLOAT);
    for (int64_t d : shape) tensor->mutable_shape()->add_dim()->set_dim_value(d);
  }
  static void AddInt(onnx::NodeProto* n, const std::string& name, int64_t v) {
    onnx::AttributeProto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(v);
  }
  static void AddInts(onnx::NodeProto* n, const std::string& name, const std::vector<int64_t>& v) {
    onnx::AttributeProto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INTS);
    for (int64_t x : v) a->add_ints(x);
  }

  std::mt19937 rng_;
  onnx::ModelProto model_;
  onnx::GraphProto* graph_ = nullptr;
};

}  // namespace relaypass::bench
