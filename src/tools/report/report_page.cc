// Assembling the pass explorer page: the records as JSON (nlohmann/json), the final graph as an
// SVG with a details entry per drawn node, and the inline style and script.
#include "report_page.h"

#include <nlohmann/json.hpp>
#include <string>

#include "relaypass/ir/type.h"
#include "relaypass/tools/dot.h"
#include "relaypass/tools/module_stats.h"
#include "relaypass/tools/op_count.h"
#include "report_assets.h"

namespace relaypass::tools {
namespace {

using nlohmann::json;

const char* KindName(ir::ExprKind kind) {
  switch (kind) {
    case ir::ExprKind::kVar:
      return "variable";
    case ir::ExprKind::kGlobalVar:
      return "global";
    case ir::ExprKind::kConstant:
      return "constant";
    case ir::ExprKind::kOp:
      return "operator";
    case ir::ExprKind::kCall:
      return "call";
    case ir::ExprKind::kTuple:
      return "tuple";
    case ir::ExprKind::kTupleGetItem:
      return "get-item";
    case ir::ExprKind::kFunction:
      return "function";
    case ir::ExprKind::kLet:
      return "let";
    case ir::ExprKind::kIf:
      return "if";
    case ir::ExprKind::kRefCreate:
      return "ref";
    case ir::ExprKind::kRefRead:
      return "ref_read";
    case ir::ExprKind::kRefWrite:
      return "ref_write";
    case ir::ExprKind::kConstructor:
      return "constructor";
    case ir::ExprKind::kMatch:
      return "match";
  }
  return "node";
}

json NodeDetails(const ir::ExprNode* node, const std::string& creator) {
  json out = {{"kind", KindName(node->kind)}, {"created_by", creator}};
  if (node->checked_type) out["type"] = ir::TypeToString(node->checked_type);
  if (node->kind == ir::ExprKind::kCall) {
    auto* call = static_cast<const ir::CallNode*>(node);
    if (const ir::OpNode* op = call->op_node()) out["op"] = op->name;
    if (call->attrs) {
      std::string attrs;
      for (size_t i = 0; i < call->attrs->values.size(); ++i) {
        attrs += (i ? ", " : "") + call->attrs->schema->fields()[i].name + "=" +
                 call->attrs->values[i].ToString();
      }
      out["attrs"] = attrs;
    }
  } else if (node->kind == ir::ExprKind::kVar) {
    out["op"] = "%" + static_cast<const ir::VarNode*>(node)->name_hint;
  }
  return out;
}

json Graph(const ReportPageInput& input) {
  json nodes = json::object();
  DotOptions options;
  options.graph_name = "final";
  options.on_node = [&](const std::string& name, const ir::ExprNode* node) {
    nodes[name] = NodeDetails(node, input.creator ? input.creator(node) : "");
  };
  const std::string dot = ToDot(*input.final_module, options);
  return {{"svg", RenderSvg(dot)}, {"nodes", std::move(nodes)}};
}

json Passes(const std::vector<PassRecord>& records) {
  json out = json::array();
  for (const PassRecord& r : records) {
    json ops = json::object();
    for (const auto& [op, n] : r.op_delta) ops[op] = n;
    out.push_back({{"name", r.name},
                   {"depth", r.depth},
                   {"start_us", r.start_us},
                   {"duration_us", r.duration_us},
                   {"status", r.status},
                   {"container", r.container},
                   {"changed", r.changed},
                   {"nodes_before", r.nodes_before},
                   {"nodes_after", r.nodes_after},
                   {"op_delta", std::move(ops)},
                   {"diff", r.diff},
                   {"diff_lines_dropped", r.diff_lines_dropped},
                   {"lines_added", r.lines_added},
                   {"lines_removed", r.lines_removed},
                   {"max_abs_diff", r.max_abs_diff ? json(*r.max_abs_diff) : json(nullptr)}});
  }
  return out;
}

json Totals(const ReportPageInput& input) {
  int64_t run = 0, skipped = 0, failed = 0;
  double time_us = 0;
  for (const PassRecord& r : *input.records) {
    if (r.status == "ok") ++run;
    if (r.status.rfind("failed", 0) == 0) ++failed;
    if (r.status.rfind("skipped", 0) == 0) ++skipped;
    if (r.depth == 0) time_us += r.duration_us;
  }
  const OpCounts before = CountOps(*input.input_module);
  const OpCounts after = CountOps(*input.final_module);
  return {{"run", run},
          {"skipped", skipped},
          {"failed", failed},
          {"time_us", time_us},
          {"ops_before", before.total_ops()},
          {"ops_after", after.total_ops()},
          {"fused_after", after.fused_functions},
          {"nodes_before", CountModuleNodes(*input.input_module)},
          {"nodes_after", CountModuleNodes(*input.final_module)}};
}

std::string EscapeHtml(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '<') {
      out += "&lt;";
    } else if (c == '>') {
      out += "&gt;";
    } else if (c == '&') {
      out += "&amp;";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string RenderReportPage(const ReportPageInput& input) {
  json data = {
      {"input", input.input},    {"command", input.command_line},    {"context", input.context},
      {"totals", Totals(input)}, {"passes", Passes(*input.records)}, {"graph", Graph(input)}};
  // Inside <script>: "</" would end the element; "<\/" is the same JSON string.
  std::string payload = data.dump(-1, ' ', false, json::error_handler_t::replace);
  for (size_t pos = 0; (pos = payload.find("</", pos)) != std::string::npos; pos += 3) {
    payload.replace(pos, 2, "<\\/");
  }
  std::string html;
  html.reserve(payload.size() + 16384);
  html += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  html += "<title>relaypass pass explorer: " + EscapeHtml(input.input) + "</title>\n";
  html += "<style>" + std::string(report_assets::kStyle) + "</style>\n</head>\n<body>\n";
  html +=
      "<header><h1>relaypass pass explorer</h1><div class=\"meta\" id=\"meta\"></div>"
      "<div class=\"totals\" id=\"totals\"></div></header>\n"
      "<main><section id=\"passes\"><h2>Passes, as they ran</h2><div id=\"passlist\"></div>"
      "</section>\n<section id=\"detail\"></section>\n"
      "<section id=\"graph\"><h2>Final graph <span class=\"hint\">scroll to zoom, drag to pan, "
      "click a node</span></h2><div class=\"canvas\"></div><div id=\"nodeinfo\"></div>"
      "</section></main>\n";
  html += "<script id=\"report-data\" type=\"application/json\">" + payload + "</script>\n";
  html += "<script>" + std::string(report_assets::kScript) + "</script>\n</body>\n</html>\n";
  return html;
}

}  // namespace relaypass::tools
