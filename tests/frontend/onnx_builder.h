// Small ONNX models built in the tests with ONNX's protobuf classes.
#pragma once

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "relaypass/frontend/onnx.h"
#include "relaypass/ir/ndarray.h"

namespace relaypass::test {

class OnnxGraph {
 public:
  explicit OnnxGraph(int64_t opset = 13) {
    model_.set_ir_version(8);
    auto* id = model_.add_opset_import();
    id->set_domain("");
    id->set_version(opset);
    model_.mutable_graph()->set_name("test");
  }
  OnnxGraph& Input(const std::string& name, const std::vector<int64_t>& shape,
                   int elem = onnx::TensorProto::FLOAT) {
    SetValue(model_.mutable_graph()->add_input(), name, shape, elem);
    return *this;
  }
  // A graph input whose dimension `dynamic` is the symbolic "N".
  OnnxGraph& DynamicInput(const std::string& name, const std::vector<int64_t>& shape, int dynamic) {
    onnx::ValueInfoProto* v = model_.mutable_graph()->add_input();
    SetValue(v, name, shape, onnx::TensorProto::FLOAT);
    v->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(dynamic)->set_dim_param(
        "N");
    return *this;
  }
  OnnxGraph& Output(const std::string& name) {
    onnx::ValueInfoProto* v = model_.mutable_graph()->add_output();
    v->set_name(name);
    v->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
    v->mutable_type()->mutable_tensor_type()->mutable_shape();
    return *this;
  }
  OnnxGraph& Initializer(const std::string& name, const std::vector<int64_t>& shape,
                         const std::vector<float>& values) {
    onnx::TensorProto* t = model_.mutable_graph()->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::FLOAT);
    for (int64_t d : shape) t->add_dims(d);
    for (float v : values) t->add_float_data(v);
    return *this;
  }
  OnnxGraph& IntInitializer(const std::string& name, const std::vector<int64_t>& values) {
    onnx::TensorProto* t = model_.mutable_graph()->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::INT64);
    t->add_dims(static_cast<int64_t>(values.size()));
    for (int64_t v : values) t->add_int64_data(v);
    return *this;
  }
  onnx::NodeProto& Node(const std::string& op, const std::vector<std::string>& inputs,
                        const std::vector<std::string>& outputs, const std::string& name = "") {
    onnx::NodeProto* n = model_.mutable_graph()->add_node();
    n->set_op_type(op);
    n->set_name(name.empty() ? op + "_" + std::to_string(model_.graph().node_size()) : name);
    for (const auto& i : inputs) n->add_input(i);
    for (const auto& o : outputs) n->add_output(o);
    return *n;
  }
  static void IntAttr(onnx::NodeProto& n, const std::string& name, int64_t v) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(v);
  }
  static void FloatAttr(onnx::NodeProto& n, const std::string& name, float v) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::FLOAT);
    a->set_f(v);
  }
  static void IntsAttr(onnx::NodeProto& n, const std::string& name, const std::vector<int64_t>& v) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INTS);
    for (int64_t x : v) a->add_ints(x);
  }
  static void StringAttr(onnx::NodeProto& n, const std::string& name, const std::string& v) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::STRING);
    a->set_s(v);
  }
  onnx::ModelProto& model() { return model_; }
  std::string Bytes() const { return model_.SerializeAsString(); }

 private:
  static void SetValue(onnx::ValueInfoProto* v, const std::string& name,
                       const std::vector<int64_t>& shape, int elem) {
    v->set_name(name);
    auto* tt = v->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(elem);
    auto* s = tt->mutable_shape();
    for (int64_t d : shape) s->add_dim()->set_dim_value(d);
  }
  onnx::ModelProto model_;
};

// A float32 array of `shape` holding `values`.
inline ir::NDArray Floats(const ir::Shape& shape, const std::vector<float>& values) {
  ir::NDArray a = ir::NDArray::Empty(shape, ir::DataType::Float32());
  std::copy(values.begin(), values.end(), a.mutable_data<float>());
  return a;
}

// The OnnxError importing `g` throws (a test failure if it imports).
inline frontend::OnnxError ImportError(const OnnxGraph& g) {
  try {
    frontend::FromOnnxBytes(g.Bytes());
  } catch (const frontend::OnnxError& e) {
    return e;
  }
  ADD_FAILURE() << "no error";
  return frontend::OnnxError("none");
}

}  // namespace relaypass::test
