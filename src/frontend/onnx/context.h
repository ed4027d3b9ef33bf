// What a converter sees of one ONNX node (its inputs with their static types and, when known at
// import, their values; its attributes) and the converter table, keyed by op type and opset.
#pragma once

#include <onnx/onnx_pb.h>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "relaypass/ir/expr.h"
#include "relaypass/ir/ndarray.h"

namespace relaypass::frontend::onnx_import {

using Ints = std::vector<int64_t>;
using Outputs = std::vector<ir::Expr>;

// One input of the node being converted.
struct InputInfo {
  ir::Expr expr;                     // what the converter builds on (null if omitted)
  ir::Shape shape;                   // static shape
  ir::DataType dtype;                //
  std::optional<ir::NDArray> value;  // known at import (constant, initializer, folded)
  bool is_graph_input = false;       // a graph input without a known value
  std::string name;                  // the ONNX value name
  std::vector<std::string> roots;    // the unbound graph inputs it is computed from
};

class NodeContext {
 public:
  NodeContext(const onnx::NodeProto& node, int64_t index, int64_t opset,
              std::vector<InputInfo> inputs);

  const onnx::NodeProto& node() const { return node_; }
  int64_t index() const { return index_; }
  int64_t opset() const { return opset_; }
  const std::string& op_type() const { return node_.op_type(); }
  size_t num_outputs() const { return static_cast<size_t>(node_.output_size()); }

  // Inputs: position i exists and is not the empty name of an omitted optional input.
  size_t num_inputs() const { return inputs_.size(); }
  bool has_input(size_t i) const { return i < inputs_.size() && inputs_[i].expr; }
  const ir::Expr& input(size_t i) const;
  const ir::Shape& shape(size_t i) const;
  int ndim(size_t i) const { return static_cast<int>(shape(i).size()); }
  ir::DataType dtype(size_t i) const;
  // The input's value if known at import, else null.
  const ir::NDArray* value(size_t i) const;
  // The value, or an error saying that input `what` must be known at import. `bindable`: the
  // input is a parameter of the op (shape, axes, pads) that a caller may bind when it is a graph
  // input (OnnxError::needs_input_value), not data the op computes on.
  const ir::NDArray& RequireValue(size_t i, const std::string& what, bool bindable = true) const;
  // True when input i (named `what`) is known only at run time and the converter is to build
  // TVM's dynamic ops on it; with OnnxOptions::dynamic_values off, such an input is
  // RequireValue's error instead. False when the value is known at import.
  bool AtRunTime(size_t i, const std::string& what) const;
  void set_dynamic_values(bool on) { dynamic_values_ = on; }
  // Input i's shape, or an unsupported-node error when an extent is `?` (for converters that
  // compute sizes from the extents at import); `what` says what needs them.
  const ir::Shape& StaticShape(size_t i, const std::string& what) const;
  // An integer (or float, truncated) tensor input known at import, as int64 values.
  Ints IntsValue(size_t i, const std::string& what, bool bindable = true) const;
  // A scalar (or 1-element) input known at import, as double.
  double ScalarValue(size_t i, const std::string& what) const;

  // Attributes.
  bool has_attr(const std::string& name) const;
  int64_t attr_int(const std::string& name, int64_t fallback) const;
  // attr_int for what Relay holds as an int (groups, block sizes, dtype codes): a node error
  // when the value does not fit, never a wrapped number.
  int attr_int32(const std::string& name, int64_t fallback) const;
  // `value` (named `what`) as an int, or a node error when it does not fit.
  int Int32(int64_t value, const std::string& what) const;
  double attr_float(const std::string& name, double fallback) const;
  std::string attr_string(const std::string& name, const std::string& fallback) const;
  Ints attr_ints(const std::string& name, const Ints& fallback = {}) const;
  // attr_ints with exactly `count` values (one per spatial axis, or two for pads); a node error
  // naming the attribute otherwise.
  Ints attr_ints_n(const std::string& name, size_t count, const Ints& fallback) const;
  // The same, each value in [1, 2^31) (kernel sizes, strides, dilations: divisors and factors).
  Ints attr_positive_ints_n(const std::string& name, size_t count, const Ints& fallback) const;
  std::vector<float> attr_floats(const std::string& name) const;
  const onnx::AttributeProto* attr(const std::string& name) const;

  // Errors naming this node: a malformed node, and something the importer does not support.
  [[noreturn]] void Fail(const std::string& message) const;
  [[noreturn]] void Unsupported(const std::string& message) const;
  void CheckInputs(size_t min, size_t max) const;

 private:
  const onnx::NodeProto& node_;
  int64_t index_;
  int64_t opset_;
  std::vector<InputInfo> inputs_;
  bool dynamic_values_ = true;
};

// A converter returns one expression per ONNX output (trailing optional outputs it does not
// produce may be left out).
using Converter = std::function<Outputs(const NodeContext&)>;

// The converters of one op type by the opset they start at (TVM's _impl_vN).
class ConverterTable {
 public:
  void Add(const std::string& op_type, int64_t since_version, Converter converter);
  // The converter for `opset` (the newest version <= opset), or null.
  const Converter* Find(const std::string& op_type, int64_t opset) const;
  std::vector<std::string> OpTypes() const;
  static const ConverterTable& Global();

 private:
  std::map<std::string, std::map<int64_t, Converter>> table_;
};

// The family files' registrations (one function per file).
void RegisterElementwise(ConverterTable& table);  // elementwise.cc
void RegisterActivations(ConverterTable& table);  // activation.cc
void RegisterConv(ConverterTable& table);         // conv.cc
void RegisterPooling(ConverterTable& table);      // pooling.cc
void RegisterNorm(ConverterTable& table);         // norm.cc
void RegisterMatMul(ConverterTable& table);       // matmul.cc
void RegisterShapeOps(ConverterTable& table);     // shape_ops.cc
void RegisterTensorOps(ConverterTable& table);    // tensor_ops.cc
void RegisterReduce(ConverterTable& table);       // reduce.cc
void RegisterLoss(ConverterTable& table);         // loss.cc
void RegisterResize(ConverterTable& table);       // resize.cc
void RegisterQuantize(ConverterTable& table);     // quantize.cc
void RegisterRecurrent(ConverterTable& table);    // rnn.cc
void RegisterVision(ConverterTable& table);       // vision.cc
void RegisterUnique(ConverterTable& table);       // unique.cc
void RegisterTraining(ConverterTable& table);     // training.cc
void RegisterSignal(ConverterTable& table);       // signal.cc
void RegisterTfIdf(ConverterTable& table);        // tfidf.cc
void RegisterQLinear(ConverterTable& table);      // qlinear_ops.cc
// ONNX Runtime's com.microsoft quantized operators the importer converts (qlinear_ops.cc).
bool IsQLinearContribOp(const std::string& op_type);

// Small helpers shared by the converters.
ir::Expr ScalarConst(double value, ir::DataType dtype);
// ONNX's rounding (halves to the even neighbour) of a float tensor of `dtype`, in Relay operators:
// Relay's round sends halves away from zero (TVM runs it as llvm.round), so a tie takes
// 2 * round(x / 2) instead.
ir::Expr RoundHalfToEven(const ir::Expr& x, ir::DataType dtype);
// `axis` in [-ndim, ndim) (or [-ndim-1, ndim] with `inclusive`) normalised; error otherwise.
int64_t NormalizeAxis(const NodeContext& ctx, int64_t axis, int64_t ndim, bool inclusive = false);

}  // namespace relaypass::frontend::onnx_import
