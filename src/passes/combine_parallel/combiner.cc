#include "combiner.h"

#include <algorithm>

#include "relaypass/ir/visitor.h"
#include "relaypass/op/registry.h"
#include "relaypass/support/error.h"
#include "relaypass/support/pointer_map.h"

namespace relaypass::passes::combine_parallel {

using ir::Expr;

const ir::TensorTypeNode& TensorTypeOf(const Expr& e) {
  const auto* t = e->checked_type.as<ir::TensorTypeNode>();
  if (t == nullptr) throw InternalError("CombineParallel: expected a tensor-typed expression");
  return *t;
}

const ir::TensorTypeNode& TensorTypeOf(const ir::CallNode* call) {
  return TensorTypeOf(Expr(call));
}

Expr CallOpNamed(const std::string& name, std::vector<Expr> args,
                 const std::vector<std::pair<std::string, ir::AttrValue>>& values) {
  ir::Op op = op::GetOp(name);
  ir::Attrs attrs;
  if (op->def->attrs_schema) attrs = ir::MakeAttrs(*op->def->attrs_schema, values);
  return ir::MakeCall(op, std::move(args), std::move(attrs));
}

ParallelOpCombiner::ParallelOpCombiner(const std::string& op_name, uint64_t min_num_branches)
    : op_(op::GetOp(op_name).get()), min_num_branches_(min_num_branches) {}

// TVM's BranchGroupFinder. A supported call to the operator is recorded as a child of its data
// input only (which becomes a root); any other call as a child of each argument. Only calls are
// recorded as children (as TVM's finder visits only calls). A branch only needs to know whether a
// node has exactly one child and which, so one walk keeps a count and the first child per node;
// only the roots' children are listed in full, by a second walk in the same order.
std::vector<Group> ParallelOpCombiner::FindGroups(const Expr& expr) {
  struct Children {
    uint32_t count = 0;
    const ir::CallNode* first = nullptr;
  };
  support::PointerMap<Children> children;
  support::PointerMap<uint32_t> root_index;  // root -> index in roots / root_children
  std::vector<const ir::ExprNode*> roots;    // in first-seen order (TVM: an unordered set)
  // Calls each (parent, child) edge in the order TVM's finder records them.
  auto for_each_edge = [&](const auto& fn) {
    ir::post_order_visit(expr, [&](const Expr& e) {
      auto* call = e.as<ir::CallNode>();
      if (call == nullptr) return;
      if (call->op_node() == op_ && !call->args.empty() && IsSupportedOp(call)) {
        fn(call->args[0].get(), call, true);
      } else {
        for (const Expr& arg : call->args) fn(arg.get(), call, false);
      }
    });
  };
  for_each_edge([&](const ir::ExprNode* parent, const ir::CallNode* call, bool is_root) {
    Children& c = children[parent];
    if (c.count++ == 0) c.first = call;
    if (is_root && root_index.emplace(parent, static_cast<uint32_t>(roots.size())).second) {
      roots.push_back(parent);
    }
  });
  if (roots.empty()) return {};
  std::vector<std::vector<const ir::CallNode*>> root_children(roots.size());
  for_each_edge([&](const ir::ExprNode* parent, const ir::CallNode* call, bool) {
    if (const uint32_t* index = root_index.find(parent)) root_children[*index].push_back(call);
  });

  // TVM's CreateBranch: extend while the last call has exactly one (call) child, an operator of
  // pattern elementwise or broadcast.
  auto create_branch = [&](const ir::CallNode* first) {
    Branch branch{first};
    for (;;) {
      const Children* next = children.find(branch.back());
      if (next == nullptr || next->count != 1) break;
      const ir::CallNode* call = next->first;
      const ir::OpNode* op = call->op_node();
      if (op == nullptr || op->def == nullptr ||
          static_cast<int>(op->def->pattern) > static_cast<int>(op::OpPattern::kBroadcast)) {
        break;
      }
      branch.push_back(call);
    }
    return branch;
  };

  std::vector<Group> groups;
  for (size_t r = 0; r < roots.size(); ++r) {
    const size_t first_group = groups.size();
    for (const ir::CallNode* child : root_children[r]) {
      if (child->op_node() != op_) continue;
      Branch branch = create_branch(child);
      auto it =
          std::find_if(groups.begin() + static_cast<std::ptrdiff_t>(first_group), groups.end(),
                       [&](const Group& group) { return CanOpsBeCombined(child, group[0][0]); });
      if (it != groups.end()) {
        it->push_back(std::move(branch));
      } else {
        groups.push_back({std::move(branch)});
      }
    }
  }
  return groups;
}

Expr ParallelOpCombiner::Combine(const Expr& expr) {
  subst_.clear();
  for (const Group& group : FindGroups(expr)) {
    if (group.size() < min_num_branches_) continue;
    CombineBranches(group);
  }
  return Substitute(expr, subst_);
}

void ParallelOpCombiner::CombineBranches(const Group& branches) {
  Expr combined = MakeCombinedOp(branches);
  const size_t depth =
      std::min_element(branches.begin(), branches.end(), [](const Branch& a, const Branch& b) {
        return a.size() < b.size();
      })->size();
  size_t i = 1;  // 0 is the operator call itself
  for (; i < depth; ++i) {
    const ir::CallNode* call = branches[0][i];
    size_t parent_index = 0;
    while (parent_index < call->args.size() &&
           call->args[parent_index].get() != branches[0][i - 1]) {
      ++parent_index;
    }
    if (parent_index == call->args.size()) {
      throw InternalError("CombineParallel: a branch call does not use its predecessor");
    }
    if (!CheckLevel(branches, i, parent_index)) break;
    combined = MakeCombinedCallFromFollowingOps(combined, branches, i, parent_index);
  }
  UpdateGroupOutput(combined, branches, i - 1, subst_);
}

bool ParallelOpCombiner::CheckLevel(const Group& branches, size_t depth, size_t parent_index) {
  const ir::CallNode* call = branches[0][depth];
  for (auto it = branches.begin() + 1; it != branches.end(); ++it) {
    const ir::CallNode* other = (*it)[depth];
    if (!other->op.same_as(call->op) || !ir::AttrsEqual(other->attrs, call->attrs) ||
        other->args.size() != call->args.size()) {
      return false;
    }
    if (other->args[parent_index].get() != (*it)[depth - 1]) return false;
    for (size_t i = 0; i < call->args.size(); ++i) {
      if (i == parent_index) continue;
      if (!IsArgCompatible(call, other, i)) return false;
    }
  }
  return true;
}

}  // namespace relaypass::passes::combine_parallel
