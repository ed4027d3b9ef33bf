// The graph walk of from_onnx: graph inputs and initializers become variables or constants, each
// node (in the graph's order) goes through its converter, and the graph outputs become main's
// body. A converter builds on its inputs' static types; a node whose inputs are all known at
// import (constants, Shape/Size results, integer initializers) is evaluated right away, which is
// how shape arithmetic folds.
#include "importer.h"

#include <onnx/checker.h>

#include <set>
#include <unordered_map>

#include "context.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/ir/bind.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/ir/visitor.h"
#include "tensor.h"

namespace relaypass::frontend::onnx_import {

namespace {

constexpr int64_t kMaxOpset = 17;  // the newest default-domain opset of ONNX 1.12

struct ValueInfo {
  ir::Expr expr;
  ir::Shape shape;
  ir::DataType dtype;
  std::optional<ir::NDArray> value;
  bool import_const = false;  // a Constant node's or a folded value (not a float initializer)
  bool is_graph_input = false;
};

[[noreturn]] void NodeFail(const onnx::NodeProto& node, int64_t index, const std::string& message,
                           bool unsupported = false) {
  throw OnnxError("node #" + std::to_string(index) + " '" + node.name() + "' (" + node.op_type() +
                      "): " + message,
                  index, node.name(), node.op_type(), unsupported);
}

ir::Type TypeOf(const ir::Shape& shape, ir::DataType dtype) {
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

  OnnxModel Run() {
    OnnxModel out;
    out.opset = Opset();
    const onnx::GraphProto& graph = model_.graph();
    CheckSorted(graph);
    if (options_.check_model) Check();
    ReadInitializers(graph, out);
    ReadInputs(graph, out);
    for (int i = 0; i < graph.node_size(); ++i) ConvertNode(graph.node(i), i, out.opset);
    std::vector<ir::Expr> results;
    for (const onnx::ValueInfoProto& o : graph.output()) {
      auto it = values_.find(o.name());
      if (it == values_.end()) {
        throw OnnxError(source_ + ": graph output '" + o.name() + "' is not produced by any node");
      }
      results.push_back(it->second.expr);
      out.output_names.push_back(o.name());
    }
    if (results.empty()) throw OnnxError(source_ + ": the graph has no outputs");
    ir::Expr body = results.size() == 1 ? results[0] : ir::MakeTuple(results);
    std::vector<ir::Var> params = inputs_;
    std::set<const ir::VarNode*> free;
    for (const ir::Var& v : ir::FreeVars(body)) free.insert(v.get());
    for (const auto& [name, var] : initializer_vars_) {
      if (free.count(var.get())) {
        params.push_back(var);
        out.params[name] = *values_[name].value;
      }
    }
    out.mod = ir::InferTypes(ir::IRModule::FromExpr(ir::MakeFunction(params, body)));
    return out;
  }

 private:
  int64_t Opset() const {
    int64_t opset = -1;
    for (const onnx::OperatorSetIdProto& id : model_.opset_import()) {
      if (id.domain().empty() || id.domain() == "ai.onnx") opset = id.version();
    }
    if (options_.opset) opset = *options_.opset;
    if (opset < 0) opset = kMaxOpset;  // only other domains: their nodes are unsupported
    if (opset < 1 || opset > kMaxOpset) {
      throw OnnxError(source_ + ": unknown opset " + std::to_string(opset) +
                      " (the importer knows opsets 1 to " + std::to_string(kMaxOpset) + ")");
    }
    return opset;
  }

  // Every node input must be a graph input, an initializer or an earlier node's output.
  void CheckSorted(const onnx::GraphProto& graph) const {
    std::set<std::string> known;
    for (const auto& i : graph.input()) known.insert(i.name());
    for (const auto& t : graph.initializer()) known.insert(t.name());
    std::set<std::string> later;
    for (const auto& n : graph.node())
      for (const auto& o : n.output()) later.insert(o);
    for (int i = 0; i < graph.node_size(); ++i) {
      const onnx::NodeProto& node = graph.node(i);
      for (const std::string& in : node.input()) {
        if (in.empty() || known.count(in)) continue;
        if (later.count(in)) {
          NodeFail(node, i,
                   "input '" + in +
                       "' is produced by a later node: the graph is not topologically "
                       "sorted");
        }
        NodeFail(node, i,
                 "input '" + in +
                     "' is not a graph input, an initializer or an earlier node's "
                     "output (missing initializer?)");
      }
      for (const std::string& o : node.output()) known.insert(o);
    }
  }

  void Check() const {
    try {
      onnx::checker::CheckerContext ctx;
      ctx.set_ir_version(static_cast<int>(model_.ir_version()));
      std::unordered_map<std::string, int> opsets;
      for (const onnx::OperatorSetIdProto& id : model_.opset_import())
        opsets[id.domain()] = static_cast<int>(id.version());
      ctx.set_opset_imports(opsets);
      ctx.set_model_dir(base_dir_);
      onnx::checker::LexicalScopeContext lex;
      onnx::checker::check_graph(model_.graph(), ctx, lex);
    } catch (const std::exception& e) {
      throw OnnxError(source_ + ": the ONNX checker rejects the model: " + std::string(e.what()));
    }
  }

  void ReadInitializers(const onnx::GraphProto& graph, OnnxModel& out) {
    for (const onnx::TensorProto& t : graph.initializer()) {
      ValueInfo v;
      ir::NDArray data =
          TensorFromProto(t, base_dir_, source_ + ": initializer '" + t.name() + "'");
      v.shape = data.shape();
      v.dtype = data.dtype();
      v.value = data;
      if (options_.freeze_params) {
        v.expr = ir::MakeConstant(data);
      } else {
        ir::Var var = ir::MakeVar(t.name(), TypeOf(v.shape, v.dtype));
        v.expr = var;
        initializer_vars_.emplace_back(t.name(), var);
      }
      values_[t.name()] = v;
    }
  }

  void ReadInputs(const onnx::GraphProto& graph, OnnxModel& out) {
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
        for (int d = 0; d < tt.shape().dim_size(); ++d) {
          const auto& dim = tt.shape().dim(d);
          if (!dim.has_dim_value() || dim.dim_value() < 0) {
            std::string what = dim.has_dim_param() ? "'" + dim.dim_param() + "'" : "unknown";
            throw OnnxError(source_ + ": graph input '" + name + "' has a dynamic dimension " +
                            std::to_string(d) + " (" + what +
                            "); fix it with --input-shape=" + name + "=D1,D2,...");
          }
          v.shape.push_back(dim.dim_value());
        }
      }
      ir::Var var = ir::MakeVar(name, TypeOf(v.shape, v.dtype));
      v.expr = var;
      v.is_graph_input = true;
      inputs_.push_back(var);
      out.input_names.push_back(name);
      values_[name] = v;
    }
  }

  void ConvertNode(const onnx::NodeProto& node, int64_t index, int64_t opset) {
    if (!node.domain().empty() && node.domain() != "ai.onnx") {
      NodeFail(node, index, "operators of domain '" + node.domain() + "' are not supported", true);
    }
    const Converter* converter = ConverterTable::Global().Find(node.op_type(), opset);
    if (!converter) {
      NodeFail(
          node, index,
          "operator " + node.op_type() + " (opset " + std::to_string(opset) + ") is not supported",
          true);
    }
    // Fold when every input is known and is an import-time constant or integer-valued.
    bool fold = true;
    for (const std::string& name : node.input()) {
      if (name.empty()) continue;
      const ValueInfo& v = values_.at(name);
      if (!v.value || !(v.import_const || !v.dtype.is_float())) fold = false;
    }
    std::vector<InputInfo> infos;
    std::unordered_map<const ir::VarNode*, ir::Expr> placeholders;
    for (const std::string& name : node.input()) {
      InputInfo info;
      info.name = name;
      if (!name.empty()) {
        const ValueInfo& v = values_.at(name);
        info.shape = v.shape;
        info.dtype = v.dtype;
        info.value = v.value;
        info.is_graph_input = v.is_graph_input;
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
    NodeContext ctx(node, index, opset, std::move(infos));
    Outputs outputs = (*converter)(ctx);
    if (outputs.size() > static_cast<size_t>(node.output_size()))
      outputs.resize(node.output_size());
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
    if (!placeholders.empty() && !fold) {
      for (ir::Expr& e : final_outputs) e = ir::Bind(e, placeholders);
    }
    for (size_t k = 0; k < final_outputs.size(); ++k) {
      const std::string& name = node.output(static_cast<int>(k));
      if (name.empty()) continue;
      ValueInfo v;
      v.expr = final_outputs[k];
      const auto* tt = types[k].as<ir::TensorTypeNode>();
      if (!tt) NodeFail(node, index, "output " + std::to_string(k) + " is not a tensor", true);
      v.dtype = tt->dtype;
      for (ir::Dim d : tt->shape) {
        if (d < 0)
          NodeFail(node, index, "output " + std::to_string(k) + " has a dynamic shape", true);
        v.shape.push_back(d);
      }
      if (const auto* c = v.expr.as<ir::ConstantNode>()) {
        v.value = c->data;
        v.import_const = true;
      } else if (fold) {
        try {
          v.value = eval::Evaluate(v.expr).tensor();
        } catch (const Error& e) {
          NodeFail(node, index, "cannot evaluate at import: " + e.message(), true);
        }
        v.expr = ir::MakeConstant(*v.value);
        v.import_const = true;
      }
      values_[name] = std::move(v);
    }
  }

  const onnx::ModelProto& model_;
  const OnnxOptions& options_;
  std::string base_dir_;
  std::string source_;
  std::unordered_map<std::string, ValueInfo> values_;
  std::vector<ir::Var> inputs_;
  std::vector<std::pair<std::string, ir::Var>> initializer_vars_;
};

}  // namespace

OnnxModel ImportModel(const onnx::ModelProto& model, const OnnxOptions& options,
                      const std::string& base_dir, const std::string& source) {
  if (!model.has_graph()) throw OnnxError(source + ": the model has no graph");
  return GraphImporter(model, options, base_dir, source).Run();
}

}  // namespace relaypass::frontend::onnx_import
