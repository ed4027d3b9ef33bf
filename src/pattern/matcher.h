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

// True if operator `op` carries every one of `attrs` (TVM's op attribute maps: TOpPattern, ...),
// as an attribute pattern on a callee tests it.
bool OpHasAttrs(const ir::OpNode* op, const ir::DictAttrs& attrs);

class Matcher {
 public:
  explicit Matcher(ir::Expr root) : root_(std::move(root)) {}
  // Matches within another expression from now on (a matcher reused keeps its lists' memory).
  void SetRoot(ir::Expr root) {
    root_ = std::move(root);
    graph_.reset();
  }
  // Lets go of every expression and pattern the last match holds (keeping the lists' memory).
  void Release() {
    SetRoot(ir::Expr());
    memo_.clear();
    matched_nodes_.clear();
    temporaries_.clear();
  }
  bool Match(const DFPattern& pattern, const ir::Expr& expr);
  // What each pattern node matched in the last match (TVM's memo), as a node map.
  NodeMap memo() const;
  // The expression `pattern` matched first in the last match, or null.
  const ir::Expr* Matched(const DFPatternNode* pattern) const;
  // Every (pattern, expression) the last match recorded, in order.
  const std::vector<std::pair<const DFPatternNode*, ir::Expr>>& matched() const { return memo_; }
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
  // (pattern, expression) pairs in the order they matched: a few per match, so a flat list
  // searched linearly costs less than a map. A pattern has one pair while memoizing.
  std::vector<std::pair<const DFPatternNode*, ir::Expr>> memo_;
  std::vector<const DFPatternNode*> matched_nodes_;
  std::vector<DFPattern> temporaries_;
  bool memoize_ = true;
  int depth_ = 0;
};

// The type of `expr`: its checked type, else the type inference infers for it.
ir::Type ExprType(const ir::Expr& expr);

}  // namespace relaypass::pattern
