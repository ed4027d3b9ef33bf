// The fusion algorithm proper (TVM's GraphPartitioner): union-find groups over the nodes of an
// IndexedForwardGraph, merged along the post-dominator tree in three phases (relay_semantics.md
// 3.4). Group ids are node indices; a group's root node is the node its fused function returns.
#pragma once

#include <cstdint>
#include <vector>

#include "dominator_tree.h"
#include "indexed_graph.h"

namespace relaypass::passes::fuse {

class GraphPartitioner {
 public:
  static constexpr uint32_t kNone = IndexedForwardGraph::kNone;

  // `opt_level` 0 leaves every node in its own group; `max_fuse_depth` bounds the number of
  // nodes in one group.
  GraphPartitioner(int opt_level, uint32_t max_fuse_depth)
      : opt_level_(opt_level), max_fuse_depth_(max_fuse_depth) {}

  void Partition(const IndexedForwardGraph& graph);

  // The root of the group holding node `i` (the node the group's function returns).
  uint32_t FindRoot(uint32_t i);

 private:
  struct Group {
    uint32_t parent = kNone;  // union-find link; kNone for a root
    OpPattern pattern = OpPattern::kOpaque;
    uint32_t anchor = kNone;  // the OutEWiseFusable node of the group, if any
    uint32_t num_nodes = 1;
  };

  void RunFuse(const IndexedForwardGraph& graph, const DominatorTree& tree, int phase);
  // Whether every node on the paths from src's consumers up to and including `sink` satisfies
  // cond(root group pattern, is_sink).
  template <typename Cond>
  bool CheckPath(const IndexedForwardGraph& graph, uint32_t src, uint32_t sink, Cond cond);
  // Merges the groups of all nodes on the paths from src up to (not including) sink into
  // sink's group.
  void CommitFuse(const IndexedForwardGraph& graph, uint32_t src, uint32_t sink);
  void MergeFromTo(uint32_t child, uint32_t parent);
  // The size of sink's group if src and the nodes between were fused into it.
  uint32_t CountFusedNodesWithNewChild(const IndexedForwardGraph& graph, uint32_t child,
                                       uint32_t dom_parent);

  // Visited marks for the path walks: node i is marked when mark_[i] == epoch_.
  void NewWalk();
  bool Mark(uint32_t i);  // true if i was not yet marked in this walk

  int opt_level_;
  uint32_t max_fuse_depth_;
  std::vector<Group> groups_;
  std::vector<uint32_t> mark_;
  uint32_t epoch_ = 0;
  std::vector<uint32_t> walk_stack_;
};

}  // namespace relaypass::passes::fuse
