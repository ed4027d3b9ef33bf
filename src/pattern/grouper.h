// TVM's PatternGrouper: finds the non-overlapping matches of a pattern in an expression, from the
// outputs towards the inputs, and extracts each as a function of its inputs (params
// FunctionVar_<group>_<n>; constants matched by is_constant() or a constant is_expr stay inside).
// A match is dropped when it overlaps an earlier one or when one of its inner nodes is used
// outside it (unless the match's root post-dominates that use).
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "matcher.h"
#include "relaypass/support/pointer_map.h"

namespace relaypass::pattern {

struct PatternGroup {
  int gid = 0;
  ir::Expr root;
  NodeMap matched_nodes;
  ir::Function function;       // the match over FunctionVar_* params, no attributes
  std::string name;            // "nn.conv2d_nn.relu_": TVM's PartitionedFromPattern value
  std::vector<ir::Expr> args;  // what the params stand for, in order
};

class PatternGrouper {
 public:
  // The groups of `pattern` in `expr`, and which group each grouped node belongs to.
  void GroupMatches(const DFPattern& pattern, const ir::Expr& expr);
  // The group whose root is `node`, or null.
  const PatternGroup* GroupAt(const ir::ExprNode* node) const;

 private:
  void CreateGroup(const ir::Expr& root);
  bool EmbedConst(const ir::Expr& expr, const DFPattern& pattern);

  DFPattern pattern_;
  std::vector<DFPattern> pattern_order_;  // the pattern's nodes, inputs first
  std::vector<size_t> pattern_num_inputs_;
  Matcher* matcher_ = nullptr;
  std::unordered_map<int, PatternGroup> groups_;
  support::PointerMap<int> gid_;  // group of each grouped node
  int next_gid_ = 0;
  int graph_number_ = 0;
};

}  // namespace relaypass::pattern
