#include "annotated_regions.h"

#include <stdexcept>
#include <string>

#include "relaypass/ir/visitor.h"
#include "relaypass/passes/byoc.h"
#include "relaypass/support/error.h"

namespace relaypass::passes::byoc {

void EntrySequence::Join(EntrySequence& later) {
  if (size() <= later.size()) {
    // Put this sequence's entries in front of later's, last first, and take later's storage.
    for (auto it = back_.rbegin(); it != back_.rend(); ++it) later.front_.push_back(*it);
    for (const ir::Expr& e : front_) later.front_.push_back(e);
    std::swap(front_, later.front_);
    std::swap(back_, later.back_);
  } else {
    later.ForEach([&](const ir::Expr& e) { back_.push_back(e); });
  }
  later.front_.clear();
  later.back_.clear();
}

AnnotatedRegion& AnnotatedRegionSet::region(int id) {
  if (id < 0 || static_cast<size_t>(id) >= live_.size() || !live_[id]) {
    throw std::out_of_range("no annotated region " + std::to_string(id));
  }
  return regions_[id];
}

const AnnotatedRegion& AnnotatedRegionSet::region(int id) const {
  return const_cast<AnnotatedRegionSet*>(this)->region(id);
}

int AnnotatedRegionSet::Find(int id) const {
  while (parent_[id] != id) {
    parent_[id] = parent_[parent_[id]];
    id = parent_[id];
  }
  return id;
}

int AnnotatedRegionSet::RegionOf(const ir::ExprNode* node) const {
  auto it = node_region_.find(node);
  return it == node_region_.end() ? -1 : Find(it->second);
}

std::vector<int> AnnotatedRegionSet::ids() const {
  std::vector<int> out;
  for (size_t id = 0; id < live_.size(); ++id) {
    if (live_[id]) out.push_back(static_cast<int>(id));
  }
  return out;
}

int AnnotatedRegionSet::NewRegion(const std::string& target) {
  const int id = static_cast<int>(parent_.size());
  parent_.push_back(id);
  regions_.push_back(AnnotatedRegion{id, target, {}, {}});
  live_.push_back(true);
  return id;
}

void AnnotatedRegionSet::AddNode(const ir::ExprNode* node, int region) {
  const int current = RegionOf(node);
  if (current >= 0) {
    Merge(current, region);
  } else {
    node_region_[node] = region;
  }
}

std::vector<ir::Expr> AnnotatedRegionSet::Ins(int id) const {
  std::vector<ir::Expr> out;
  region(id).ins.ForEach([&](const ir::Expr& e) {
    if (!internal_.count(e.get())) out.push_back(e);
  });
  return out;
}

std::vector<ir::Expr> AnnotatedRegionSet::Outs(int id) const {
  std::vector<ir::Expr> out;
  region(id).outs.ForEach([&](const ir::Expr& e) {
    if (!internal_.count(e.get())) out.push_back(e);
  });
  return out;
}

void AnnotatedRegionSet::Merge(int src, int dest) {
  src = Find(src);
  dest = Find(dest);
  if (src == dest) return;
  AnnotatedRegion& d = region(dest);
  AnnotatedRegion& s = region(src);
  // TVM: a begin of the merged region whose argument is a node of src (an end of src) is internal
  // now, and so is that end. Such a begin is dest's (src's own were made internal when their
  // producer joined src), so either side finds them: walk the smaller one.
  auto make_internal = [&](const ir::ExprNode* begin, const ir::ExprNode* end) {
    internal_.insert(begin);
    internal_.insert(end);
  };
  if (s.outs.size() <= d.ins.size()) {
    s.outs.ForEach([&](const ir::Expr& end) {
      if (internal_.count(end.get())) return;
      auto it = consumers_.find(end.get());
      if (it == consumers_.end()) return;
      for (const ir::ExprNode* begin : it->second) {
        const int r = RegionOf(begin);
        if (r == src || r == dest) make_internal(begin, end.get());
      }
    });
  } else {
    d.ins.ForEach([&](const ir::Expr& begin) {
      if (internal_.count(begin.get())) return;
      const ir::ExprNode* arg = begin.as<ir::CallNode>()->args[0].get();
      if (RegionOf(arg) == src) make_internal(begin.get(), arg);
    });
  }
  // dest's entries, then src's.
  d.ins.Join(s.ins);
  d.outs.Join(s.outs);
  s.target.clear();
  live_[src] = false;
  parent_[src] = dest;
}

void AnnotatedRegionSet::AddToArgRegion(const ir::ExprNode* node,
                                        const std::vector<ir::Expr>& args) {
  int region = -1;
  for (const ir::Expr& arg : args) {
    if (CompilerEndTarget(arg)) continue;  // closed
    region = RegionOf(arg.get());
    if (region >= 0) break;
  }
  if (region < 0) return;
  for (const ir::Expr& arg : args) {
    if (CompilerEndTarget(arg)) continue;
    const int other = RegionOf(arg.get());
    if (other >= 0 && other != region) {
      Merge(other, region);
      region = Find(region);
    }
  }
  AddNode(node, region);
}

AnnotatedRegionSet AnnotatedRegionSet::Create(const ir::Expr& expr) {
  AnnotatedRegionSet set;
  set.root_ = expr;
  ir::post_order_visit(expr, [&](const ir::Expr& e) {
    switch (e->kind) {
      case ir::ExprKind::kCall: {
        auto* call = e.as<ir::CallNode>();
        if (const std::string* begin = CompilerBeginTarget(e)) {
          const int id = set.NewRegion(*begin);
          set.node_region_[e.get()] = id;
          set.consumers_[call->args[0].get()].push_back(e.get());
          set.region(id).ins.push_back(e);
        } else if (CompilerEndTarget(e)) {
          int id = set.RegionOf(call->args[0].get());
          if (id < 0) {
            // TVM throws "Cannot find the corresponding region for end annotation". An end whose
            // argument was rewritten by another pass (folded to a constant, say) is given a
            // region of its own instead, as TVM's earlier region builder did.
            id = set.NewRegion(*CompilerEndTarget(e));
            set.node_region_[call->args[0].get()] = id;
          }
          set.node_region_[e.get()] = id;
          set.region(id).outs.push_back(e);
        } else {
          set.AddToArgRegion(e.get(), call->args);
        }
        break;
      }
      case ir::ExprKind::kTuple:
        set.AddToArgRegion(e.get(), e.as<ir::TupleNode>()->fields);
        break;
      case ir::ExprKind::kTupleGetItem:
        set.AddToArgRegion(e.get(), {e.as<ir::TupleGetItemNode>()->tuple});
        break;
      case ir::ExprKind::kLet: {
        auto* let = e.as<ir::LetNode>();
        set.AddToArgRegion(e.get(), {let->var, let->value, let->body});
        break;
      }
      case ir::ExprKind::kIf: {
        auto* node = e.as<ir::IfNode>();
        set.AddToArgRegion(e.get(), {node->cond, node->true_branch, node->false_branch});
        break;
      }
      case ir::ExprKind::kRefCreate:
        set.AddToArgRegion(e.get(), {e.as<ir::RefCreateNode>()->value});
        break;
      case ir::ExprKind::kRefRead:
        set.AddToArgRegion(e.get(), {e.as<ir::RefReadNode>()->ref});
        break;
      case ir::ExprKind::kRefWrite: {
        auto* node = e.as<ir::RefWriteNode>();
        set.AddToArgRegion(e.get(), {node->ref, node->value});
        break;
      }
      default:
        break;
    }
  });
  return set;
}

}  // namespace relaypass::passes::byoc
