// One node through its converter: the converter sees placeholders typed like its inputs (or
// the inputs' constants, when every input is known at import and the result is folded), its
// Relay is type-checked on its own, and its outputs become values of the graph.
#include "graph_importer.h"

#include <algorithm>

#include "context.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/ir/bind.h"
#include "relaypass/ir/type_infer.h"
#include "schema_check.h"

namespace relaypass::frontend::onnx_import {

void GraphImporter::ConvertNode(const onnx::NodeProto& node, int64_t index, int64_t opset) {
  // The optimizer steps of the training domain are deterministic formulas (training.cc);
  // Gradient, which differentiates the graph, is not converted.
  const bool optimizer_step =
      node.domain() == "ai.onnx.preview.training" &&
      (node.op_type() == "Adagrad" || node.op_type() == "Adam" || node.op_type() == "Momentum");
  // ONNX Runtime's quantized operators (com.microsoft), as TVM converts them by name.
  const bool qlinear = node.domain() == "com.microsoft" && IsQLinearContribOp(node.op_type());
  if (!node.domain().empty() && node.domain() != "ai.onnx" && !optimizer_step && !qlinear) {
    NodeFail(node, index, "operators of domain '" + node.domain() + "' are not supported", true);
  }
  if (IsSequenceOp(node.op_type())) {
    ConvertSequenceNode(node, index);
    return;
  }
  if (node.op_type() == "If") {
    ConvertIf(node, index, opset);
    return;
  }
  if (node.op_type() == "Loop") {
    ConvertLoop(node, index, opset);
    return;
  }
  if (node.op_type() == "Scan") {
    if (opset >= 9) {
      ConvertScan(node, index, opset);
    } else {
      ConvertScan8(node, index, opset);
    }
    return;
  }
  for (const std::string& name : node.input()) {
    if (!name.empty() && values_.at(name).is_sequence) {
      NodeFail(node, index,
               "input '" + name + "' is a sequence, which " + node.op_type() + " does not take",
               true);
    }
  }
  const Converter& converter = CheckedConverter(node, index, opset);
  ConverterInputs in = MakeConverterInputs(node);
  NodeContext ctx(node, index, opset, std::move(in.infos));
  ctx.set_dynamic_values(options_.dynamic_values);
  Outputs outputs;
  try {
    outputs = converter(ctx);
  } catch (const OnnxError& e) {
    // A helper's error (ScalarConst's) does not know the node: it gets it here.
    if (e.node_index() >= 0 || e.needs_input_value) throw;
    NodeFail(node, index, e.message(), e.unsupported());
  }
  RecordOutputs(node, index, std::move(outputs), in);
}

const Converter& GraphImporter::CheckedConverter(const onnx::NodeProto& node, int64_t index,
                                                 int64_t opset) const {
  const Converter* converter = ConverterTable::Global().Find(node.op_type(), opset);
  if (!converter) {
    NodeFail(
        node, index,
        "operator " + node.op_type() + " (opset " + std::to_string(opset) + ") is not supported",
        true);
  }
  std::vector<std::optional<ir::DataType>> input_types;
  for (const std::string& name : node.input()) {
    input_types.push_back(name.empty() ? std::nullopt
                                       : std::optional<ir::DataType>(values_.at(name).dtype));
  }
  if (std::string wrong = CheckInputTypes(node, opset, input_types); !wrong.empty()) {
    NodeFail(node, index, wrong);
  }
  return *converter;
}

GraphImporter::ConverterInputs GraphImporter::MakeConverterInputs(
    const onnx::NodeProto& node) const {
  ConverterInputs in;
  // Fold when every input is known and is an import-time constant or integer-valued.
  bool& fold = in.fold;
  for (const std::string& name : node.input()) {
    if (name.empty()) continue;
    const ValueInfo& v = values_.at(name);
    if (!v.value || !(v.import_const || !v.dtype.is_float())) fold = false;
  }
  std::vector<InputInfo>& infos = in.infos;
  std::unordered_map<const ir::VarNode*, ir::Expr>& placeholders = in.placeholders;
  for (const std::string& name : node.input()) {
    InputInfo info;
    info.name = name;
    if (!name.empty()) {
      const ValueInfo& v = values_.at(name);
      info.shape = v.shape;
      info.dtype = v.dtype;
      info.value = v.value;
      info.is_graph_input = v.is_graph_input;
      info.roots = v.roots;
      const ir::ExprKind kind = v.expr->kind;
      if (fold) {
        info.expr = kind == ir::ExprKind::kConstant ? v.expr : ir::MakeConstant(*v.value);
      } else if (kind == ir::ExprKind::kConstant || kind == ir::ExprKind::kVar) {
        info.expr = v.expr;
      } else {
        ir::Var p = ir::MakeVar(name, TypeOf(v.shape, v.dtype));
        placeholders[p.get()] = v.expr;
        info.expr = p;
      }
    }
    infos.push_back(std::move(info));
  }
  std::vector<std::string>& roots = in.roots;
  for (const std::string& name : node.input()) {
    if (name.empty()) continue;
    for (const std::string& r : values_.at(name).roots) {
      if (std::find(roots.begin(), roots.end(), r) == roots.end()) roots.push_back(r);
    }
  }
  return in;
}

void GraphImporter::RecordOutputs(const onnx::NodeProto& node, int64_t index, Outputs outputs,
                                  const ConverterInputs& in) {
  if (outputs.size() > static_cast<size_t>(node.output_size())) outputs.resize(node.output_size());
  for (int k = static_cast<int>(outputs.size()); k < node.output_size(); ++k) {
    if (!node.output(k).empty()) {
      NodeFail(node, index,
               "output " + std::to_string(k) + " ('" + node.output(k) + "') is not supported",
               true);
    }
  }
  ir::Expr all = outputs.size() == 1 ? outputs[0] : ir::MakeTuple(outputs);
  ir::Expr typed;
  try {
    typed = ir::InferExprTypes(all);
  } catch (const Error& e) {
    NodeFail(node, index, "the converted Relay does not type-check: " + e.message());
  }
  // The types come from the typed copy; the graph keeps the untyped expressions (type
  // inference copies free variables), typed once at the end.
  std::vector<ir::Type> types;
  if (outputs.size() == 1) {
    types.push_back(typed->checked_type);
  } else {
    for (const ir::Expr& f : typed.as<ir::TupleNode>()->fields) types.push_back(f->checked_type);
  }
  std::vector<ir::Expr> final_outputs = outputs;
  if (!in.placeholders.empty() && !in.fold) {
    for (ir::Expr& e : final_outputs) e = ir::Bind(e, in.placeholders);
  }
  for (size_t k = 0; k < final_outputs.size(); ++k) {
    const std::string& name = node.output(static_cast<int>(k));
    if (name.empty()) continue;
    ValueInfo v;
    v.expr = final_outputs[k];
    v.roots = in.roots;
    const auto* tt = types[k].as<ir::TensorTypeNode>();
    if (!tt) NodeFail(node, index, "output " + std::to_string(k) + " is not a tensor", true);
    v.dtype = tt->dtype;
    // A `?` extent (a dyn op's, or a dynamic input dimension's) stays kAnyDim.
    bool dynamic = false;
    for (ir::Dim d : tt->shape) {
      if (d < 0) {
        d = ir::kAnyDim;
        dynamic = true;
      }
      v.shape.push_back(d);
    }
    if (const auto* c = v.expr.as<ir::ConstantNode>()) {
      v.value = c->data;
      v.import_const = true;
    } else if (in.fold && (dynamic || FitsAtImport(v.shape))) {  // too large: the evaluator's
      try {
        v.value = eval::Evaluate(v.expr).tensor();
      } catch (const Error& e) {
        NodeFail(node, index, "cannot evaluate at import: " + e.message(), true);
      }
      v.expr = ir::MakeConstant(*v.value);
      v.shape = v.value->shape();
      v.import_const = true;
    }
    values_[name] = std::move(v);
  }
}

// A value that must be known at import: its value, or an error naming the graph input to bind
// (OnnxError::needs_input_value) when it is computed from graph inputs.
const ir::NDArray& GraphImporter::KnownValue(const onnx::NodeProto& node, int64_t index,
                                             const std::string& name, const std::string& what) {
  const ValueInfo& v = values_.at(name);
  if (v.value) return *v.value;
  OnnxError error("node #" + std::to_string(index) + " '" + node.name() + "' (" + node.op_type() +
                      "): " + what + " ('" + name +
                      "') must be known at import (a constant or an initializer)",
                  index, node.name(), node.op_type(), true);
  error.needs_input_value = !v.roots.empty();
  if (!v.roots.empty()) error.input_name = v.roots.front();
  throw error;
}

// The value of `build` applied to placeholders of `ins` (typed by them), with the placeholders
// bound back to the inputs' expressions; evaluated when every input is an import constant.
ValueInfo GraphImporter::Derive(
    const onnx::NodeProto& node, int64_t index, const std::vector<ValueInfo>& ins,
    const std::function<ir::Expr(const std::vector<ir::Expr>&)>& build) {
  std::vector<ir::Expr> args;
  std::unordered_map<const ir::VarNode*, ir::Expr> placeholders;
  bool constant = true;
  ValueInfo out;
  for (const ValueInfo& v : ins) {
    ir::Var p = ir::MakeVar("p", TypeOf(v.shape, v.dtype));
    placeholders[p.get()] = v.expr;
    args.push_back(p);
    constant = constant && v.value && v.import_const;
    for (const std::string& r : v.roots) {
      if (std::find(out.roots.begin(), out.roots.end(), r) == out.roots.end())
        out.roots.push_back(r);
    }
  }
  const ir::Expr e = build(args);
  ir::Expr typed;
  try {
    typed = ir::InferExprTypes(e);
  } catch (const Error& err) {
    NodeFail(node, index, "the converted Relay does not type-check: " + err.message());
  }
  const auto* tt = typed->checked_type.as<ir::TensorTypeNode>();
  if (!tt) NodeFail(node, index, "the result is not a tensor", true);
  out.dtype = tt->dtype;
  out.shape.assign(tt->shape.begin(), tt->shape.end());
  for (ir::Dim& d : out.shape) d = d < 0 ? ir::kAnyDim : d;
  out.expr = ir::Bind(e, placeholders);
  if (constant) {
    out.value = eval::Evaluate(out.expr).tensor();
    out.shape = out.value->shape();
    out.expr = ir::MakeConstant(*out.value);
    out.import_const = true;
  }
  return out;
}

}  // namespace relaypass::frontend::onnx_import
