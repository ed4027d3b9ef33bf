// The pattern engine's rule rewriter: TVM's RewritePatterns loop (src/relay/ir/dataflow_matcher.cc)
// for passes that run many rules over large graphs, such as SimplifyExpr.
//
// A rule is a dataflow pattern and a callback (PatternRule), or a hand-written matcher for the
// few patterns the engine's immutable patterns cannot express (a cyclic one). Each round applies
// the rules in order. For one rule: types are inferred (when the expression changed), matches are
// grouped from the output back to the inputs (a node belongs to at most one match; a match whose
// inner nodes are used outside it is dropped, as TVM's PatternGrouper does), then the expression
// is rebuilt children first and each match's root is replaced by the rule's callback, which sees
// the rewritten captures. Rounds repeat until a round changes nothing (structurally) or TVM's
// callback budget (100 callback runs) is spent.
//
// Unlike pattern::Rewrite (relay.dataflow_pattern.rewrite, whose callbacks see the whole node
// map), the rules share one numbering of the graph while none of them changes it, and run the
// matcher only at calls of their roots' operators that pass the pattern's Prefilter.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "relaypass/ir/expr.h"
#include "relaypass/ir/module.h"
#include "relaypass/pattern/pattern.h"

namespace relaypass::pattern {

/// What a rule's matcher found at a node: the matched inner nodes (every matched node except the
/// root and the captured inputs) and the captured expressions, in the rule's order.
struct RuleMatch {
  std::vector<const ir::ExprNode*> inner;
  std::vector<ir::Expr> captures;
};

/// The replacement of `post` (pre rebuilt on rewritten children); `captures` are the rewritten
/// captured expressions (null for a capture the match did not use). Returning `post` keeps it.
using RuleCallback = std::function<ir::Expr(const ir::Expr& pre, const ir::Expr& post,
                                            const std::vector<ir::Expr>& captures)>;

struct RewriteRule {
  std::string name;
  /// The operators a match's root calls: the matcher runs only on calls of these (every call
  /// otherwise; most rules match none of a graph's calls, and are skipped without reading them).
  std::vector<std::string> roots;
  /// Matches the typed expression at `pre`; fills `match` and returns true on a match.
  std::function<bool(const ir::Expr& pre, RuleMatch& match)> match;
  RuleCallback rewrite;
};

/// A rule from `pattern`, its roots read from it (RootOps), each node checked with its Prefilter
/// before the matcher runs. The callback sees, for each of `captures` in order, the rewritten
/// expression it matched. The calls the pattern matched below the root are the match's inner
/// nodes (used only inside the match, as TVM's grouper requires).
RewriteRule PatternRule(std::string name, DFPattern pattern, std::vector<DFPattern> captures,
                        RuleCallback rewrite);

/// Runs `rules` over `func` as TVM's RewritePatterns. `tvm_callbacks` is the number of rewrites
/// TVM's composer holds for this pass (it bounds the rounds: TVM stops after 100 callback runs).
ir::Function RewriteWithRules(const ir::Function& func, const ir::IRModule& mod,
                              const std::vector<RewriteRule>& rules, int tvm_callbacks);

}  // namespace relaypass::pattern
