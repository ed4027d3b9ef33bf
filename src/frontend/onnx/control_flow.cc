// If, Loop and Scan with what decides them known at import: the chosen branch inlined, loop and
// scan bodies unrolled (values threaded through, scan outputs stacked). An If whose condition is
// known only at run time is a Relay If over both branches, as TVM's.
#include "graph_importer.h"

#include <algorithm>
#include <limits>

#include "relaypass/ir/type_infer.h"
#include "relaypass/relay.h"
#include "tensor.h"

namespace relaypass::frontend::onnx_import {

const onnx::GraphProto& GraphImporter::GraphAttr(const onnx::NodeProto& node, int64_t index,
                                                 const std::string& name) {
  for (const onnx::AttributeProto& a : node.attribute()) {
    if (a.name() == name && a.has_g()) return a.g();
  }
  NodeFail(node, index, "missing graph attribute " + name);
}

// The nodes of a subgraph converted in the current scope (its initializers added first); the
// outer graph's values are visible to it, as ONNX's scoping says.
void GraphImporter::ConvertSubgraph(const onnx::GraphProto& g, const onnx::NodeProto& owner,
                                    int64_t index, int64_t opset) {
  for (const onnx::TensorProto& t : g.initializer()) {
    ValueInfo v = InitializerValue(t);
    v.import_const = true;
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
void GraphImporter::ConvertIf(const onnx::NodeProto& node, int64_t index, int64_t opset) {
  if (node.input_size() != 1) NodeFail(node, index, "If takes one input");
  if (options_.dynamic_values && !values_.at(node.input(0)).value) {
    ConvertIfAtRunTime(node, index, opset);
    return;
  }
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

// TVM's If: both branches converted (in the current scope), the node's outputs the fields of
// a Relay If on the condition; the branches' outputs must have the same types.
void GraphImporter::ConvertIfAtRunTime(const onnx::NodeProto& node, int64_t index, int64_t opset) {
  const ValueInfo cond = values_.at(node.input(0));
  if (cond.is_sequence) NodeFail(node, index, "the condition is a sequence");
  auto branch = [&](const std::string& name) {
    const onnx::GraphProto& g = GraphAttr(node, index, name);
    if (g.output_size() != node.output_size()) {
      NodeFail(node, index, "the " + name + "'s outputs do not match the node's");
    }
    ConvertSubgraph(g, node, index, opset);
    std::vector<ir::Expr> outs;
    for (const onnx::ValueInfoProto& o : g.output()) {
      const ValueInfo& v = values_.at(o.name());
      if (v.is_sequence) NodeFail(node, index, "a branch output is a sequence", true);
      outs.push_back(v.expr);
    }
    return outs.size() == 1 ? outs[0] : ir::MakeTuple(outs);
  };
  const ir::Expr then_expr = branch("then_branch");
  const ir::Expr else_expr = branch("else_branch");
  ir::Expr c = cond.shape.empty() ? cond.expr : relay::reshape(cond.expr, relay::Ints{});
  if (cond.dtype != ir::DataType::Bool()) c = relay::cast(c, "bool");
  const ir::Expr e = ir::MakeIf(c, then_expr, else_expr);
  ir::Expr typed;
  try {
    typed = ir::InferExprTypes(e);
  } catch (const Error& err) {
    NodeFail(node, index, "the branches' outputs differ in type: " + err.message(), true);
  }
  for (int k = 0; k < node.output_size(); ++k) {
    if (node.output(k).empty()) continue;
    const ir::Type& t = node.output_size() == 1
                            ? typed->checked_type
                            : typed->checked_type.as<ir::TupleTypeNode>()->fields[k];
    const auto* tt = t.as<ir::TensorTypeNode>();
    if (!tt) NodeFail(node, index, "output " + std::to_string(k) + " is not a tensor", true);
    ValueInfo v;
    v.expr = node.output_size() == 1 ? e : relay::get_item(e, k);
    v.dtype = tt->dtype;
    for (ir::Dim d : tt->shape) v.shape.push_back(d < 0 ? ir::kAnyDim : d);
    v.roots = cond.roots;
    values_[node.output(k)] = std::move(v);
  }
}

// Loop with a trip count (and conditions) known at import: the body unrolled, loop-carried
// values threaded through, scan outputs stacked on a new axis 0. (TVM builds a recursive
// Relay function.)
void GraphImporter::ConvertLoop(const onnx::NodeProto& node, int64_t index, int64_t opset) {
  const onnx::GraphProto& body = GraphAttr(node, index, "body");
  const int carried_count = node.input_size() - 2;
  if (carried_count < 0 || body.input_size() != carried_count + 2 ||
      body.output_size() < carried_count + 1 || node.output_size() != body.output_size() - 1) {
    NodeFail(node, index, "the body's inputs and outputs do not match the node's");
  }
  const int scan_count = body.output_size() - 1 - carried_count;
  const bool trips_at_run_time = !node.input(0).empty() && !values_.at(node.input(0)).value;
  const bool cond_at_run_time = !node.input(1).empty() && !values_.at(node.input(1)).value;
  if (options_.dynamic_values && (trips_at_run_time || cond_at_run_time)) {
    ConvertLoopAtRunTime(node, index, opset);
    return;
  }
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
        KnownValue(node, index, body.output(0).name(), "the body's condition").GetAsDouble(0) != 0;
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

namespace {

// A scalar of `dtype` from a value of one element (ONNX allows shape [] or [1]).
ir::Expr ScalarOf(const ir::Expr& e, const ir::Shape& shape, ir::DataType have, ir::DataType want) {
  ir::Expr s = shape.empty() ? e : relay::reshape(e, relay::Ints{});
  return have == want ? s : relay::cast(s, want.ToString());
}

ir::Shape RelaxedTo(const ir::Shape& a, const ir::Shape& b) {
  ir::Shape out = a;
  for (size_t d = 0; d < out.size() && d < b.size(); ++d) {
    if (out[d] != b[d]) out[d] = ir::kAnyDim;
  }
  return out;
}

}  // namespace

void GraphImporter::ConvertLoopAtRunTime(const onnx::NodeProto& node, int64_t index,
                                         int64_t opset) {
  const onnx::GraphProto& body = GraphAttr(node, index, "body");
  const int carried_count = node.input_size() - 2;
  const int scan_count = body.output_size() - 1 - carried_count;
  const ir::DataType i64 = ir::DataType::Int64(), boolean = ir::DataType::Bool();
  auto scalar_type = [](ir::DataType t) { return TypeOf({}, t); };
  ir::Expr max_count =
      ir::MakeConstant(ir::NDArray::Scalar<int64_t>(std::numeric_limits<int64_t>::max(), i64));
  if (!node.input(0).empty()) {
    const ValueInfo& v = values_.at(node.input(0));
    max_count = ScalarOf(v.expr, v.shape, v.dtype, i64);
  }
  ir::Expr cond_init = ir::MakeConstant(ir::NDArray::Scalar<uint8_t>(1, boolean));
  if (!node.input(1).empty()) {
    const ValueInfo& v = values_.at(node.input(1));
    cond_init = ScalarOf(v.expr, v.shape, v.dtype, boolean);
  }
  std::vector<ValueInfo> init;
  for (int k = 0; k < carried_count; ++k) {
    init.push_back(values_.at(node.input(2 + k)));
    if (init.back().is_sequence) NodeFail(node, index, "a loop-carried sequence", true);
  }
  // The body converted on variables; a carried value whose extents change from one iteration
  // to the next gets `?` there, and the body is converted again.
  std::vector<ir::Shape> carried_shapes;
  for (const ValueInfo& v : init) carried_shapes.push_back(v.shape);
  ir::Var i_var, max_var, cond_var;
  std::vector<ir::Var> carried_vars;
  std::vector<ValueInfo> outs;
  for (int pass = 0;; ++pass) {
    i_var = ir::MakeVar("i", scalar_type(i64));
    max_var = ir::MakeVar("max_count", scalar_type(i64));
    cond_var = ir::MakeVar("cond", scalar_type(boolean));
    carried_vars.clear();
    auto bind = [&](const std::string& name, const ir::Var& var, const ir::Shape& shape,
                    ir::DataType dtype) {
      ValueInfo v;
      v.expr = var;
      v.shape = shape;
      v.dtype = dtype;
      values_[name] = v;
    };
    bind(body.input(0).name(), i_var, {}, i64);
    bind(body.input(1).name(), cond_var, {}, boolean);
    for (int k = 0; k < carried_count; ++k) {
      carried_vars.push_back(
          ir::MakeVar(body.input(2 + k).name(), TypeOf(carried_shapes[k], init[k].dtype)));
      bind(body.input(2 + k).name(), carried_vars.back(), carried_shapes[k], init[k].dtype);
    }
    ConvertSubgraph(body, node, index, opset);
    outs.clear();
    for (const onnx::ValueInfoProto& o : body.output()) {
      outs.push_back(values_.at(o.name()));
      if (outs.back().is_sequence) NodeFail(node, index, "a body output is a sequence", true);
    }
    bool changed = false;
    for (int k = 0; k < carried_count; ++k) {
      const ir::Shape relaxed = RelaxedTo(carried_shapes[k], outs[1 + k].shape);
      if (outs[1 + k].shape.size() != carried_shapes[k].size() ||
          outs[1 + k].dtype != init[k].dtype) {
        NodeFail(node, index, "loop-carried value " + std::to_string(k) + " changes rank or type",
                 true);
      }
      changed |= relaxed != carried_shapes[k];
      carried_shapes[k] = relaxed;
    }
    if (!changed) break;
    if (pass > 0) NodeFail(node, index, "the loop-carried shapes do not settle", true);
  }
  // Scan outputs accumulate along a new axis 0 of extent `?`, from an empty tensor (of the
  // body output's declared extents where the converted ones are `?`, as TVM's get_info).
  std::vector<ir::Var> scan_vars;
  std::vector<ir::Expr> scan_init;
  for (int j = 0; j < scan_count; ++j) {
    const ValueInfo& s = outs[1 + carried_count + j];
    const onnx::ValueInfoProto& declared = body.output(1 + carried_count + j);
    const auto& dims = declared.type().tensor_type().shape();
    ir::Shape shape{ir::kAnyDim}, empty{0};
    for (size_t d = 0; d < s.shape.size(); ++d) {
      shape.push_back(s.shape[d]);
      if (s.shape[d] >= 0) {
        empty.push_back(s.shape[d]);
      } else if (static_cast<int>(d) < dims.dim_size() && dims.dim(d).has_dim_value()) {
        empty.push_back(dims.dim(d).dim_value());
      } else {
        NodeFail(node, index, "a scan output with `?` extents the body does not declare", true);
      }
    }
    scan_vars.push_back(
        ir::MakeVar(body.output(1 + carried_count + j).name() + "_scan", TypeOf(shape, s.dtype)));
    scan_init.push_back(ir::MakeConstant(ir::NDArray::Empty(empty, s.dtype)));
  }
  std::vector<ir::Var> params{i_var, max_var, cond_var};
  params.insert(params.end(), carried_vars.begin(), carried_vars.end());
  params.insert(params.end(), scan_vars.begin(), scan_vars.end());
  ir::Var loop = ir::MakeVar("while_loop");
  std::vector<ir::Expr> next{
      relay::add(i_var, ir::MakeConstant(ir::NDArray::Scalar<int64_t>(1, i64))), max_var,
      ScalarOf(outs[0].expr, outs[0].shape, outs[0].dtype, boolean)};
  for (int k = 0; k < carried_count; ++k) next.push_back(outs[1 + k].expr);
  for (int j = 0; j < scan_count; ++j) {
    next.push_back(relay::concatenate(
        {scan_vars[j], relay::expand_dims(outs[1 + carried_count + j].expr, 0)}, 0));
  }
  std::vector<ir::Expr> done(params.begin(), params.end());
  const ir::Expr go = relay::logical_and(cond_var, relay::call("less", {i_var, max_var}));
  const ir::Function fn =
      ir::MakeFunction(params, ir::MakeIf(go, ir::MakeCall(loop, next), ir::MakeTuple(done)));
  std::vector<ir::Expr> args{ir::MakeConstant(ir::NDArray::Scalar<int64_t>(0, i64)), max_count,
                             cond_init};
  for (const ValueInfo& v : init) args.push_back(v.expr);
  args.insert(args.end(), scan_init.begin(), scan_init.end());
  const ir::Expr result = ir::MakeLet(loop, fn, ir::MakeCall(loop, args));
  ir::Expr typed;
  try {
    typed = ir::InferExprTypes(result);
  } catch (const Error& err) {
    NodeFail(node, index, "the loop does not type-check: " + err.message(), true);
  }
  const auto* tuple = typed->checked_type.as<ir::TupleTypeNode>();
  if (!tuple) NodeFail(node, index, "the loop's result is not a tuple");
  for (int k = 0; k < node.output_size(); ++k) {
    if (node.output(k).empty()) continue;
    const int field = 3 + k;
    const auto* tt = tuple->fields[field].as<ir::TensorTypeNode>();
    if (!tt) NodeFail(node, index, "output " + std::to_string(k) + " is not a tensor", true);
    ValueInfo v;
    v.expr = relay::get_item(result, field);
    v.dtype = tt->dtype;
    for (ir::Dim d : tt->shape) v.shape.push_back(d < 0 ? ir::kAnyDim : d);
    values_[node.output(k)] = std::move(v);
  }
}

// Scan (opset 9+) unrolled over the scan axis: each step's slices of the scan inputs and the
// states go through the body; the scan outputs are stacked along their axes.
void GraphImporter::ConvertScan(const onnx::NodeProto& node, int64_t index, int64_t opset) {
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
      for (const ir::Expr& p : ps) fields.push_back(relay::expand_dims(p, static_cast<int>(axis)));
      return relay::concatenate(fields, static_cast<int>(axis));
    });
  }
}

}  // namespace relaypass::frontend::onnx_import

namespace relaypass::frontend::onnx_import {

// Scan before opset 9 (TVM's _impl_v8): inputs carry a batch axis 0 and scan along axis 1. Each
// batch element goes through the opset-9 form (a node renaming the element's slices) and the
// results are stacked on axis 0. sequence_lens, which TVM ignores, must be absent or the full
// length (shorter sequences are unsupported).
void GraphImporter::ConvertScan8(const onnx::NodeProto& node, int64_t index, int64_t opset) {
  GraphAttr(node, index, "body");  // present (ConvertScan reads it)
  int64_t num_scan = -1;
  for (const onnx::AttributeProto& a : node.attribute()) {
    if (a.name() == "num_scan_inputs") num_scan = a.i();
  }
  const int64_t inputs = node.input_size() - 1;  // without sequence_lens
  if (inputs < 1 || num_scan < 1 || num_scan > inputs) {
    NodeFail(node, index, "the node's inputs do not match num_scan_inputs");
  }
  int64_t batch = -1, length = -1;
  for (int64_t k = 0; k < inputs; ++k) {
    const ValueInfo& v = values_.at(node.input(1 + k));
    const bool scanned = k >= inputs - num_scan;
    if (v.shape.size() < (scanned ? 2u : 1u)) {
      NodeFail(node, index, "input '" + node.input(1 + k) + "' lacks the batch (and scan) axis");
    }
    if (batch >= 0 && v.shape[0] != batch) NodeFail(node, index, "the inputs' batch sizes differ");
    batch = v.shape[0];
    if (scanned) length = v.shape[1];
  }
  if (batch < 1) NodeFail(node, index, "an empty batch", true);
  if (!node.input(0).empty()) {
    const ir::NDArray& lens = KnownValue(node, index, node.input(0), "sequence_lens");
    for (int64_t b = 0; b < lens.size(); ++b) {
      if (IntAtImport(node, index, lens, b, "sequence_lens") != length) {
        NodeFail(node, index, "sequence_lens shorter than the scanned axis", true);
      }
    }
  }
  std::vector<std::vector<ValueInfo>> results(node.output_size());
  for (int64_t b = 0; b < batch; ++b) {
    onnx::NodeProto step;
    step.set_op_type("Scan");
    step.set_name(node.name());
    const std::string prefix = "scan8#" + std::to_string(index) + "#" + std::to_string(b) + "#";
    for (int64_t k = 0; k < inputs; ++k) {
      const std::string name = prefix + "in" + std::to_string(k);
      values_[name] =
          Derive(node, index, {values_.at(node.input(1 + k))}, [&](const std::vector<ir::Expr>& a) {
            return relay::squeeze(
                relay::strided_slice(a[0], {b}, {b + 1}, relay::Ints{1}, relay::Ints{0}),
                relay::Ints{0});
          });
      step.add_input(name);
    }
    for (int k = 0; k < node.output_size(); ++k) {
      step.add_output(node.output(k).empty() ? "" : prefix + "out" + std::to_string(k));
    }
    for (const onnx::AttributeProto& a : node.attribute()) {
      if (a.name() == "directions") {
        onnx::AttributeProto* d = step.add_attribute();
        *d = a;
        d->set_name("scan_input_directions");
      } else {
        *step.add_attribute() = a;
      }
    }
    ConvertScan(step, index, opset);
    for (int k = 0; k < node.output_size(); ++k) {
      if (!node.output(k).empty()) results[k].push_back(values_.at(step.output(k)));
    }
  }
  for (int k = 0; k < node.output_size(); ++k) {
    if (node.output(k).empty()) continue;
    values_[node.output(k)] =
        Derive(node, index, results[k], [](const std::vector<ir::Expr>& parts) {
          std::vector<ir::Expr> fields;
          for (const ir::Expr& p : parts) fields.push_back(relay::expand_dims(p, 0));
          return relay::concatenate(fields, 0);
        });
  }
}

}  // namespace relaypass::frontend::onnx_import
