// TVM's DFPatternMatcher: matches a pattern against one expression of a graph, recording what
// each pattern node matched. A pattern node used twice must match the same expression twice
// (memoization), as in TVM. Recursion follows the pattern only (at most kMaxPatternDepth levels);
// the graph (needed by dominator patterns) is built on first use.
#pragma once

#include <memory>
#include <unordered_map>
#include <vector>

#include "expr_graph.h"
#include "relaypass/pattern/match.h"

namespace relaypass::pattern {

// How deeply a pattern may nest (each level is a few stack frames of the matcher).
inline constexpr int kMaxPatternDepth = 2000;

class Matcher {
 public:
  explicit Matcher(ir::Expr root) : root_(std::move(root)) {}
  bool Match(const DFPattern& pattern, const ir::Expr& expr);
  const NodeMap& memo() const { return memo_; }
  // The patterns built during the last match (keys of memo()); the matcher gives them up.
  std::vector<DFPattern> TakeTemporaries() { return std::move(temporaries_); }
  ExprGraph& graph();

 private:
  bool Visit(const DFPattern& pattern, const ir::Expr& expr);
  bool VisitNode(const DFPattern& pattern, const ir::Expr& expr);
  bool VisitCall(const CallPatternNode* p, const ir::Expr& expr);
  bool MatchArgs(const std::vector<DFPattern>& patterns, const std::vector<ir::Expr>& args,
                 size_t watermark);
  bool VisitAttr(const AttrPatternNode* p, const ir::Expr& expr);
  bool VisitDominator(const DominatorPatternNode* p, const ir::Expr& expr);
  bool MatchesPath(const DominatorPatternNode* p, const ir::Expr& expr);
  bool DominatesParent(const DominatorPatternNode* p, const ir::Expr& expr);
  void ClearMap(size_t watermark);
  // A pattern built during matching (associative multiply/divide): kept alive with the memo.
  DFPattern Keep(DFPattern p) {
    temporaries_.push_back(p);
    return p;
  }

  ir::Expr root_;
  std::unique_ptr<ExprGraph> graph_;
  NodeMap memo_;
  std::vector<const DFPatternNode*> matched_nodes_;
  std::vector<DFPattern> temporaries_;
  bool memoize_ = true;
  int depth_ = 0;
};

// The type of `expr`: its checked type, else the type inference infers for it.
ir::Type ExprType(const ir::Expr& expr);

}  // namespace relaypass::pattern
