// A Graphviz picture of a module's dataflow: one box per operator call with its output shape,
// fused (Primitive) functions as clusters named like TVM's kernels (fused_nn_conv2d_add), the
// inputs as ellipses, and constants folded into counts instead of drawn. Render it with
// `dot -Tsvg`.
#pragma once

#include <functional>
#include <string>

#include "relaypass/ir/module.h"

namespace relaypass::tools {

struct DotOptions {
  std::string graph_name = "relay";
  /// Graphviz rankdir: "TB" (top to bottom) or "LR".
  std::string rankdir = "TB";
  /// Show output shapes (from the checked types) under the operator names.
  bool shapes = true;
  /// Called for each drawn node with its DOT name (`n12`) and the expression it stands for
  /// (the pass explorer uses it to show a node's details when it is clicked).
  std::function<void(const std::string& dot_name, const ir::ExprNode* node)> on_node = {};
};

/// The module as a `digraph`. Each global function is drawn (as a cluster when there are
/// several); lets, variables bound to values, tuple projections and calls of fused functions
/// are drawn as the edges they stand for (a projection labels its edge `.i`). An operator that
/// takes constants says how many (`+2 const`); the graph's label gives the totals.
/// Iterative: deep graphs do not recurse.
std::string ToDot(const ir::IRModule& mod, const DotOptions& options = {});

}  // namespace relaypass::tools
