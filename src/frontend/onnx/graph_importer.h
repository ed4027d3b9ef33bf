// The state of one from_onnx import and the steps that change it, split by concern: the graph
// walk (importer.cc), graph inputs and initializers (graph_inputs.cc), one node through its
// converter with import-time folding (convert_node.cc), If / Loop / Scan unrolled at import
// (control_flow.cc) and sequences kept as lists (sequences.cc). Private to the importer.
#pragma once

#include <onnx/onnx_pb.h>

#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "context.h"
#include "importer.h"
#include "relaypass/ir/expr.h"
#include "relaypass/ir/ndarray.h"
#include "relaypass/ir/type.h"

namespace relaypass::frontend::onnx_import {

// What the importer knows of one ONNX value: its Relay expression, static type, and the value
// itself when it is known at import.
struct ValueInfo {
  ir::Expr expr;
  ir::Shape shape;
  ir::DataType dtype;
  std::optional<ir::NDArray> value;
  bool import_const = false;  // a Constant node's or a folded value (not a float initializer)
  bool is_graph_input = false;
  // The graph inputs (without a bound value) this value is computed from, so that a value the
  // importer must know names the inputs to bind (OnnxError::input_name).
  std::vector<std::string> roots;
  // An ONNX sequence (SequenceConstruct, SplitToSequence, ...), known at import as a list of
  // tensors: the importer keeps its elements; sequence ops rearrange them (sequences.cc).
  bool is_sequence = false;
  std::vector<ValueInfo> elements;
  ir::DataType element_dtype;
};

// An OnnxError naming node #index (and marking it unsupported when `unsupported`).
[[noreturn]] void NodeFail(const onnx::NodeProto& node, int64_t index, const std::string& message,
                           bool unsupported = false);

// Element k of a value known at import as an int64, or a node error naming `what`.
int64_t IntAtImport(const onnx::NodeProto& node, int64_t index, const ir::NDArray& value, int64_t k,
                    const std::string& what);

// Whether an import-time value of `shape` is small enough to compute now (a fold of a huge
// ConstantOfShape or Expand would allocate it at import; left unfolded, it is the evaluator's).
bool FitsAtImport(const std::vector<int64_t>& shape);

inline ir::Type TypeOf(const ir::Shape& shape, ir::DataType dtype) {
  return ir::TensorType(shape, dtype);
}

class GraphImporter {
 public:
  GraphImporter(const onnx::ModelProto& model, const OnnxOptions& options, std::string base_dir,
                std::string source)
      : model_(model),
        options_(options),
        base_dir_(std::move(base_dir)),
        source_(std::move(source)) {}

  OnnxModel Run();

 private:
  // The graph walk (importer.cc)
  int64_t Opset() const;
  // Every node input must be a graph input, an initializer or an earlier node's output.
  void CheckSorted(const onnx::GraphProto& graph) const;
  void Check() const;

  // Graph inputs and initializers (graph_inputs.cc)
  // An initializer's value, as a constant expression.
  ValueInfo InitializerValue(const onnx::TensorProto& t) const;
  void ReadInitializers(const onnx::GraphProto& graph, OnnxModel& out);
  void ReadInputs(const onnx::GraphProto& graph, OnnxModel& out);

  // One node through its converter (convert_node.cc)
  void ConvertNode(const onnx::NodeProto& node, int64_t index, int64_t opset);
  // What a converter is given for a node's inputs, and what its outputs are then made of.
  struct ConverterInputs {
    std::vector<InputInfo> infos;
    bool fold = true;  // every input known at import: the outputs are evaluated now
    // Placeholders standing for inputs that are neither constants nor variables, bound back to
    // those inputs' expressions in the outputs.
    std::unordered_map<const ir::VarNode*, ir::Expr> placeholders;
    std::vector<std::string> roots;  // the graph inputs the outputs are computed from
  };
  // The node's converter (opset-matched), its inputs' dtypes checked against the schema.
  const Converter& CheckedConverter(const onnx::NodeProto& node, int64_t index,
                                    int64_t opset) const;
  ConverterInputs MakeConverterInputs(const onnx::NodeProto& node) const;
  // The converter's outputs type-checked, folded when `in.fold`, and recorded as values.
  void RecordOutputs(const onnx::NodeProto& node, int64_t index, Outputs outputs,
                     const ConverterInputs& in);
  // A value that must be known at import: its value, or an error naming the graph input to bind
  // (OnnxError::needs_input_value) when it is computed from graph inputs.
  const ir::NDArray& KnownValue(const onnx::NodeProto& node, int64_t index, const std::string& name,
                                const std::string& what);
  // The value of `build` applied to placeholders of `ins` (typed by them), with the placeholders
  // bound back to the inputs' expressions; evaluated when every input is an import constant.
  ValueInfo Derive(const onnx::NodeProto& node, int64_t index, const std::vector<ValueInfo>& ins,
                   const std::function<ir::Expr(const std::vector<ir::Expr>&)>& build);

  // If, Loop and Scan, unrolled at import (control_flow.cc)
  const onnx::GraphProto& GraphAttr(const onnx::NodeProto& node, int64_t index,
                                    const std::string& name);
  // The nodes of a subgraph converted in the current scope (its initializers added first); the
  // outer graph's values are visible to it, as ONNX's scoping says.
  void ConvertSubgraph(const onnx::GraphProto& g, const onnx::NodeProto& owner, int64_t index,
                       int64_t opset);
  // If with a condition known at import (a bound graph input, or folded): the chosen branch
  // inlined. (TVM builds a Relay If; here shapes are static and both branches may differ.)
  void ConvertIf(const onnx::NodeProto& node, int64_t index, int64_t opset);
  // If with a condition known only at run time: a Relay If over both branches (TVM's).
  void ConvertIfAtRunTime(const onnx::NodeProto& node, int64_t index, int64_t opset);
  // Loop with a trip count (and conditions) known at import: the body unrolled, loop-carried
  // values threaded through, scan outputs stacked on a new axis 0. (TVM builds a recursive
  // Relay function.)
  void ConvertLoop(const onnx::NodeProto& node, int64_t index, int64_t opset);
  // Loop with a trip count or condition known only at run time: TVM's while_loop, a let-bound
  // recursive Relay function of (iteration, max count, condition, carried values, scan outputs).
  void ConvertLoopAtRunTime(const onnx::NodeProto& node, int64_t index, int64_t opset);
  // Scan (opset 9+) unrolled over the scan axis: each step's slices of the scan inputs and the
  // states go through the body; the scan outputs are stacked along their axes.
  void ConvertScan(const onnx::NodeProto& node, int64_t index, int64_t opset);
  // Scan before opset 9 (batch axis 0, scan axis 1): each batch element through ConvertScan,
  // the results stacked (TVM's _impl_v8).
  void ConvertScan8(const onnx::NodeProto& node, int64_t index, int64_t opset);

  // Sequences, kept as lists at import (sequences.cc)
  static bool IsSequenceOp(const std::string& op);
  // A position input (scalar, known at import) normalised against `size` (`inclusive`: size
  // itself allowed, as SequenceInsert's).
  int64_t Position(const onnx::NodeProto& node, int64_t index, int i, int64_t size, bool inclusive,
                   int64_t fallback);
  int64_t AttrInt(const onnx::NodeProto& node, const std::string& name, int64_t fallback);
  // The sequence ops on sequences known at import as lists (no Relay ADT): SequenceEmpty,
  // SequenceConstruct, SequenceInsert, SequenceAt, SequenceErase, SequenceLength,
  // ConcatFromSequence (concatenate, expand_dims for new_axis) and SplitToSequence (split).
  void ConvertSequenceNode(const onnx::NodeProto& node, int64_t index);

  const onnx::ModelProto& model_;
  const OnnxOptions& options_;
  std::string base_dir_;
  std::string source_;
  std::unordered_map<std::string, ValueInfo> values_;
  std::vector<ir::Var> inputs_;
  std::vector<std::pair<std::string, ir::Var>> initializer_vars_;
};

}  // namespace relaypass::frontend::onnx_import
