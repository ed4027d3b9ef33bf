// The ONNX importer: TVM's relay.frontend.from_onnx. A model (a .onnx file or its bytes) becomes a
// Relay module whose `main` takes the graph's inputs by their ONNX names; each ONNX node converts
// as TVM v0.13 converts it (docs/onnx.md lists the operators). Values known at import fold there
// (Shape, Size and integer shape arithmetic on static shapes); a dynamic input dimension is `?`
// unless OnnxOptions::shape fixes it, and what depends on it (shape_of, the dyn ops) is computed
// at run time.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "relaypass/ir/module.h"
#include "relaypass/ir/ndarray.h"
#include "relaypass/support/error.h"

namespace relaypass::frontend {

struct OnnxOptions {
  /// Input shapes by ONNX input name; they override the model's (and fix its dynamic dims).
  std::map<std::string, std::vector<int64_t>> shape;
  /// The dtype of inputs whose type the model does not give (as TVM's `dtype` argument).
  std::string dtype = "float32";
  /// The default-domain opset to convert with instead of the model's.
  std::optional<int64_t> opset;
  /// Initializers become Relay constants (true) or parameters of main returned in `params`.
  bool freeze_params = true;
  /// Graph inputs bound to these values as constants (as if they were initializers); used by the
  /// backend test runner for inputs such as Reshape's shape that must be known at import.
  std::map<std::string, ir::NDArray> input_values;
  /// A shape, axes, pads, starts, repeats, scales, sizes, k, depth or axis input known only at run
  /// time (a graph input, or computed from one) becomes TVM's dynamic ops (dyn.reshape,
  /// dyn.strided_slice, ...), as TVM's from_onnx builds them. False: it is an OnnxError naming
  /// the graph input to bind (needs_input_value), as before dynamic ops (the backend runner's
  /// bound mode).
  bool dynamic_values = true;
  /// Run ONNX's checker (onnx::checker::check_model) on the model first.
  bool check_model = true;
};

struct OnnxModel {
  ir::IRModule mod;  // typed; main's parameters are the graph inputs, then unfrozen initializers
  std::map<std::string, ir::NDArray> params;  // the unfrozen initializers by name
  std::vector<std::string> input_names;       // main's graph inputs, in order
  std::vector<std::string> output_names;      // the graph outputs, in order
  int64_t opset = 0;                          // the default-domain opset converted with
};

/// An ONNX model that cannot be imported. `node_index` (0-based position in the graph, -1 when
/// the error is not about one node), `node_name` and `op_type` say where; the message says them
/// too. `unsupported()` is true for an operator, attribute or data type the importer does not
/// handle (as opposed to a malformed model).
class OnnxError : public Error {
 public:
  OnnxError(const std::string& message, int64_t node_index = -1, std::string node_name = "",
            std::string op_type = "", bool unsupported = false)
      : Error(message),
        node_index_(node_index),
        node_name_(std::move(node_name)),
        op_type_(std::move(op_type)),
        unsupported_(unsupported) {}
  int64_t node_index() const { return node_index_; }
  const std::string& node_name() const { return node_name_; }
  const std::string& op_type() const { return op_type_; }
  bool unsupported() const { return unsupported_; }
  /// True when the node needed the value of a graph input at import (OnnxOptions::input_values).
  bool needs_input_value = false;
  std::string input_name;  // that graph input

 private:
  int64_t node_index_;
  std::string node_name_;
  std::string op_type_;
  bool unsupported_;
};

/// Imports the model in file `path` (external data files are read relative to its folder).
OnnxModel FromOnnxFile(const std::string& path, const OnnxOptions& options = {});
/// Imports a serialized ModelProto; `source_name` names it in errors.
OnnxModel FromOnnxBytes(const std::string& bytes, const OnnxOptions& options = {},
                        const std::string& source_name = "<onnx bytes>");

/// A serialized onnx.TensorProto (as the backend tests' input_0.pb) as an array; OnnxError for a
/// malformed tensor or an unsupported data type.
ir::NDArray ReadOnnxTensor(const std::string& bytes, const std::string& source_name = "<tensor>");
/// The tensor's name field of a serialized TensorProto ("" if none).
std::string OnnxTensorName(const std::string& bytes);

/// The ONNX op types the importer converts, sorted.
std::vector<std::string> SupportedOnnxOps();

}  // namespace relaypass::frontend
