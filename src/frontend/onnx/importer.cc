// The graph walk of from_onnx: graph inputs and initializers become variables or constants, each
// node (in the graph's order) goes through its converter, and the graph outputs become main's
// body. A converter builds on its inputs' static types; a node whose inputs are all known at
// import (constants, Shape/Size results, integer initializers) is evaluated right away, which is
// how shape arithmetic folds.
#include "graph_importer.h"

#include <onnx/checker.h>

#include <set>
#include <unordered_map>

#include "relaypass/ir/type_infer.h"
#include "relaypass/ir/visitor.h"
#include "tensor.h"

namespace relaypass::frontend::onnx_import {

namespace {

constexpr int64_t kMaxOpset = 17;  // the newest default-domain opset of ONNX 1.12

}  // namespace

void NodeFail(const onnx::NodeProto& node, int64_t index, const std::string& message,
              bool unsupported) {
  throw OnnxError("node #" + std::to_string(index) + " '" + node.name() + "' (" + node.op_type() +
                      "): " + message,
                  index, node.name(), node.op_type(), unsupported);
}

int64_t IntAtImport(const onnx::NodeProto& node, int64_t index, const ir::NDArray& value, int64_t k,
                    const std::string& what) {
  try {
    return Int64Element(value, k, what);
  } catch (const OnnxError& e) {
    NodeFail(node, index, e.what());
  }
}

bool FitsAtImport(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d != 0 && n > kMaxImportElements / d) return false;
    n *= d;
  }
  return true;
}

OnnxModel GraphImporter::Run() {
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

int64_t GraphImporter::Opset() const {
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
void GraphImporter::CheckSorted(const onnx::GraphProto& graph) const {
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

void GraphImporter::Check() const {
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

OnnxModel ImportModel(const onnx::ModelProto& model, const OnnxOptions& options,
                      const std::string& base_dir, const std::string& source) {
  if (!model.has_graph()) throw OnnxError(source + ": the model has no graph");
  return GraphImporter(model, options, base_dir, source).Run();
}

}  // namespace relaypass::frontend::onnx_import
