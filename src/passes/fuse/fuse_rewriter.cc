#include "fuse_rewriter.h"

#include <memory>
#include <span>

#include "graph_partitioner.h"
#include "indexed_graph.h"
#include "relaypass/ir/post_order_index.h"

namespace relaypass::passes::fuse {

namespace {

using ir::Expr;

using Id = ir::PostOrderIndex::Id;
constexpr uint32_t kNone = IndexedForwardGraph::kNone;

// The parameters and arguments of one group's function, in order of first use, and what its
// attributes need to know of the nodes in it.
class GroupInfo {
 public:
  // The parameter standing for `argument` in the group's function, allocated on first use as
  // `p<N>` with the argument's checked type. Groups have few inputs, so a linear scan serves
  // until there are many.
  ir::Var GetOrAllocParam(const Expr& argument, const ir::Type& type) {
    if (index_) {
      if (const uint32_t* i = index_->find(argument.get())) return params_[*i];
    } else {
      for (size_t i = 0; i < arguments_.size(); ++i) {
        if (arguments_[i].same_as(argument)) return params_[i];
      }
    }
    ir::Var param = ir::MakeVar("p" + std::to_string(params_.size()), type);
    if (!type || !type.as<ir::TensorTypeNode>()) reshape_only_ = false;
    params_.push_back(param);
    arguments_.push_back(argument);
    if (!index_ && arguments_.size() > kLinearScanLimit) {
      index_ = std::make_unique<support::PointerMap<uint32_t>>();
      for (size_t i = 0; i < arguments_.size(); ++i) {
        index_->emplace(arguments_[i].get(), static_cast<uint32_t>(i));
      }
    } else if (index_) {
      index_->emplace(argument.get(), static_cast<uint32_t>(arguments_.size() - 1));
    }
    return param;
  }
  // Called for each operator call placed in the group's function.
  void AddCall(const ir::OpNode* op) {
    has_call_ = true;
    if (!op->def || !op->def->is_reshape_op) reshape_only_ = false;
  }
  const std::vector<ir::Var>& params() const { return params_; }
  const std::vector<Expr>& arguments() const { return arguments_; }

  // `Primitive=<1 if the body has a call>`, and `relay.reshape_only=1` when every call is a
  // reshape op and every parameter a tensor. (The body holds the group's nodes, its parameters
  // and, when linking params, constants: nothing else bears on these.)
  ir::DictAttrs FunctionAttrs() const {
    ir::DictAttrs attrs;
    attrs.Set("Primitive", ir::AttrValue::Int(has_call_ ? 1 : 0));
    if (has_call_ && reshape_only_) attrs.Set("relay.reshape_only", ir::AttrValue::Int(1));
    return attrs;
  }

 private:
  static constexpr size_t kLinearScanLimit = 16;
  std::vector<ir::Var> params_;
  std::vector<Expr> arguments_;
  std::unique_ptr<support::PointerMap<uint32_t>> index_;
  bool has_call_ = false;
  bool reshape_only_ = true;
};

bool IsPrimitiveFunction(const ir::ExprNode* e) {
  return e->kind == ir::ExprKind::kFunction &&
         static_cast<const ir::FunctionNode*>(e)->is_primitive();
}

// TVM's FuseMutator. It walks the PostOrderIndex the graph was built on, children before
// parents, so a node's group and its arguments' groups are array reads by number. (It is not an
// ExprMutator: a call placed in a group is built once from its arguments' results, not rebuilt
// first and then copied.)
class FuseRewriter {
 public:
  FuseRewriter(const ir::PostOrderIndex& index, const IndexedForwardGraph& graph,
               GraphPartitioner& partition, bool link_params)
      : index_(index),
        graph_(graph),
        partition_(partition),
        link_params_(link_params),
        info_of_(graph.size(), kNone),
        results_(index.size()) {}

  // Rewrites the first `count` nodes of the index's post order (those reached without entering
  // an already primitive function) and returns the result for `root`.
  Expr Run(Id root, size_t count) {
    for (size_t i = 0; i < count; ++i) {
      const Id id = index_.post_order()[i];
      results_[id] = RewriteNode(id);
    }
    return results_[root];
  }

 private:
  Expr RewriteNode(Id id) {
    const ir::ExprNode* pre = index_.node(id);
    // Already fused functions are not fused again.
    if (!index_.children_visited(id)) return Expr(pre);
    switch (pre->kind) {
      case ir::ExprKind::kCall:
        return RewriteCall(static_cast<const ir::CallNode*>(pre), id);
      case ir::ExprKind::kTuple:
        return RewriteTuple(static_cast<const ir::TupleNode*>(pre), id);
      case ir::ExprKind::kTupleGetItem:
        return RewriteTupleGetItem(static_cast<const ir::TupleGetItemNode*>(pre), id);
      default:
        return Rebuilt(pre, id);
    }
  }

  // `pre` on its children's results.
  Expr Rebuilt(const ir::ExprNode* pre, Id id) {
    return ir::RebuildOnChildren(Expr(pre), index_.children(id), results_);
  }

  // The result for child `id` (a null result keeps the child itself).
  Expr ResultOf(Id id) const { return results_[id] ? results_[id] : Expr(index_.node(id)); }

  Expr RewriteCall(const ir::CallNode* call, Id id) {
    const ir::OpNode* op = call->op_node();
    if (!op) return Rebuilt(call, id);
    std::span<const Id> args = index_.children(id).subspan(1);  // after the callee
    if (op->name == "annotation.stop_fusion") return ResultOf(args[0]);
    const uint32_t node = graph_.IndexOf(id);
    const uint32_t group = GroupOf(id);
    if (group == kNone) return Rebuilt(call, id);
    InfoOf(group).AddCall(op);
    ir::Call new_call = ir::MakeCall(call->op, NewArguments(call->args, args, group), call->attrs);
    const_cast<ir::CallNode*>(new_call.get())->span = call->span;
    if (group == node) return MakeNewFunction(group, call->checked_type, new_call);
    return new_call;  // an intermediate node of a fused function
  }

  Expr RewriteTuple(const ir::TupleNode* tuple, Id id) {
    const uint32_t group = GroupOf(id);
    if (group == kNone || group == graph_.IndexOf(id)) return Rebuilt(tuple, id);
    // An intermediate node of a fused function.
    std::vector<Expr> fields = NewArguments(tuple->fields, index_.children(id), group);
    bool unchanged = true;
    for (size_t i = 0; i < fields.size(); ++i) unchanged &= fields[i].same_as(tuple->fields[i]);
    if (unchanged) return Expr(tuple);
    Expr copy = ir::CopyNode(Expr(tuple));
    const_cast<ir::TupleNode*>(copy.as<ir::TupleNode>())->fields = std::move(fields);
    return copy;
  }

  Expr RewriteTupleGetItem(const ir::TupleGetItemNode* item, Id id) {
    const uint32_t group = GroupOf(id);
    if (group == kNone) return Rebuilt(item, id);
    const Id tuple_id = index_.children(id)[0];
    Expr tuple = NewArguments({item->tuple}, {&tuple_id, 1}, group)[0];
    Expr new_item = ir::MakeTupleGetItem(tuple, item->index);
    if (group != graph_.IndexOf(id)) return new_item;
    // Isolated: the tuple comes from another group (e.g. an opaque op returning a tuple).
    if (GroupOf(tuple_id) != group) return Rebuilt(item, id);
    return MakeNewFunction(group, item->checked_type, new_item);
  }

  // The root of the group holding node `id`, or kNone if it is not a graph node.
  uint32_t GroupOf(Id id) {
    const uint32_t i = graph_.IndexOf(id);
    return i == kNone ? kNone : partition_.FindRoot(i);
  }

  GroupInfo& InfoOf(uint32_t group) {
    if (info_of_[group] == kNone) {
      info_of_[group] = static_cast<uint32_t>(infos_.size());
      infos_.emplace_back();
    }
    return infos_[info_of_[group]];
  }

  // The arguments of a node of `group` (`args`, numbered `ids`): arguments from other groups
  // become the function's parameters (constants stay inline when linking params).
  std::vector<Expr> NewArguments(const std::vector<Expr>& args, std::span<const Id> ids,
                                 uint32_t group) {
    std::vector<Expr> out;
    out.reserve(args.size());
    for (size_t i = 0; i < args.size(); ++i) {
      Expr new_arg = ResultOf(ids[i]);
      if (GroupOf(ids[i]) != group && !(link_params_ && new_arg.as<ir::ConstantNode>())) {
        out.push_back(InfoOf(group).GetOrAllocParam(new_arg, args[i]->checked_type));
      } else {
        out.push_back(std::move(new_arg));
      }
    }
    return out;
  }

  Expr MakeNewFunction(uint32_t group, const ir::Type& ret_type, const Expr& body) {
    const GroupInfo& info = InfoOf(group);
    ir::Function func = ir::MakeFunction(info.params(), body, ret_type, info.FunctionAttrs());
    return ir::MakeCall(func, info.arguments());
  }

  const ir::PostOrderIndex& index_;
  const IndexedForwardGraph& graph_;
  GraphPartitioner& partition_;
  bool link_params_;
  std::vector<uint32_t> info_of_;  // group root -> index into infos_
  std::vector<GroupInfo> infos_;
  std::vector<Expr> results_;  // by PostOrderIndex number
};

}  // namespace

Expr FuseExpr(const Expr& expr, const FuseOptions& options) {
  ir::PostOrderIndex index;
  const Id root = index.Add(expr, [](const ir::ExprNode* e) { return !IsPrimitiveFunction(e); });
  const size_t reached = index.post_order().size();
  IndexedForwardGraph graph = IndexedForwardGraph::Create(index, root);
  GraphPartitioner partition(options.opt_level, options.max_fuse_depth);
  partition.Partition(graph);
  return FuseRewriter(index, graph, partition, options.link_params).Run(root, reached);
}

}  // namespace relaypass::passes::fuse
