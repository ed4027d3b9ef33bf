#include "annotated_regions.h"

#include <algorithm>

#include "relaypass/ir/visitor.h"
#include "relaypass/passes/byoc.h"
#include "relaypass/support/error.h"

namespace relaypass::passes::byoc {

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
  for (const auto& [id, region] : regions_) out.push_back(id);
  return out;
}

int AnnotatedRegionSet::NewRegion(const std::string& target) {
  const int id = static_cast<int>(parent_.size());
  parent_.push_back(id);
  regions_[id] = AnnotatedRegion{id, target, {}, {}};
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

void AnnotatedRegionSet::Merge(int src, int dest) {
  src = Find(src);
  dest = Find(dest);
  if (src == dest) return;
  AnnotatedRegion& d = regions_.at(dest);
  AnnotatedRegion& s = regions_.at(src);
  d.ins.insert(d.ins.end(), s.ins.begin(), s.ins.end());
  d.outs.insert(d.outs.end(), s.outs.begin(), s.outs.end());
  // Begins of the merged region whose argument is an end of src are internal now.
  std::vector<ir::Expr> ins;
  for (const ir::Expr& in : d.ins) {
    const ir::Expr& arg = in.as<ir::CallNode>()->args[0];
    if (RegionOf(arg.get()) == src) {
      d.outs.erase(std::remove_if(d.outs.begin(), d.outs.end(),
                                  [&](const ir::Expr& o) { return o.same_as(arg); }),
                   d.outs.end());
    } else {
      ins.push_back(in);
    }
  }
  d.ins = std::move(ins);
  regions_.erase(src);
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
          set.regions_.at(id).ins.push_back(e);
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
          set.regions_.at(id).outs.push_back(e);
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
      default:
        break;
    }
  });
  return set;
}

}  // namespace relaypass::passes::byoc
