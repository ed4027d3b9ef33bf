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

/// What a pattern node matched: TVM's Map<DFPattern, Array<Expr>> (keys by pattern identity).
using NodeMap = std::unordered_map<const DFPatternNode*, std::vector<ir::Expr>>;

/// Looks up `pattern` in `map` (the empty list if it matched nothing).
const std::vector<ir::Expr>& Lookup(const NodeMap& map, const DFPattern& pattern);

/// True if `pattern` matches `expr` (relay.dataflow_pattern.match / DFPattern.match).
bool Match(const DFPattern& pattern, const ir::Expr& expr);

/// What one match recorded: the node map, and the patterns the matcher built while matching
/// (TVM's associative multiply/divide), which are keys of the map too and live as long as it.
struct MatchedNodes {
  NodeMap node_map;
  std::vector<DFPattern> temporaries;
};
/// The node map of a match of `pattern` at `expr` (TVM's DFPatternMatcher memo), or nullopt.
std::optional<MatchedNodes> MatchNodes(const DFPattern& pattern, const ir::Expr& expr);

/// A match read without building a node map, for callers that run a pattern at many nodes: for
/// each pattern of `captures`, the expression it matched (null if none: an alternative not taken),
/// and the calls that the pattern's call patterns matched, the root included.
struct MatchedCaptures {
  std::vector<ir::Expr> captures;
  std::vector<const ir::ExprNode*> calls;
};
std::optional<MatchedCaptures> MatchCaptures(const DFPattern& pattern, const ir::Expr& expr,
                                             const std::vector<DFPattern>& captures);

/// A necessary condition for Match(pattern, expr), read from the pattern's call skeleton only (the
/// operators of its calls and their argument counts, constants and variables, near the root):
/// false means the pattern cannot match the expression; true means the matcher must decide. Built
/// once per pattern, for running a pattern at many nodes of which few can match (SimplifyExpr's
/// rules) at the cost of a few comparisons each.
class Prefilter {
 public:
  explicit Prefilter(const DFPattern& pattern);
  bool operator()(const ir::Expr& expr) const { return Might(root_, expr); }

 private:
  struct Node {
    enum Kind { kAny, kConstant, kVar, kCall, kAlt } kind = kAny;
    /// kCall: the callee's operators (when known_callee), argument patterns by index.
    bool known_callee = false, associative = false, commutative = false, has_args = false;
    std::vector<const ir::OpNode*> ops;
    std::vector<int> args;
    int left = -1, right = -1;  // kAlt
  };
  int Compile(const DFPattern& pattern, int depth, int alternatives);
  bool Might(int index, const ir::Expr& expr) const;
  std::vector<Node> nodes_;
  int root_;
};
/// Prefilter(pattern)(expr), for a single check.
bool MightMatch(const DFPattern& pattern, const ir::Expr& expr);

/// The operators a match's root can call (every alternative's root a call of an `IsOp` pattern;
/// multiply and divide both when either is one, as the matcher's associativity can swap them), or
/// empty when the pattern can match other roots.
std::vector<std::string> RootOps(const DFPattern& pattern);

/// A rewrite callback: the pattern and a function of the matched root before rewriting (`pre`),
/// the root rebuilt on its rewritten children (`post`) and the node map (post-rewrite nodes).
/// require_type runs type inference on the expression before each matching round;
/// rewrite_once stops after one round (TVM's DFPatternCallback fields).
struct DFPatternCallback {
  DFPattern pattern;
  std::function<ir::Expr(const ir::Expr& pre, const ir::Expr& post, const NodeMap& node_map)>
      function;
  bool require_type = false;
  bool rewrite_once = false;
};

/// Rewrites `expr` with the callbacks, each in turn, until a round changes nothing (TVM: at most
/// 100 rounds, then an error "Observed 100 rewrite passes, possible conflicting passes?").
/// `mod` supplies the global functions type inference may need.
ir::Expr Rewrite(const std::vector<DFPatternCallback>& callbacks, const ir::Expr& expr,
                 const ir::IRModule& mod = ir::IRModule());

/// Replaces each match of `pattern` (that `check` accepts, given the matched root) by a call to a
/// function of the match's inputs with attribute PartitionedFromPattern="<op names>_" followed by
/// `attrs` (relay.dataflow_pattern.partition / DFPattern.partition).
ir::Expr Partition(const DFPattern& pattern, const ir::Expr& expr, const ir::DictAttrs& attrs = {},
                   const std::function<bool(const ir::Expr&)>& check = nullptr);

}  // namespace relaypass::pattern
