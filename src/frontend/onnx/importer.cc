// The graph walk of from_onnx: graph inputs and initializers become variables or constants, each
// node (in the graph's order) goes through its converter, and the graph outputs become main's
// body. A converter builds on its inputs' static types; a node whose inputs are all known at
// import (constants, Shape/Size results, integer initializers) is evaluated right away, which is
// how shape arithmetic folds.
#include "importer.h"

#include <onnx/checker.h>

#include <algorithm>
#include <functional>
#include <set>
#include <unordered_map>

#include "context.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/ir/bind.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/relay.h"
#include "schema_check.h"
#include "tensor.h"

namespace relaypass::frontend::onnx_import {

namespace {

// Whether an import-time value of `shape` is small enough to compute now (a fold of a huge
// ConstantOfShape or Expand would allocate it at import; left unfolded, it is the evaluator's).
bool FitsAtImport(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d != 0 && n > kMaxImportElements / d) return false;
    n *= d;
  }
  return true;
}

constexpr int64_t kMaxOpset = 17;  // the newest default-domain opset of ONNX 1.12

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
  // tensors: the importer keeps its elements; sequence ops rearrange them (sequence.cc's rules).
  bool is_sequence = false;
  std::vector<ValueInfo> elements;
  ir::DataType element_dtype;
};

[[noreturn]] void NodeFail(const onnx::NodeProto& node, int64_t index, const std::string& message,
                           bool unsupported = false) {
  throw OnnxError("node #" + std::to_string(index) + " '" + node.name() + "' (" + node.op_type() +
                      "): " + message,
                  index, node.name(), node.op_type(), unsupported);
}

// Element k of a value known at import as an int64, or a node error naming `what`.
int64_t IntAtImport(const onnx::NodeProto& node, int64_t index, const ir::NDArray& value, int64_t k,
                    const std::string& what) {
  try {
    return Int64Element(value, k, what);
  } catch (const OnnxError& e) {
    NodeFail(node, index, e.what());
  }
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
      if (it->second.is_sequence) {
        throw OnnxError(source_ + ": graph output '" + o.name() +
                            "' is a sequence (sequences, maps and optionals are not supported)",
                        -1, "", "", true);
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
      v.roots = {name};
      inputs_.push_back(var);
      out.input_names.push_back(name);
      values_[name] = v;
    }
  }

  void ConvertNode(const onnx::NodeProto& node, int64_t index, int64_t opset) {
    if (!node.domain().empty() && node.domain() != "ai.onnx") {
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
    if (node.op_type() == "Scan" && opset >= 9) {
      ConvertScan(node, index, opset);
      return;
    }
    for (const std::string& name : node.input()) {
      if (!name.empty() && values_.at(name).is_sequence) {
        NodeFail(node, index,
                 "input '" + name + "' is a sequence, which " + node.op_type() + " does not take",
                 true);
      }
    }
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
    std::vector<std::string> roots;
    for (const std::string& name : node.input()) {
      if (name.empty()) continue;
      for (const std::string& r : values_.at(name).roots) {
        if (std::find(roots.begin(), roots.end(), r) == roots.end()) roots.push_back(r);
      }
    }
    NodeContext ctx(node, index, opset, std::move(infos));
    Outputs outputs;
    try {
      outputs = (*converter)(ctx);
    } catch (const OnnxError& e) {
      // A helper's error (ScalarConst's) does not know the node: it gets it here.
      if (e.node_index() >= 0 || e.needs_input_value) throw;
      NodeFail(node, index, e.message(), e.unsupported());
    }
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
      v.roots = roots;
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
      } else if (fold && FitsAtImport(v.shape)) {  // too large: left for the evaluator
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

  // A value that must be known at import: its value, or an error naming the graph input to bind
  // (OnnxError::needs_input_value) when it is computed from graph inputs.
  const ir::NDArray& KnownValue(const onnx::NodeProto& node, int64_t index, const std::string& name,
                                const std::string& what) {
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

  const onnx::GraphProto& GraphAttr(const onnx::NodeProto& node, int64_t index,
                                    const std::string& name) {
    for (const onnx::AttributeProto& a : node.attribute()) {
      if (a.name() == name && a.has_g()) return a.g();
    }
    NodeFail(node, index, "missing graph attribute " + name);
  }

  // The nodes of a subgraph converted in the current scope (its initializers added first); the
  // outer graph's values are visible to it, as ONNX's scoping says.
  void ConvertSubgraph(const onnx::GraphProto& g, const onnx::NodeProto& owner, int64_t index,
                       int64_t opset) {
    for (const onnx::TensorProto& t : g.initializer()) {
      ValueInfo v;
      ir::NDArray data =
          TensorFromProto(t, base_dir_, source_ + ": initializer '" + t.name() + "'");
      v.shape = data.shape();
      v.dtype = data.dtype();
      v.value = data;
      v.import_const = true;
      v.expr = ir::MakeConstant(data);
      values_[t.name()] = v;
    }
    for (const onnx::NodeProto& n : g.node()) {
      for (const std::string& in : n.input()) {
        if (!in.empty() && !values_.count(in)) {
          NodeFail(
              owner, index,
              "the subgraph's node " + n.op_type() + " reads '" + in + "', which is not defined");
        }
      }
      ConvertNode(n, index, opset);
    }
    for (const onnx::ValueInfoProto& o : g.output()) {
      if (!values_.count(o.name())) {
        NodeFail(owner, index, "the subgraph's output '" + o.name() + "' is not produced");
      }
    }
  }

  // If with a condition known at import (a bound graph input, or folded): the chosen branch
  // inlined. (TVM builds a Relay If; here shapes are static and both branches may differ.)
  void ConvertIf(const onnx::NodeProto& node, int64_t index, int64_t opset) {
    if (node.input_size() != 1) NodeFail(node, index, "If takes one input");
    const bool cond = KnownValue(node, index, node.input(0), "the condition").GetAsDouble(0) != 0;
    const onnx::GraphProto& branch = GraphAttr(node, index, cond ? "then_branch" : "else_branch");
    if (branch.output_size() != node.output_size()) {
      NodeFail(node, index, "the branch's outputs do not match the node's");
    }
    ConvertSubgraph(branch, node, index, opset);
    for (int k = 0; k < node.output_size(); ++k) {
      if (!node.output(k).empty()) values_[node.output(k)] = values_.at(branch.output(k).name());
    }
  }

  // Loop with a trip count (and conditions) known at import: the body unrolled, loop-carried
  // values threaded through, scan outputs stacked on a new axis 0. (TVM builds a recursive
  // Relay function.)
  void ConvertLoop(const onnx::NodeProto& node, int64_t index, int64_t opset) {
    const onnx::GraphProto& body = GraphAttr(node, index, "body");
    const int carried_count = node.input_size() - 2;
    if (carried_count < 0 || body.input_size() != carried_count + 2 ||
        body.output_size() < carried_count + 1 || node.output_size() != body.output_size() - 1) {
      NodeFail(node, index, "the body's inputs and outputs do not match the node's");
    }
    const int scan_count = body.output_size() - 1 - carried_count;
    constexpr int64_t kMaxTrips = 4096;
    int64_t trips = kMaxTrips;
    if (!node.input(0).empty()) {
      trips = static_cast<int64_t>(
          KnownValue(node, index, node.input(0), "the trip count").GetAsDouble(0));
      if (trips > kMaxTrips) NodeFail(node, index, "more than 4096 iterations to unroll", true);
    }
    bool cond = true;
    if (!node.input(1).empty()) {
      cond = KnownValue(node, index, node.input(1), "the condition").GetAsDouble(0) != 0;
    }
    std::vector<ValueInfo> carried;
    for (int k = 0; k < carried_count; ++k) carried.push_back(values_.at(node.input(2 + k)));
    std::vector<std::vector<ValueInfo>> scans(scan_count);
    int64_t i = 0;
    for (; i < trips && cond; ++i) {
      ValueInfo iter;
      iter.value = ir::NDArray::Scalar<int64_t>(i, ir::DataType::Int64());
      iter.dtype = ir::DataType::Int64();
      iter.expr = ir::MakeConstant(*iter.value);
      iter.import_const = true;
      values_[body.input(0).name()] = iter;
      ValueInfo c;
      c.value = ir::NDArray::Scalar<uint8_t>(1, ir::DataType::Bool());
      c.dtype = ir::DataType::Bool();
      c.expr = ir::MakeConstant(*c.value);
      c.import_const = true;
      values_[body.input(1).name()] = c;
      for (int k = 0; k < carried_count; ++k) values_[body.input(2 + k).name()] = carried[k];
      ConvertSubgraph(body, node, index, opset);
      cond =
          KnownValue(node, index, body.output(0).name(), "the body's condition").GetAsDouble(0) !=
          0;
      for (int k = 0; k < carried_count; ++k) carried[k] = values_.at(body.output(1 + k).name());
      for (int j = 0; j < scan_count; ++j) {
        scans[j].push_back(values_.at(body.output(1 + carried_count + j).name()));
      }
    }
    if (node.input(0).empty() && i == kMaxTrips) {
      NodeFail(node, index, "the loop did not end within 4096 iterations", true);
    }
    for (int k = 0; k < carried_count; ++k) {
      if (!node.output(k).empty()) values_[node.output(k)] = carried[k];
    }
    for (int j = 0; j < scan_count; ++j) {
      const std::string& name = node.output(carried_count + j);
      if (name.empty()) continue;
      if (scans[j].empty()) NodeFail(node, index, "a scan output of zero iterations", true);
      values_[name] = Derive(node, index, scans[j], [](const std::vector<ir::Expr>& parts) {
        std::vector<ir::Expr> fields;
        for (const ir::Expr& p : parts) fields.push_back(relay::expand_dims(p, 0));
        return relay::concatenate(fields, 0);
      });
    }
  }

  // Scan (opset 9+) unrolled over the scan axis: each step's slices of the scan inputs and the
  // states go through the body; the scan outputs are stacked along their axes.
  void ConvertScan(const onnx::NodeProto& node, int64_t index, int64_t opset) {
    const onnx::GraphProto& body = GraphAttr(node, index, "body");
    int64_t num_scan = -1;
    std::vector<int64_t> in_axes, in_dirs, out_axes, out_dirs;
    for (const onnx::AttributeProto& a : node.attribute()) {
      if (a.name() == "num_scan_inputs") num_scan = a.i();
      if (a.name() == "scan_input_axes") in_axes.assign(a.ints().begin(), a.ints().end());
      if (a.name() == "scan_input_directions") in_dirs.assign(a.ints().begin(), a.ints().end());
      if (a.name() == "scan_output_axes") out_axes.assign(a.ints().begin(), a.ints().end());
      if (a.name() == "scan_output_directions") out_dirs.assign(a.ints().begin(), a.ints().end());
    }
    const int64_t states = node.input_size() - num_scan;
    const int64_t outs = node.output_size() - states;
    if (num_scan < 1 || states < 0 || outs < 0 || body.input_size() != node.input_size() ||
        body.output_size() != node.output_size()) {
      NodeFail(node, index, "the body's inputs and outputs do not match the node's");
    }
    in_axes.resize(num_scan, 0);
    in_dirs.resize(num_scan, 0);
    out_axes.resize(outs, 0);
    out_dirs.resize(outs, 0);
    std::vector<ValueInfo> carried;
    for (int64_t k = 0; k < states; ++k) carried.push_back(values_.at(node.input(k)));
    int64_t steps = -1;
    for (int64_t j = 0; j < num_scan; ++j) {
      const ValueInfo& x = values_.at(node.input(states + j));
      const int64_t r = static_cast<int64_t>(x.shape.size());
      if (in_axes[j] < 0) in_axes[j] += r;
      if (in_axes[j] < 0 || in_axes[j] >= r) NodeFail(node, index, "scan_input_axes out of range");
      const int64_t n = x.shape[in_axes[j]];
      if (steps >= 0 && n != steps) NodeFail(node, index, "scan inputs differ in length");
      steps = n;
    }
    if (steps < 1) NodeFail(node, index, "an empty scan", true);
    std::vector<std::vector<ValueInfo>> scans(outs);
    for (int64_t t = 0; t < steps; ++t) {
      for (int64_t k = 0; k < states; ++k) values_[body.input(k).name()] = carried[k];
      for (int64_t j = 0; j < num_scan; ++j) {
        const int64_t at = in_dirs[j] ? steps - 1 - t : t;
        const int64_t axis = in_axes[j];
        values_[body.input(states + j).name()] = Derive(
            node, index, {values_.at(node.input(states + j))}, [&](const std::vector<ir::Expr>& a) {
              return relay::squeeze(
                  relay::strided_slice(a[0], {at}, {at + 1}, relay::Ints{1}, relay::Ints{axis}),
                  relay::Ints{axis});
            });
      }
      ConvertSubgraph(body, node, index, opset);
      for (int64_t k = 0; k < states; ++k) carried[k] = values_.at(body.output(k).name());
      for (int64_t j = 0; j < outs; ++j)
        scans[j].push_back(values_.at(body.output(states + j).name()));
    }
    for (int64_t k = 0; k < states; ++k) {
      if (!node.output(k).empty()) values_[node.output(k)] = carried[k];
    }
    for (int64_t j = 0; j < outs; ++j) {
      const std::string& name = node.output(states + j);
      if (name.empty()) continue;
      std::vector<ValueInfo> parts = scans[j];
      if (out_dirs[j]) std::reverse(parts.begin(), parts.end());
      const int64_t rank = static_cast<int64_t>(parts[0].shape.size()) + 1;
      const int64_t axis = out_axes[j] < 0 ? out_axes[j] + rank : out_axes[j];
      values_[name] = Derive(node, index, parts, [&](const std::vector<ir::Expr>& ps) {
        std::vector<ir::Expr> fields;
        for (const ir::Expr& p : ps)
          fields.push_back(relay::expand_dims(p, static_cast<int>(axis)));
        return relay::concatenate(fields, static_cast<int>(axis));
      });
    }
  }

  static bool IsSequenceOp(const std::string& op) {
    return op == "SequenceEmpty" || op == "SequenceConstruct" || op == "SequenceInsert" ||
           op == "SequenceAt" || op == "SequenceErase" || op == "SequenceLength" ||
           op == "ConcatFromSequence" || op == "SplitToSequence";
  }

  // The value of `build` applied to placeholders of `ins` (typed by them), with the placeholders
  // bound back to the inputs' expressions; evaluated when every input is an import constant.
  ValueInfo Derive(const onnx::NodeProto& node, int64_t index, const std::vector<ValueInfo>& ins,
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
    out.expr = ir::Bind(e, placeholders);
    if (constant) {
      out.value = eval::Evaluate(out.expr).tensor();
      out.expr = ir::MakeConstant(*out.value);
      out.import_const = true;
    }
    return out;
  }

  // A position input (scalar, known at import) normalised against `size` (`inclusive`: size
  // itself allowed, as SequenceInsert's).
  int64_t Position(const onnx::NodeProto& node, int64_t index, int i, int64_t size, bool inclusive,
                   int64_t fallback) {
    if (node.input_size() <= i || node.input(i).empty()) return fallback;
    const ValueInfo& v = values_.at(node.input(i));
    if (!v.value || v.value->size() != 1) {
      NodeFail(node, index, "the position must be a scalar known at import", true);
    }
    int64_t p = IntAtImport(node, index, *v.value, 0, "the position");
    if (p < 0) p += size;
    if (p < 0 || p > size || (!inclusive && p == size)) {
      NodeFail(node, index, "position " + std::to_string(p) + " is out of range");
    }
    return p;
  }

  int64_t AttrInt(const onnx::NodeProto& node, const std::string& name, int64_t fallback) {
    for (const onnx::AttributeProto& a : node.attribute()) {
      if (a.name() == name) return a.i();
    }
    return fallback;
  }

  // The sequence ops on sequences known at import as lists (no Relay ADT): SequenceEmpty,
  // SequenceConstruct, SequenceInsert, SequenceAt, SequenceErase, SequenceLength,
  // ConcatFromSequence (concatenate, expand_dims for new_axis) and SplitToSequence (split).
  void ConvertSequenceNode(const onnx::NodeProto& node, int64_t index) {
    const std::string& op = node.op_type();
    if (node.output_size() != 1 || node.output(0).empty()) {
      NodeFail(node, index, op + " must have one output");
    }
    auto input = [&](int i) -> const ValueInfo& {
      if (node.input_size() <= i || node.input(i).empty()) NodeFail(node, index, "missing input");
      return values_.at(node.input(i));
    };
    auto sequence = [&](int i) -> const ValueInfo& {
      const ValueInfo& v = input(i);
      if (!v.is_sequence)
        NodeFail(node, index, "input " + std::to_string(i) + " is not a sequence");
      return v;
    };
    ValueInfo out;
    if (op == "SequenceEmpty") {
      out.is_sequence = true;
      std::optional<ir::DataType> dt = DTypeFromOnnx(AttrInt(node, "dtype", 1));
      out.element_dtype = dt ? *dt : ir::DataType::Float32();
    } else if (op == "SequenceConstruct") {
      out.is_sequence = true;
      for (int i = 0; i < node.input_size(); ++i) out.elements.push_back(input(i));
      if (!out.elements.empty()) out.element_dtype = out.elements[0].dtype;
    } else if (op == "SequenceInsert") {
      out = sequence(0);
      const int64_t size = static_cast<int64_t>(out.elements.size());
      const int64_t at = Position(node, index, 2, size, true, size);
      out.elements.insert(out.elements.begin() + at, input(1));
    } else if (op == "SequenceErase") {
      out = sequence(0);
      const int64_t size = static_cast<int64_t>(out.elements.size());
      if (size == 0) NodeFail(node, index, "erasing from an empty sequence");
      out.elements.erase(out.elements.begin() + Position(node, index, 1, size, false, size - 1));
    } else if (op == "SequenceAt") {
      const ValueInfo& seq = sequence(0);
      const int64_t size = static_cast<int64_t>(seq.elements.size());
      out = seq.elements.at(Position(node, index, 1, size, false, 0));
    } else if (op == "SequenceLength") {
      out.value = ir::NDArray::Scalar<int64_t>(static_cast<int64_t>(sequence(0).elements.size()),
                                               ir::DataType::Int64());
      out.dtype = ir::DataType::Int64();
      out.expr = ir::MakeConstant(*out.value);
      out.import_const = true;
    } else if (op == "ConcatFromSequence") {
      const ValueInfo& seq = sequence(0);
      if (seq.elements.empty()) NodeFail(node, index, "concatenating an empty sequence", true);
      const bool new_axis = AttrInt(node, "new_axis", 0) != 0;
      int64_t axis = AttrInt(node, "axis", 0);
      const int64_t rank = static_cast<int64_t>(seq.elements[0].shape.size()) + (new_axis ? 1 : 0);
      if (axis < 0) axis += rank;
      out = Derive(node, index, seq.elements, [&](const std::vector<ir::Expr>& parts) {
        std::vector<ir::Expr> fields = parts;
        if (new_axis) {
          for (ir::Expr& f : fields) f = relay::expand_dims(f, static_cast<int>(axis));
        }
        return relay::concatenate(fields, static_cast<int>(axis));
      });
    } else {  // SplitToSequence
      const ValueInfo& x = input(0);
      int64_t axis = AttrInt(node, "axis", 0);
      const int64_t rank = static_cast<int64_t>(x.shape.size());
      if (axis < 0) axis += rank;
      if (axis < 0 || axis >= rank) NodeFail(node, index, "axis out of range");
      const int64_t extent = x.shape[axis];
      std::vector<int64_t> sizes;
      bool squeeze = false;
      if (node.input_size() > 1 && !node.input(1).empty()) {
        const ValueInfo& split = input(1);
        if (!split.value) {
          OnnxError error("node #" + std::to_string(index) + " '" + node.name() + "' (" +
                              node.op_type() + "): split must be known at import",
                          index, node.name(), node.op_type(), true);
          error.needs_input_value = !split.roots.empty();  // bind the graph input it comes from
          if (!split.roots.empty()) error.input_name = split.roots.front();
          throw error;
        }
        if (split.value->ndim() == 0) {
          const int64_t chunk = IntAtImport(node, index, *split.value, 0, "split");
          if (chunk < 1) NodeFail(node, index, "split must be positive");
          for (int64_t at = 0; at < extent; at += chunk)
            sizes.push_back(std::min(chunk, extent - at));
        } else {
          for (int64_t k = 0; k < split.value->size(); ++k) {
            sizes.push_back(IntAtImport(node, index, *split.value, k, "split"));
          }
        }
      } else {
        sizes.assign(extent, 1);
        squeeze = AttrInt(node, "keepdims", 1) == 0;
      }
      out.is_sequence = true;
      out.element_dtype = x.dtype;
      int64_t begin = 0;
      for (int64_t size : sizes) {
        const int64_t b = begin;
        out.elements.push_back(Derive(node, index, {x}, [&](const std::vector<ir::Expr>& a) {
          ir::Expr piece =
              relay::strided_slice(a[0], {b}, {b + size}, relay::Ints{1}, relay::Ints{axis});
          return squeeze ? relay::squeeze(piece, relay::Ints{axis}) : piece;
        }));
        begin += size;
      }
      if (begin != extent) NodeFail(node, index, "split sizes do not add up to the axis");
    }
    values_[node.output(0)] = std::move(out);
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
