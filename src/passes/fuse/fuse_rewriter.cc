#include "fuse_rewriter.h"

#include <memory>

#include "graph_partitioner.h"
#include "indexed_graph.h"
#include "relaypass/ir/visitor.h"

namespace relaypass::passes::fuse {

namespace {

using ir::Expr;

constexpr uint32_t kNone = IndexedForwardGraph::kNone;

// The parameters and arguments of one group's function, in order of first use.
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
  const std::vector<ir::Var>& params() const { return params_; }
  const std::vector<Expr>& arguments() const { return arguments_; }

 private:
  static constexpr size_t kLinearScanLimit = 16;
  std::vector<ir::Var> params_;
  std::vector<Expr> arguments_;
  std::unique_ptr<support::PointerMap<uint32_t>> index_;
};

class FuseRewriter : public ir::ExprMutator {
 public:
  FuseRewriter(const IndexedForwardGraph& graph, GraphPartitioner& partition, bool link_params)
      : graph_(graph),
        partition_(partition),
        link_params_(link_params),
        info_of_(graph.size(), kNone) {}

 protected:
  // Already fused functions are not fused again.
  bool ShouldVisitChildren(const Expr& e) override {
    auto* f = e.as<ir::FunctionNode>();
    return !(f && f->is_primitive());
  }

  Expr RewriteCall(const ir::CallNode* call, const Expr& post) override {
    const ir::OpNode* op = call->op_node();
    if (!op) return post;
    // `post` is the call on its rewritten arguments.
    const std::vector<Expr>& new_args = post.as<ir::CallNode>()->args;
    if (op->name == "annotation.stop_fusion") return new_args[0];
    uint32_t group = GroupOf(call);
    if (group == kNone) return post;
    ir::Call new_call =
        ir::MakeCall(call->op, NewArguments(call->args, new_args, group), call->attrs);
    const_cast<ir::CallNode*>(new_call.get())->span = call->span;
    if (group == graph_.IndexOf(call)) {
      return MakeNewFunction(group, call->checked_type, new_call);
    }
    return new_call;  // an intermediate node of a fused function
  }

  Expr RewriteTuple(const ir::TupleNode* tuple, const Expr& post) override {
    uint32_t group = GroupOf(tuple);
    if (group == kNone || group == graph_.IndexOf(tuple)) return post;
    // An intermediate node of a fused function.
    std::vector<Expr> fields = NewArguments(tuple->fields, post.as<ir::TupleNode>()->fields, group);
    bool unchanged = true;
    for (size_t i = 0; i < fields.size(); ++i) unchanged &= fields[i].same_as(tuple->fields[i]);
    if (unchanged) return Expr(tuple);
    Expr copy = ir::CopyNode(Expr(tuple));
    const_cast<ir::TupleNode*>(copy.as<ir::TupleNode>())->fields = std::move(fields);
    return copy;
  }

  Expr RewriteTupleGetItem(const ir::TupleGetItemNode* item, const Expr& post) override {
    uint32_t group = GroupOf(item);
    if (group == kNone) return post;
    Expr tuple = NewArguments({item->tuple}, {post.as<ir::TupleGetItemNode>()->tuple}, group)[0];
    Expr new_item = ir::MakeTupleGetItem(tuple, item->index);
    if (group != graph_.IndexOf(item)) return new_item;
    // Isolated: the tuple comes from another group (e.g. an opaque op returning a tuple).
    if (GroupOf(item->tuple.get()) != group) return post;
    return MakeNewFunction(group, item->checked_type, new_item);
  }

 private:
  // The root of the group holding `e`, or kNone if `e` is not a graph node.
  uint32_t GroupOf(const ir::ExprNode* e) {
    uint32_t i = graph_.IndexOf(e);
    return i == kNone ? kNone : partition_.FindRoot(i);
  }

  GroupInfo& InfoOf(uint32_t group) {
    if (info_of_[group] == kNone) {
      info_of_[group] = static_cast<uint32_t>(infos_.size());
      infos_.emplace_back();
    }
    return infos_[info_of_[group]];
  }

  // The arguments of a node of `group` (`args`, rewritten: `rewritten`): arguments from other
  // groups become the function's parameters (constants stay inline when linking params).
  std::vector<Expr> NewArguments(const std::vector<Expr>& args, const std::vector<Expr>& rewritten,
                                 uint32_t group) {
    std::vector<Expr> out;
    out.reserve(args.size());
    for (size_t i = 0; i < args.size(); ++i) {
      const Expr& arg = args[i];
      const Expr& new_arg = rewritten[i];
      if (GroupOf(arg.get()) != group && !(link_params_ && new_arg.as<ir::ConstantNode>())) {
        out.push_back(InfoOf(group).GetOrAllocParam(new_arg, arg->checked_type));
      } else {
        out.push_back(new_arg);
      }
    }
    return out;
  }

  // `Primitive=<1 if the body has a call>`, and `relay.reshape_only=1` when every call is a
  // reshape op and every variable a tensor. The body holds only its group's nodes.
  ir::DictAttrs FunctionAttrs(const Expr& body) {
    bool has_call = false;
    bool reshape_only = true;
    ++epoch_;
    walk_.assign(1, body.get());
    while (!walk_.empty()) {
      const ir::ExprNode* e = walk_.back();
      walk_.pop_back();
      // A uniquely referenced node is reached once: not recorded.
      if (!e->uniquely_referenced()) {
        auto [mark, fresh] = seen_.emplace(e, epoch_);
        if (!fresh && *mark == epoch_) continue;
        *mark = epoch_;
      }
      if (e->kind == ir::ExprKind::kCall) {
        has_call = true;
        const ir::OpNode* op = static_cast<const ir::CallNode*>(e)->op_node();
        if (!op || !op->def || !op->def->is_reshape_op) reshape_only = false;
      } else if (e->kind == ir::ExprKind::kVar) {
        const ir::Type& t = static_cast<const ir::VarNode*>(e)->type_annotation;
        if (!t || !t.as<ir::TensorTypeNode>()) reshape_only = false;
      }
      ir::ForEachChild(e, [&](const Expr& c) { walk_.push_back(c.get()); });
    }
    ir::DictAttrs attrs;
    attrs.Set("Primitive", ir::AttrValue::Int(has_call ? 1 : 0));
    if (has_call && reshape_only) attrs.Set("relay.reshape_only", ir::AttrValue::Int(1));
    return attrs;
  }

  Expr MakeNewFunction(uint32_t group, const ir::Type& ret_type, const Expr& body) {
    ir::DictAttrs attrs = FunctionAttrs(body);
    GroupInfo& info = InfoOf(group);
    ir::Function func = ir::MakeFunction(info.params(), body, ret_type, std::move(attrs));
    return ir::MakeCall(func, info.arguments());
  }

  const IndexedForwardGraph& graph_;
  GraphPartitioner& partition_;
  bool link_params_;
  std::vector<uint32_t> info_of_;  // group root -> index into infos_
  std::vector<GroupInfo> infos_;
  // Scratch for FunctionAttrs: nodes seen in walk number epoch_.
  support::PointerMap<uint32_t> seen_;
  uint32_t epoch_ = 0;
  std::vector<const ir::ExprNode*> walk_;
};

}  // namespace

Expr FuseExpr(const Expr& expr, const FuseOptions& options) {
  IndexedForwardGraph graph = IndexedForwardGraph::Create(expr);
  GraphPartitioner partition(options.opt_level, options.max_fuse_depth);
  partition.Partition(graph);
  return FuseRewriter(graph, partition, options.link_params).Mutate(expr);
}

}  // namespace relaypass::passes::fuse
