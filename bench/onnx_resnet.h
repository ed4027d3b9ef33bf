// A ResNet (18 or 50) as an ONNX model, built with ONNX's protobuf classes: the graph
// torchvision's resnet exports to at opset 13 in eval mode (batch norms folded into the
// convolutions' weights and biases, as torch.onnx's constant folding does): Conv, Relu, MaxPool,
// Add, GlobalAveragePool, Flatten, Gemm. The benchmarks need such a file without PyTorch (no
// weights can be downloaded, and python3-torch is not a build dependency).
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

class OnnxResNetBuilder {
 public:
  explicit OnnxResNetBuilder(uint32_t seed) : rng_(seed) {}

  onnx::ModelProto Build(int depth) {
    model_ = onnx::ModelProto();
    model_.set_ir_version(8);
    model_.set_producer_name("relaypass bench/onnx_resnet.h");
    onnx::OperatorSetIdProto* opset = model_.add_opset_import();
    opset->set_domain("");
    opset->set_version(13);
    graph_ = model_.mutable_graph();
    graph_->set_name("resnet" + std::to_string(depth));
    AddValueInfo(graph_->add_input(), "input", {1, 3, 224, 224});

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
    x = Node("GlobalAveragePool", {x});
    onnx::NodeProto* flatten = nullptr;
    x = Node("Flatten", {x}, &flatten);
    AddInt(flatten, "axis", 1);
    const std::string fc_w =
        Weight({1000, channels}, static_cast<float>(1.0 / std::sqrt(channels)));
    const std::string fc_b = Weight({1000}, 0.1f);
    onnx::NodeProto* gemm = nullptr;
    x = Node("Gemm", {x, fc_w, fc_b}, &gemm);
    AddInt(gemm, "transB", 1);
    onnx::ValueInfoProto* output = graph_->add_output();
    AddValueInfo(output, x, {1, 1000});
    return model_;
  }

 private:
  static constexpr float kResidualDamping = 0.3f;

  std::string Conv(const std::string& x, int64_t in, int64_t out, int64_t k, int64_t stride,
                   int64_t pad, float scale) {
    // sqrt(3) turns a unit-variance target into a uniform bound; sqrt(2) compensates the ReLUs.
    const float bound =
        scale * static_cast<float>(std::sqrt(6.0 / static_cast<double>(in * k * k)));
    const std::string w = Weight({out, in, k, k}, bound);
    const std::string b = Weight({out}, 0.05f);
    onnx::NodeProto* node = nullptr;
    std::string y = Node("Conv", {x, w, b}, &node);
    AddInts(node, "kernel_shape", {k, k});
    AddInts(node, "strides", {stride, stride});
    AddInts(node, "pads", {pad, pad, pad, pad});
    AddInts(node, "dilations", {1, 1});
    AddInt(node, "group", 1);
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
