// The pass explorer page: the report's records and modules as one self-contained HTML file
// (data as JSON, the graph as an SVG drawn by Graphviz, styles and scripts inline).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "relaypass/ir/module.h"
#include "relaypass/tools/report_instrument.h"

namespace relaypass::tools {

struct ReportPageInput {
  std::string input;
  std::string command_line;
  std::string context;  // the PassContext, described
  const std::vector<PassRecord>* records = nullptr;
  const ir::IRModule* input_module = nullptr;
  const ir::IRModule* final_module = nullptr;
  /// The pass that made a node of the final module ("" if unknown).
  std::function<std::string(const ir::ExprNode*)> creator;
};

std::string RenderReportPage(const ReportPageInput& input);

/// The SVG (Graphviz's dot layout) of a DOT text; throws relaypass::Error if Graphviz fails.
std::string RenderSvg(const std::string& dot);

}  // namespace relaypass::tools
