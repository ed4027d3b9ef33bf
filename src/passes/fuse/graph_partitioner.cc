#include "graph_partitioner.h"

#include "relaypass/support/error.h"

namespace relaypass::passes::fuse {

namespace {

// Combines the patterns of two merged groups; two complex (> Broadcast) groups never merge.
OpPattern CombineGroupPatterns(OpPattern lhs, OpPattern rhs) {
  if (lhs > OpPattern::kBroadcast && rhs > OpPattern::kBroadcast) {
    throw InternalError("FuseOps: cannot merge two complex groups together");
  }
  return MaxPattern(lhs, rhs);
}

}  // namespace

void GraphPartitioner::Partition(const IndexedForwardGraph& graph) {
  uint32_t n = graph.size();
  groups_.assign(n, Group{});
  mark_.assign(n, 0);
  for (uint32_t i = 0; i < n; ++i) {
    groups_[i].pattern = graph.pattern(i);
    if (groups_[i].pattern == OpPattern::kOutEWiseFusable) groups_[i].anchor = i;
  }
  if (opt_level_ == 0) return;
  DominatorTree tree = DominatorTree::PostDom(graph);
  for (int phase = 0; phase < 3; ++phase) RunFuse(graph, tree, phase);
}

uint32_t GraphPartitioner::FindRoot(uint32_t i) {
  uint32_t root = i;
  while (groups_[root].parent != kNone) root = groups_[root].parent;
  while (i != root) {  // path compression
    uint32_t next = groups_[i].parent;
    groups_[i].parent = root;
    i = next;
  }
  return root;
}

void GraphPartitioner::NewWalk() {
  if (++epoch_ == 0) {  // wrapped: forget every old mark
    std::fill(mark_.begin(), mark_.end(), 0);
    epoch_ = 1;
  }
  walk_stack_.clear();
}

bool GraphPartitioner::Mark(uint32_t i) {
  if (mark_[i] == epoch_) return false;
  mark_[i] = epoch_;
  return true;
}

template <typename Cond>
bool GraphPartitioner::CheckPath(const IndexedForwardGraph& graph, uint32_t src, uint32_t sink,
                                 Cond cond) {
  NewWalk();
  for (const ForwardEdge& e : graph.outputs(src)) walk_stack_.push_back(e.node);
  while (!walk_stack_.empty()) {
    uint32_t node = walk_stack_.back();
    walk_stack_.pop_back();
    if (!Mark(node)) continue;
    if (!cond(groups_[FindRoot(node)].pattern, node == sink)) return false;
    if (node == sink) continue;
    for (const ForwardEdge& e : graph.outputs(node)) walk_stack_.push_back(e.node);
  }
  return true;
}

void GraphPartitioner::CommitFuse(const IndexedForwardGraph& graph, uint32_t src, uint32_t sink) {
  NewWalk();
  walk_stack_.push_back(src);
  while (!walk_stack_.empty()) {
    uint32_t node = walk_stack_.back();
    walk_stack_.pop_back();
    if (node == sink || !Mark(node)) continue;
    MergeFromTo(node, sink);
    for (const ForwardEdge& e : graph.outputs(node)) walk_stack_.push_back(e.node);
  }
}

void GraphPartitioner::MergeFromTo(uint32_t child, uint32_t parent) {
  child = FindRoot(child);
  parent = FindRoot(parent);
  if (child == parent) return;
  Group& c = groups_[child];
  Group& p = groups_[parent];
  p.num_nodes += c.num_nodes;
  c.parent = parent;
  if (c.anchor != kNone) {
    if (p.anchor != kNone) throw InternalError("FuseOps: a group with two anchors");
    p.anchor = c.anchor;
    p.pattern = CombineGroupPatterns(c.pattern, p.pattern);
  }
}

uint32_t GraphPartitioner::CountFusedNodesWithNewChild(const IndexedForwardGraph& graph,
                                                       uint32_t child, uint32_t dom_parent) {
  uint32_t count = groups_[FindRoot(dom_parent)].num_nodes;
  NewWalk();
  walk_stack_.push_back(child);
  while (!walk_stack_.empty()) {
    uint32_t node = walk_stack_.back();
    walk_stack_.pop_back();
    if (node == dom_parent || !Mark(node)) continue;
    // The node's own group record, not its root: TVM counts it this way.
    count += groups_[node].num_nodes;
    for (const ForwardEdge& e : graph.outputs(node)) walk_stack_.push_back(e.node);
  }
  return count;
}

void GraphPartitioner::RunFuse(const IndexedForwardGraph& graph, const DominatorTree& tree,
                               int phase) {
  using P = OpPattern;
  for (uint32_t nid = 0; nid < graph.size(); ++nid) {
    // The node's own group record decides (TVM reads it, not the root's).
    OpPattern pattern = groups_[nid].pattern;
    if (pattern == P::kOpaque) continue;
    uint32_t dom = tree.parent(nid);
    if (dom == kNone) continue;
    if (CountFusedNodesWithNewChild(graph, nid, dom) > max_fuse_depth_) continue;

    if (phase == 2) {
      // Fuse injective ops into intermediate tuples, if any.
      if (pattern > P::kInjective) continue;
      uint32_t dom_root = FindRoot(dom);
      // A tuple that roots its group is never fused into.
      if (groups_[dom_root].pattern == P::kTuple) continue;
      if (groups_[dom].pattern == P::kTuple && groups_[dom_root].pattern <= P::kInjective) {
        // The tuple was fused into later injective ops; avoid fusing two intermediate tuples.
        auto cond = [](P kind, bool) { return kind <= P::kInjective; };
        if (CheckPath(graph, nid, dom, cond)) CommitFuse(graph, nid, dom);
      }
      continue;
    }

    if (FindRoot(nid) == FindRoot(dom)) continue;     // already fused into the dominator
    if (groups_[dom].pattern == P::kTuple) continue;  // do not fuse into tuples yet
    if (pattern == P::kOutEWiseFusable) {
      if (phase != 0) continue;
      // conv2d-like: fuse the following elementwise chain while everything stays broadcast.
      if (tree.pattern(nid) == P::kElemWise) {
        auto cond = [](P kind, bool) { return kind <= P::kBroadcast; };
        if (CheckPath(graph, nid, dom, cond)) CommitFuse(graph, nid, dom);
      }
    } else if (pattern <= P::kBroadcast) {
      // Only into an injective or reduction consumer; the paths may be injective and the
      // dominator may already belong to an OutEWiseFusable group.
      P dom_pattern = tree.pattern(nid);
      if (dom_pattern <= P::kInjective || dom_pattern == P::kCommReduce) {
        auto cond = [](P kind, bool is_sink) {
          if (!is_sink) return kind <= P::kInjective;
          return kind <= P::kBroadcast || kind == P::kCommReduce || kind == P::kInjective ||
                 kind == P::kOutEWiseFusable;
        };
        if (CheckPath(graph, nid, dom, cond)) CommitFuse(graph, nid, dom);
      }
    } else if (pattern == P::kInjective || pattern == P::kTuple) {
      // Injective fusion waits for phase 1 so that conv2d-like groups finish first.
      if (phase != 1) continue;
      auto cond = [](P kind, bool) { return kind <= P::kInjective; };
      if (CheckPath(graph, nid, dom, cond)) CommitFuse(graph, nid, dom);
    }
    // CommReduce: nothing.
  }
}

}  // namespace relaypass::passes::fuse
