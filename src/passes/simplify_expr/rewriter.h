// The rewriting loop of TVM's RewritePatterns (src/relay/ir/dataflow_matcher.cc) for rules
// written as C++ matchers instead of dataflow patterns.
//
// Each round applies the rules in order. For one rule: types are inferred (when the expression
// changed), matches are grouped from the output back to the inputs (a node belongs to at most
// one match; a match whose inner nodes are used outside it is dropped, as TVM's PatternGrouper
// does), then the expression is rebuilt children first and each match's root is replaced by the
// rule's callback, which sees the rewritten captures. Rounds repeat until a round changes nothing
// (structurally) or TVM's callback budget (100 callback runs) is spent.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "relaypass/ir/expr.h"
#include "relaypass/ir/module.h"

namespace relaypass::passes::simplify {

/// What a rule's matcher found at a node: the matched inner nodes (every matched node except the
/// root and the captured inputs) and the captured expressions, in the rule's order.
struct Match {
  std::vector<const ir::ExprNode*> inner;
  std::vector<ir::Expr> captures;
};

struct Rule {
  std::string name;
  /// The operators a match's root calls: the matcher runs only on calls of these (every node
  /// otherwise; most rules match none of a graph's calls, and are skipped without reading them).
  std::vector<std::string> roots;
  /// Matches the typed expression at `pre`; fills `match` and returns true on a match.
  std::function<bool(const ir::Expr& pre, Match& match)> match;
  /// The replacement of `post` (pre rebuilt on rewritten children); `captures` are the rewritten
  /// captured expressions. Returning `post` keeps it.
  std::function<ir::Expr(const ir::Expr& pre, const ir::Expr& post,
                         const std::vector<ir::Expr>& captures)>
      rewrite;
};

/// Runs `rules` over `func` as TVM's RewritePatterns. `tvm_callbacks` is the number of rewrites
/// TVM's composer holds for this pass (it bounds the rounds: TVM stops after 100 callback runs).
ir::Function RewriteWithRules(const ir::Function& func, const ir::IRModule& mod,
                              const std::vector<Rule>& rules, int tvm_callbacks);

}  // namespace relaypass::passes::simplify
