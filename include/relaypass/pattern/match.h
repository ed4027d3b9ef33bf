// Matching, rewriting and partitioning with dataflow patterns (TVM v0.13's
// relay.dataflow_pattern.match / rewrite / partition, src/relay/ir/dataflow_matcher.cc).
//
// The matcher recurses on the pattern (a handful of nodes), never on the expression graph: the
// expression side is walked through ir::PostOrderIndex numbers and explicit stacks, so matching at
// every node of a 1,000,000-node chain is linear.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "relaypass/ir/attrs.h"
#include "relaypass/ir/expr.h"
#include "relaypass/ir/module.h"
#include "relaypass/pattern/pattern.h"

namespace relaypass::pattern {

// What a pattern node matched: TVM's Map<DFPattern, Array<Expr>> (keys by pattern identity).
using NodeMap = std::unordered_map<const DFPatternNode*, std::vector<ir::Expr>>;

// Looks up `pattern` in `map` (the empty list if it matched nothing).
const std::vector<ir::Expr>& Lookup(const NodeMap& map, const DFPattern& pattern);

// True if `pattern` matches `expr` (relay.dataflow_pattern.match / DFPattern.match).
bool Match(const DFPattern& pattern, const ir::Expr& expr);

// What one match recorded: the node map, and the patterns the matcher built while matching
// (TVM's associative multiply/divide), which are keys of the map too and live as long as it.
struct MatchedNodes {
  NodeMap node_map;
  std::vector<DFPattern> temporaries;
};
// The node map of a match of `pattern` at `expr` (TVM's DFPatternMatcher memo), or nullopt.
std::optional<MatchedNodes> MatchNodes(const DFPattern& pattern, const ir::Expr& expr);

// A rewrite callback: the pattern and a function of the matched root before rewriting (`pre`),
// the root rebuilt on its rewritten children (`post`) and the node map (post-rewrite nodes).
// require_type runs type inference on the expression before each matching round;
// rewrite_once stops after one round (TVM's DFPatternCallback fields).
struct DFPatternCallback {
  DFPattern pattern;
  std::function<ir::Expr(const ir::Expr& pre, const ir::Expr& post, const NodeMap& node_map)>
      function;
  bool require_type = false;
  bool rewrite_once = false;
};

// Rewrites `expr` with the callbacks, each in turn, until a round changes nothing (TVM: at most
// 100 rounds, then an error "Observed 100 rewrite passes, possible conflicting passes?").
// `mod` supplies the global functions type inference may need.
ir::Expr Rewrite(const std::vector<DFPatternCallback>& callbacks, const ir::Expr& expr,
                 const ir::IRModule& mod = ir::IRModule());

// Replaces each match of `pattern` (that `check` accepts, given the matched root) by a call to a
// function of the match's inputs with attribute PartitionedFromPattern="<op names>_" followed by
// `attrs` (relay.dataflow_pattern.partition / DFPattern.partition).
ir::Expr Partition(const DFPattern& pattern, const ir::Expr& expr, const ir::DictAttrs& attrs = {},
                   const std::function<bool(const ir::Expr&)>& check = nullptr);

}  // namespace relaypass::pattern
