// TVM's AnnotatedRegionSet (src/relay/analysis/annotated_region_set.cc): the regions that
// compiler_begin / compiler_end annotations delimit. Built by one post-order walk: each begin opens
// a region (numbered in walk order from 0), a node joins the open regions of its arguments
// (merging them), an end closes its argument's region. Region ids survive merges (the region
// merged into keeps its id), so ids are sparse, as TVM's.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "relaypass/ir/expr.h"

namespace relaypass::passes::byoc {

// A region's inputs and outputs as merges leave them: annotations that a merge made internal stay
// in the deques (merging appends the smaller side, so a chain of merges stays linear) and are
// skipped by AnnotatedRegionSet::Ins / Outs.
struct AnnotatedRegion {
  int id = 0;
  std::string target;
  std::deque<ir::Expr> ins;   // compiler_begin calls
  std::deque<ir::Expr> outs;  // compiler_end calls
};

class AnnotatedRegionSet {
 public:
  // The regions of `expr` (a function). An end whose argument is in no region (TVM: an error)
  // gets a region of its own.
  static AnnotatedRegionSet Create(const ir::Expr& expr);

  // The id of the region `node` belongs to, or -1.
  int RegionOf(const ir::ExprNode* node) const;
  AnnotatedRegion& region(int id) { return regions_.at(id); }
  const AnnotatedRegion& region(int id) const { return regions_.at(id); }
  // The region's compiler_begin (resp. compiler_end) calls, in TVM's order.
  std::vector<ir::Expr> Ins(int id) const;
  std::vector<ir::Expr> Outs(int id) const;
  // Live region ids, ascending.
  std::vector<int> ids() const;
  // Moves `src` into `dest` (TVM's MergeRegions): an end of src feeding a begin of the merged
  // region becomes internal.
  void Merge(int src, int dest);

 private:
  int NewRegion(const std::string& target);
  void AddNode(const ir::ExprNode* node, int region);
  int Find(int id) const;
  // Joins `node` to the open regions of `args` (ends are closed).
  void AddToArgRegion(const ir::ExprNode* node, const std::vector<ir::Expr>& args);

  ir::Expr root_;
  std::map<int, AnnotatedRegion> regions_;
  std::unordered_map<const ir::ExprNode*, int> node_region_;  // a region id before merges
  mutable std::vector<int> parent_;                           // union-find over region ids
  std::unordered_set<const ir::ExprNode*> internal_;          // annotations merges made internal
  // The compiler_begin calls reading each node (an end, normally).
  std::unordered_map<const ir::ExprNode*, std::vector<const ir::ExprNode*>> consumers_;
};

}  // namespace relaypass::passes::byoc
