#include "relaypass/tools/dot.h"

#include <cstdio>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "relaypass/ir/visitor.h"
#include "relaypass/op/registry.h"
#include "relaypass/support/pointer_map.h"

namespace relaypass::tools {

namespace {

constexpr int kTop = -1;  // the graph itself, outside every cluster

struct DotNode {
  std::string label;
  std::string style;
  int cluster = kTop;
  int constants = 0;  // constant arguments folded into this node
};

struct Cluster {
  std::string label;
  std::string style;
  int parent = kTop;
  std::vector<size_t> nodes;
  std::vector<int> children;
};

struct Edge {
  size_t from;
  size_t to;
  std::string label;
};

// Where a value comes from, as drawn: a node, a constant (not drawn), or nothing drawable.
struct Source {
  enum Kind { kNode, kConstant, kNone } kind = kNone;
  size_t node = 0;
  std::string label;  // the edge label (`.0` for a tuple projection)
};

std::string Escape(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

std::string ShapeText(const ir::Type& type) {
  if (!type) return "";
  if (const auto* tensor = type.as<ir::TensorTypeNode>()) {
    std::string out = "(";
    for (size_t i = 0; i < tensor->shape.size(); ++i) {
      if (i) out += ", ";
      out += ir::DimText(tensor->shape[i]);
    }
    if (tensor->shape.size() == 1) out += ",";
    out += ")";
    if (tensor->dtype != ir::DataType::Float32()) out += " " + tensor->dtype.ToString();
    return out;
  }
  if (const auto* tuple = type.as<ir::TupleTypeNode>()) {
    std::string out = "[";
    for (size_t i = 0; i < tuple->fields.size(); ++i) {
      if (i) out += ", ";
      out += ShapeText(tuple->fields[i]);
    }
    return out + "]";
  }
  return "";
}

const char* OpFill(const ir::OpNode* op) {
  if (!op->def) return "#e9ecef";
  switch (op->def->pattern) {
    case op::OpPattern::kOutEWiseFusable:
      return "#ffd8a8";
    case op::OpPattern::kCommReduce:
      return "#d0ebff";
    case op::OpPattern::kOpaque:
      return "#e9ecef";
    default:
      return "#ffffff";
  }
}

std::string FormatBytes(double bytes) {
  char buf[32];
  if (bytes >= 1024.0 * 1024.0) {
    std::snprintf(buf, sizeof(buf), "%.1f MB", bytes / (1024.0 * 1024.0));
  } else if (bytes >= 1024.0) {
    std::snprintf(buf, sizeof(buf), "%.1f KB", bytes / 1024.0);
  } else {
    std::snprintf(buf, sizeof(buf), "%.0f B", bytes);
  }
  return buf;
}

class DotBuilder {
 public:
  explicit DotBuilder(const DotOptions& options) : options_(options) {}

  void AddFunction(const std::string& name, const ir::Function& func, bool own_cluster) {
    int top = kTop;
    if (own_cluster) {
      top = NewCluster("@" + name, "style=\"rounded\", color=\"#adb5bd\"", kTop);
    }
    const std::vector<ir::Expr> nodes = ir::PostOrder(func);
    BindAliases(nodes);
    AssignClusters(func, nodes, top);
    AddVisibleNodes(nodes, top);
    AddEdges(nodes);
    const size_t output = AddNode("output",
                                  "shape=doublecircle, style=filled, fillcolor=\"#212529\", "
                                  "fontcolor=white, fontsize=8",
                                  top);
    Connect(Resolve(func->body), output);
  }

  std::string Finish(const ir::IRModule& mod) {
    for (const auto& [cluster, fn] : nested_functions_)
      labels_[cluster] = ClusterLabel(cluster, fn);
    std::string out = "digraph \"" + Escape(options_.graph_name) + "\" {\n";
    out += "  rankdir=" + options_.rankdir + ";\n";
    out += "  graph [fontname=\"Helvetica\", fontsize=11];\n";
    out += "  node [fontname=\"Helvetica\", fontsize=10];\n";
    out += "  edge [fontname=\"Helvetica\", fontsize=8, color=\"#495057\"];\n";
    out += "  labelloc=b;\n  label=\"" + Escape(Summary(mod)) + "\";\n";
    EmitClusters(&out);
    for (const Edge& edge : edges_) {
      out += "  n" + std::to_string(edge.from) + " -> n" + std::to_string(edge.to);
      if (!edge.label.empty()) out += " [label=\"" + Escape(edge.label) + "\"]";
      out += ";\n";
    }
    out += "}\n";
    return out;
  }

 private:
  int NewCluster(std::string label, std::string style, int parent) {
    clusters_.push_back(Cluster{std::move(label), std::move(style), parent, {}, {}});
    return static_cast<int>(clusters_.size()) - 1;
  }

  size_t AddNode(std::string label, std::string style, int cluster) {
    nodes_.push_back(DotNode{std::move(label), std::move(style), cluster, 0});
    return nodes_.size() - 1;
  }

  // Let-bound variables stand for their values; the parameters of a called function stand for
  // the arguments of its (first) call.
  void BindAliases(const std::vector<ir::Expr>& nodes) {
    for (const ir::Expr& e : nodes) {
      if (const auto* let = e.as<ir::LetNode>()) alias_.emplace(let->var.get(), let->value);
    }
    for (const ir::Expr& e : nodes) {
      const auto* call = e.as<ir::CallNode>();
      if (!call) continue;
      const ir::FunctionNode* callee = Deref(call->op).as<ir::FunctionNode>();
      if (!callee) continue;
      for (size_t i = 0; i < callee->params.size() && i < call->args.size(); ++i) {
        alias_.emplace(callee->params[i].get(), call->args[i]);
      }
    }
  }

  // Follows variable aliases and lets to the expression that produces a value.
  ir::Expr Deref(ir::Expr e) const {
    // Each step follows an alias or a let, each at most once: the bound only guards against
    // malformed (cyclic) input.
    for (size_t steps = 0; steps <= 2 * alias_.size() + 2; ++steps) {
      if (const auto* var = e.as<ir::VarNode>()) {
        const ir::Expr* value = alias_.find(var);
        if (!value) return e;
        e = *value;
      } else if (const auto* let = e.as<ir::LetNode>()) {
        e = let->body;
      } else {
        return e;
      }
    }
    return e;
  }

  // Nested functions become clusters; a node belongs to the innermost function containing it.
  // Post-order lists inner functions before the functions that contain them.
  void AssignClusters(const ir::Function& func, const std::vector<ir::Expr>& nodes, int top) {
    std::vector<std::pair<const ir::FunctionNode*, int>> made;
    for (const ir::Expr& e : nodes) {
      const auto* fn = e.as<ir::FunctionNode>();
      if (!fn || fn == func.get()) continue;
      const int cluster = NewCluster(
          "",
          fn->is_primitive() ? "style=\"rounded,filled\", fillcolor=\"#f1f3f5\", color=\"#868e96\""
                             : "style=\"rounded,dashed\", color=\"#868e96\"",
          top);
      made.emplace_back(fn, cluster);
      for (const ir::Var& p : fn->params) cluster_of_.emplace(p.get(), cluster);
      for (const ir::Expr& inner : ir::PostOrder(fn->body)) {
        cluster_of_.emplace(inner.get(), cluster);
      }
    }
    for (const auto& [fn, cluster] : made) {
      if (const int* parent = cluster_of_.find(fn)) clusters_[cluster].parent = *parent;
      if (clusters_[cluster].parent != kTop) {
        clusters_[clusters_[cluster].parent].children.push_back(cluster);
      }
      nested_functions_.emplace_back(cluster, fn);
    }
  }

  int ClusterOf(const ir::ExprNode* e, int top) const {
    const int* cluster = cluster_of_.find(e);
    return cluster ? *cluster : top;
  }

  void AddVisibleNodes(const std::vector<ir::Expr>& nodes, int top) {
    for (const ir::Expr& e : nodes) {
      const int cluster = ClusterOf(e.get(), top);
      std::string shape = options_.shapes ? ShapeText(e->checked_type) : "";
      switch (e->kind) {
        case ir::ExprKind::kVar: {
          const auto* var = e.as<ir::VarNode>();
          if (alias_.contains(var)) break;
          if (shape.empty() && options_.shapes) shape = ShapeText(var->type_annotation);
          Visible(e, "%" + var->name_hint + (shape.empty() ? "" : "\n" + shape),
                  "shape=ellipse, style=filled, fillcolor=\"#d3f9d8\"", cluster);
          break;
        }
        case ir::ExprKind::kCall: {
          const auto* call = e.as<ir::CallNode>();
          if (const ir::OpNode* op = call->op_node()) {
            Visible(e, op->name + (shape.empty() ? "" : "\n" + shape),
                    std::string("shape=box, style=\"rounded,filled\", fillcolor=\"") + OpFill(op) +
                        "\"",
                    cluster);
            cluster_ops_[cluster].push_back(op->name);
          } else if (Deref(call->op).as<ir::FunctionNode>()) {
            break;  // drawn as its body
          } else if (const auto* gv = call->op.as<ir::GlobalVarNode>()) {
            Visible(e, "call @" + gv->name_hint + (shape.empty() ? "" : "\n" + shape),
                    "shape=box, style=\"filled\", fillcolor=\"#e5dbff\"", cluster);
          } else {
            Visible(e, "call" + (shape.empty() ? "" : "\n" + shape), "shape=box", cluster);
          }
          break;
        }
        case ir::ExprKind::kTuple:
          Visible(e, "tuple", "shape=box, style=dashed, fontsize=8", cluster);
          break;
        case ir::ExprKind::kIf:
          Visible(e, "if" + (shape.empty() ? "" : "\n" + shape), "shape=diamond", cluster);
          break;
        default:
          break;
      }
    }
  }

  void Visible(const ir::Expr& e, std::string label, std::string style, int cluster) {
    const size_t index = AddNode(std::move(label), std::move(style), cluster);
    visible_.emplace(e.get(), index);
    if (options_.on_node) options_.on_node("n" + std::to_string(index), e.get());
  }

  Source Resolve(const ir::Expr& start) const {
    Source source;
    ir::Expr e = start;
    std::string label;
    for (size_t steps = 0; steps <= alias_.size() + cluster_of_.size() + 8; ++steps) {
      e = Deref(e);
      if (const size_t* index = visible_.find(e.get())) {
        source.kind = Source::kNode;
        source.node = *index;
        source.label = label;
        return source;
      }
      if (const auto* item = e.as<ir::TupleGetItemNode>()) {
        const ir::Expr tuple = Deref(item->tuple);
        const auto* literal = tuple.as<ir::TupleNode>();
        if (literal && !visible_.contains(literal) && item->index >= 0 &&
            static_cast<size_t>(item->index) < literal->fields.size()) {
          e = literal->fields[item->index];
        } else {
          label = "." + std::to_string(item->index) + label;
          e = tuple;
        }
        continue;
      }
      if (const auto* call = e.as<ir::CallNode>()) {
        const ir::Expr callee = Deref(call->op);
        if (const auto* fn = callee.as<ir::FunctionNode>()) {
          e = fn->body;
          continue;
        }
      }
      if (e->kind == ir::ExprKind::kConstant) source.kind = Source::kConstant;
      return source;
    }
    return source;
  }

  void Connect(const Source& source, size_t to) {
    if (source.kind == Source::kConstant) {
      ++nodes_[to].constants;
    } else if (source.kind == Source::kNode) {
      edges_.push_back(Edge{source.node, to, source.label});
    }
  }

  void AddEdges(const std::vector<ir::Expr>& nodes) {
    for (const ir::Expr& e : nodes) {
      const size_t* found = visible_.find(e.get());
      if (!found) continue;
      const size_t to = *found;
      if (const auto* call = e.as<ir::CallNode>()) {
        for (const ir::Expr& arg : call->args) Connect(Resolve(arg), to);
      } else if (const auto* tuple = e.as<ir::TupleNode>()) {
        for (const ir::Expr& field : tuple->fields) Connect(Resolve(field), to);
      } else if (const auto* node = e.as<ir::IfNode>()) {
        Source cond = Resolve(node->cond);
        cond.label = "cond";
        Connect(cond, to);
        Source then_branch = Resolve(node->true_branch);
        then_branch.label = "then";
        Connect(then_branch, to);
        Source else_branch = Resolve(node->false_branch);
        else_branch.label = "else";
        Connect(else_branch, to);
      }
    }
  }

  std::string ClusterLabel(int cluster, const ir::FunctionNode* fn) const {
    if (!fn->is_primitive()) return "fn";
    std::string label = "fused";
    auto it = cluster_ops_.find(cluster);
    if (it != cluster_ops_.end()) {
      for (std::string op : it->second) {
        for (char& c : op) {
          if (c == '.') c = '_';
        }
        label += "_" + op;
      }
    }
    if (label.size() > 64) label = label.substr(0, 61) + "...";
    return label;
  }

  std::string NodeLine(size_t index, const std::string& indent) const {
    const DotNode& node = nodes_[index];
    std::string label = node.label;
    if (node.constants > 0) label += "\n+" + std::to_string(node.constants) + " const";
    std::string escaped;
    for (const char c : Escape(label)) {
      if (c == '\n') {
        escaped += "\\n";
      } else {
        escaped.push_back(c);
      }
    }
    return indent + "n" + std::to_string(index) + " [label=\"" + escaped + "\", " + node.style +
           "];\n";
  }

  // Clusters nest as the functions do; written with an explicit stack.
  void EmitClusters(std::string* out) const {
    std::vector<std::vector<size_t>> members(clusters_.size());
    std::vector<size_t> top_nodes;
    for (size_t i = 0; i < nodes_.size(); ++i) {
      if (nodes_[i].cluster == kTop) {
        top_nodes.push_back(i);
      } else {
        members[nodes_[i].cluster].push_back(i);
      }
    }
    for (size_t i : top_nodes) *out += NodeLine(i, "  ");
    struct Frame {
      int cluster;
      bool closing;
      size_t depth;
    };
    std::vector<Frame> stack;
    for (size_t i = clusters_.size(); i-- > 0;) {
      if (clusters_[i].parent == kTop) stack.push_back({static_cast<int>(i), false, 1});
    }
    while (!stack.empty()) {
      const Frame frame = stack.back();
      stack.pop_back();
      const std::string indent(2 * frame.depth, ' ');
      if (frame.closing) {
        *out += indent + "}\n";
        continue;
      }
      const Cluster& cluster = clusters_[frame.cluster];
      *out += indent + "subgraph cluster_" + std::to_string(frame.cluster) + " {\n";
      *out += indent + "  label=\"" +
              Escape(labels_.count(frame.cluster) ? labels_.at(frame.cluster) : cluster.label) +
              "\";\n";
      *out += indent + "  graph [labelloc=t, fontsize=10, " + cluster.style + "];\n";
      for (size_t i : members[frame.cluster]) *out += NodeLine(i, indent + "  ");
      stack.push_back({frame.cluster, true, frame.depth});
      for (auto it = cluster.children.rbegin(); it != cluster.children.rend(); ++it) {
        stack.push_back({*it, false, frame.depth + 1});
      }
    }
  }

  std::string Summary(const ir::IRModule& mod) const {
    int64_t ops = 0, fused = 0, constants = 0;
    double bytes = 0;
    std::set<const void*> seen;
    for (const auto& [gv, func] : mod.functions()) {
      ir::post_order_visit(func, [&](const ir::Expr& e) {
        if (const auto* call = e.as<ir::CallNode>()) {
          if (call->op_node()) ++ops;
        } else if (const auto* fn = e.as<ir::FunctionNode>()) {
          if (fn->is_primitive()) ++fused;
        } else if (const auto* c = e.as<ir::ConstantNode>()) {
          ++constants;
          if (seen.insert(c->data.raw_data()).second)
            bytes += static_cast<double>(c->data.nbytes());
        }
      });
    }
    auto count = [](int64_t n, const char* noun) {
      return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
    };
    return count(ops, "operator") + ", " + count(fused, "fused function") + ", " +
           count(constants, "constant") + " (" + FormatBytes(bytes) + ")";
  }

  const DotOptions& options_;
  std::vector<DotNode> nodes_;
  std::vector<Cluster> clusters_;
  std::vector<Edge> edges_;
  support::PointerMap<ir::Expr> alias_;
  support::PointerMap<int> cluster_of_;
  support::PointerMap<size_t> visible_;
  std::map<int, std::vector<std::string>> cluster_ops_;
  std::vector<std::pair<int, const ir::FunctionNode*>> nested_functions_;
  std::map<int, std::string> labels_;
};

}  // namespace

std::string ToDot(const ir::IRModule& mod, const DotOptions& options) {
  DotBuilder builder(options);
  const auto functions = mod.functions();
  for (const auto& [gv, func] : functions) {
    builder.AddFunction(gv->name_hint, func, functions.size() > 1);
  }
  return builder.Finish(mod);
}

}  // namespace relaypass::tools
