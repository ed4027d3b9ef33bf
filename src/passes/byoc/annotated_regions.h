// TVM's AnnotatedRegionSet (src/relay/analysis/annotated_region_set.cc): the regions that
// compiler_begin / compiler_end annotations delimit. Built by one post-order walk: each begin opens
// a region (numbered in walk order from 0), a node joins the open regions of its arguments
// (merging them), an end closes its argument's region. Region ids survive merges (the region
// merged into keeps its id), so ids are sparse, as TVM's.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "relaypass/ir/expr.h"

namespace relaypass::passes::byoc {

// A sequence grown at both ends: the entries put at the front (kept reversed), then those put
// at the back. Two vectors rather than a std::deque, which allocates two blocks (~600 bytes) as
// soon as it is made: a chain annotated op by op has a region, and two of these, per node.
class EntrySequence {
 public:
  void push_back(const ir::Expr& e) { back_.push_back(e); }
  size_t size() const { return front_.size() + back_.size(); }
  // Calls f on every entry, first to last.
  template <typename F>
  void ForEach(F&& f) const {
    for (auto it = front_.rbegin(); it != front_.rend(); ++it) f(*it);
    for (const ir::Expr& e : back_) f(e);
  }
  // This sequence becomes its entries followed by `later`'s, and `later` is left empty; the
  // smaller of the two is the one copied.
  void Join(EntrySequence& later);

 private:
  std::vector<ir::Expr> front_;  // reversed
  std::vector<ir::Expr> back_;
};

// A region's inputs and outputs as merges leave them: annotations that a merge made internal stay
// in the sequences (merging copies the smaller side, so a chain of merges stays linear) and are
// skipped by AnnotatedRegionSet::Ins / Outs.
struct AnnotatedRegion {
  int id = 0;
  std::string target;
  EntrySequence ins;   // compiler_begin calls
  EntrySequence outs;  // compiler_end calls
};

class AnnotatedRegionSet {
 public:
  // The regions of `expr` (a function). An end whose argument is in no region (TVM: an error)
  // gets a region of its own.
  static AnnotatedRegionSet Create(const ir::Expr& expr);

  // The id of the region `node` belongs to, or -1.
  int RegionOf(const ir::ExprNode* node) const;
  // The live region `id` (throws std::out_of_range for another id).
  AnnotatedRegion& region(int id);
  const AnnotatedRegion& region(int id) const;
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
  std::vector<AnnotatedRegion> regions_;  // by id; a region merged away is left empty
  std::vector<bool> live_;                // by id
  std::unordered_map<const ir::ExprNode*, int> node_region_;  // a region id before merges
  mutable std::vector<int> parent_;                           // union-find over region ids
  std::unordered_set<const ir::ExprNode*> internal_;          // annotations merges made internal
  // The compiler_begin calls reading each node (an end, normally).
  std::unordered_map<const ir::ExprNode*, std::vector<const ir::ExprNode*>> consumers_;
};

}  // namespace relaypass::passes::byoc
