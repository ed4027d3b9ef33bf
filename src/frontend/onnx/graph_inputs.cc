// Graph inputs and initializers: initializers become constants (freeze_params) or main
// parameters with their values; inputs become main's parameters with the model's shapes (a
// dynamic dimension `?`) or the user's --input-shape, or constants when the user binds a value
// to them.
#include "graph_importer.h"

#include "tensor.h"

namespace relaypass::frontend::onnx_import {

ValueInfo GraphImporter::InitializerValue(const onnx::TensorProto& t) const {
  ValueInfo v;
  ir::NDArray data = TensorFromProto(t, base_dir_, source_ + ": initializer '" + t.name() + "'");
  v.shape = data.shape();
  v.dtype = data.dtype();
  v.value = data;
  v.expr = ir::MakeConstant(data);
  return v;
}

void GraphImporter::ReadInitializers(const onnx::GraphProto& graph, OnnxModel& out) {
  for (const onnx::TensorProto& t : graph.initializer()) {
    ValueInfo v = InitializerValue(t);
    if (!options_.freeze_params) {  // a parameter of main, its value the initializer's
      ir::Var var = ir::MakeVar(t.name(), TypeOf(v.shape, v.dtype));
      v.expr = var;
      initializer_vars_.emplace_back(t.name(), var);
    }
    values_[t.name()] = v;
  }
}

void GraphImporter::ReadInputs(const onnx::GraphProto& graph, OnnxModel& out) {
  for (const onnx::ValueInfoProto& in : graph.input()) {
    const std::string& name = in.name();
    if (values_.count(name)) continue;  // an initializer listed as an input (IR version < 4)
    auto bound = options_.input_values.find(name);
    if (bound != options_.input_values.end()) {
      ValueInfo v;
      v.shape = bound->second.shape();
      v.dtype = bound->second.dtype();
      v.value = bound->second;
      v.import_const = true;
      v.expr = ir::MakeConstant(bound->second);
      values_[name] = v;
      continue;
    }
    if (!in.type().has_tensor_type()) {
      throw OnnxError(source_ + ": graph input '" + name +
                          "' is not a tensor (sequences, maps and optionals are not supported)",
                      -1, "", "", true);
    }
    const onnx::TypeProto::Tensor& tt = in.type().tensor_type();
    ValueInfo v;
    if (tt.has_elem_type() && tt.elem_type() != 0) {
      std::optional<ir::DataType> dtype = DTypeFromOnnx(tt.elem_type());
      if (!dtype) {
        throw OnnxError(source_ + ": graph input '" + name + "' has type " +
                            OnnxTypeName(tt.elem_type()) + ", which is not supported",
                        -1, "", "", true);
      }
      v.dtype = *dtype;
    } else {
      std::optional<ir::DataType> dtype = ir::DataType::Parse(options_.dtype);
      if (!dtype) throw OnnxError("unknown dtype '" + options_.dtype + "'");
      v.dtype = *dtype;
    }
    auto given = options_.shape.find(name);
    if (given != options_.shape.end()) {
      v.shape = given->second;
    } else {
      if (!tt.has_shape()) {
        throw OnnxError(source_ + ": graph input '" + name +
                        "' has no shape; give it with --input-shape=" + name + "=D1,D2,...");
      }
      // A dim_param or missing dimension is `?` (relay Any), as TVM's from_onnx leaves it: the
      // graph then computes what depends on it at run time (shape_of, the dyn ops).
      for (int d = 0; d < tt.shape().dim_size(); ++d) {
        const auto& dim = tt.shape().dim(d);
        const bool known = dim.has_dim_value() && dim.dim_value() >= 0;
        v.shape.push_back(known ? dim.dim_value() : ir::kAnyDim);
      }
    }
    ir::Var var = ir::MakeVar(name, TypeOf(v.shape, v.dtype));
    v.expr = var;
    v.is_graph_input = true;
    v.roots = {name};
    inputs_.push_back(var);
    out.input_names.push_back(name);
    values_[name] = v;
  }
}

}  // namespace relaypass::frontend::onnx_import
