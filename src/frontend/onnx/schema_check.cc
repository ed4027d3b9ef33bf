#include "schema_check.h"

#include <onnx/defs/data_type_utils.h>
#include <onnx/defs/schema.h>

#include <algorithm>

#include "tensor.h"

namespace relaypass::frontend::onnx_import {

namespace {

// ONNX's interned type string ("tensor(float)") of a relaypass dtype, or null if ONNX has none.
onnx::DataType OnnxTensorType(ir::DataType dtype) {
  for (int elem = 1; elem <= onnx::TensorProto::DataType_MAX; ++elem) {
    if (!onnx::TensorProto::DataType_IsValid(elem)) continue;
    std::optional<ir::DataType> d = DTypeFromOnnx(elem);
    if (d && *d == dtype) {
      onnx::TypeProto type;
      type.mutable_tensor_type()->set_elem_type(elem);
      return onnx::Utils::DataTypeUtils::ToType(type);
    }
  }
  return nullptr;
}

std::string Allowed(const onnx::OpSchema::FormalParameter& param) {
  std::vector<std::string> names;
  for (onnx::DataType t : param.GetTypes()) names.push_back(*t);
  std::sort(names.begin(), names.end());
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

std::string CheckInputTypes(const onnx::NodeProto& node, int64_t opset,
                            const std::vector<std::optional<ir::DataType>>& input_types) {
  const onnx::OpSchema* schema =
      onnx::OpSchemaRegistry::Schema(node.op_type(), static_cast<int>(opset), node.domain());
  if (schema == nullptr || schema->inputs().empty()) return "";
  const std::vector<onnx::OpSchema::FormalParameter>& params = schema->inputs();
  for (size_t i = 0; i < input_types.size(); ++i) {
    if (!input_types[i]) continue;
    const onnx::OpSchema::FormalParameter& param =
        params[std::min(i, params.size() - 1)];  // a variadic last parameter takes the rest
    if (i >= params.size() && param.GetOption() != onnx::OpSchema::Variadic) break;
    const onnx::DataType type = OnnxTensorType(*input_types[i]);
    if (type == nullptr || param.GetTypes().count(type) != 0) continue;  // interned strings
    return "input " + std::to_string(i) + " ('" + node.input(static_cast<int>(i)) + "') is " +
           *type + ", which " + node.op_type() + "-" + std::to_string(schema->since_version()) +
           " does not accept for " + param.GetTypeStr() + " (" + Allowed(param) + ")";
  }
  return "";
}

}  // namespace relaypass::frontend::onnx_import
