#include "indexed_graph.h"

#include "relaypass/support/error.h"

namespace relaypass::passes::fuse {

using ir::ExprKind;
using ir::ExprNode;

namespace {

constexpr uint32_t kNone = IndexedForwardGraph::kNone;

// Scalar constants of these types may be fused into a consumer (TVM: "this rule must be
// consistent with code generator"); every other constant stays a parameter.
bool IsFusableConstant(const ir::ConstantNode* c) {
  if (!c->is_scalar()) return false;
  ir::DataType t = c->data.dtype();
  return t == ir::DataType::Int32() || t == ir::DataType::Int64() || t == ir::DataType::Float32() ||
         t == ir::DataType::Float(64) || t == ir::DataType::Bool();
}

// A function left to an external compiler is not looked into.
bool HasCompiler(const ir::FunctionNode* f) {
  const ir::AttrValue* compiler = f->attrs.find("Compiler");
  return compiler && !compiler->is_null();
}

const ir::Type& CheckedType(const ExprNode* e) {
  if (!e->checked_type) {
    throw InternalError("FuseOps needs checked types: run InferType before it");
  }
  return e->checked_type;
}

// Calls fn(child) for the children TVM's ExprVisitor visits, in its order.
template <typename F>
void ForEachVisitedChild(const ExprNode* e, F&& fn) {
  switch (e->kind) {
    case ExprKind::kFunction: {
      auto* f = static_cast<const ir::FunctionNode*>(e);
      if (HasCompiler(f)) return;
      for (const ir::Var& p : f->params) fn(p.get());
      fn(f->body.get());
      return;
    }
    case ExprKind::kLet: {
      auto* let = static_cast<const ir::LetNode*>(e);
      fn(let->var.get());
      fn(let->value.get());
      fn(let->body.get());
      return;
    }
    default:
      ir::ForEachChild(e, [&](const ir::Expr& c) { fn(c.get()); });
  }
}

}  // namespace

// Builds the graph with an explicit stack, in the order of TVM's recursive creator: on the first
// visit of a node its consumers' edges to its children are recorded (`Enter`), then its children
// are visited, then the node gets its post-DFS index (`Leave`).
class GraphBuilder {
 public:
  IndexedForwardGraph Build(const ir::Expr& body) {
    const uint32_t root = SlotOf(body.get());
    slots_[root].extern_ref = true;
    Walk(body.get(), root);
    return Finish();
  }

 private:
  struct Slot {
    const ExprNode* ref = nullptr;
    uint32_t index = kNone;  // post-DFS index once added
    bool extern_ref = false;
    OpPattern pattern = OpPattern::kOpaque;
    uint32_t first_edge = kNone;
    uint32_t last_edge = kNone;
  };
  struct EdgeLink {
    uint32_t consumer_slot;
    OpPattern pattern;
    uint32_t next;
  };

  uint32_t SlotOf(const ExprNode* e) {
    auto [slot, inserted] = slot_of_.emplace(e, static_cast<uint32_t>(slots_.size()));
    if (inserted) slots_.emplace_back();
    return *slot;
  }

  // The slot of `e`, a child of the node being entered. A uniquely referenced child is reached
  // through this parent only: it gets a slot without a table entry, and the walk is handed that
  // slot (entered_children_) instead of looking it up again.
  uint32_t ChildSlot(const ExprNode* e) {
    for (const auto& [child, slot] : entered_children_) {
      if (child == e) return slot;
    }
    uint32_t slot;
    if (e->uniquely_referenced()) {
      slot = static_cast<uint32_t>(slots_.size());
      slots_.emplace_back();
    } else {
      slot = SlotOf(e);
    }
    entered_children_.push_back({e, slot});
    return slot;
  }

  // Records that `consumer` (a slot) uses `e` with `pattern`; kNone marks `e` as external.
  void Update(const ExprNode* e, uint32_t consumer, OpPattern pattern) {
    uint32_t slot = ChildSlot(e);
    if (consumer == kNone) {
      slots_[slot].extern_ref = true;
      return;
    }
    auto link = static_cast<uint32_t>(links_.size());
    links_.push_back({consumer, pattern, kNone});
    Slot& s = slots_[slot];
    if (s.last_edge == kNone) {
      s.first_edge = link;
    } else {
      links_[s.last_edge].next = link;
    }
    s.last_edge = link;
  }

  void AddNode(const ExprNode* e, uint32_t slot) {
    slots_[slot].ref = e;
    slots_[slot].index = static_cast<uint32_t>(post_dfs_.size());
    post_dfs_.push_back(slot);
  }

  // Records the edges from `e` (in `node`) to its children; entered_children_ then holds the
  // children's slots.
  void Enter(const ExprNode* e, uint32_t node) {
    entered_children_.clear();
    switch (e->kind) {
      case ExprKind::kCall:
        EnterCall(static_cast<const ir::CallNode*>(e), node);
        break;
      case ExprKind::kTuple: {
        slots_[node].pattern = OpPattern::kTuple;
        for (const ir::Expr& field : static_cast<const ir::TupleNode*>(e)->fields) {
          if (CheckedType(field.get()).as<ir::TensorTypeNode>()) {
            Update(field.get(), node, OpPattern::kInjective);
          } else {
            Update(field.get(), kNone, OpPattern::kOpaque);
          }
        }
        break;
      }
      case ExprKind::kTupleGetItem: {
        const ExprNode* tuple = static_cast<const ir::TupleGetItemNode*>(e)->tuple.get();
        auto* tuple_type = CheckedType(tuple).as<ir::TupleTypeNode>();
        bool has_non_tensor = tuple_type == nullptr;
        if (tuple_type) {
          for (const ir::Type& t : tuple_type->fields)
            has_non_tensor |= !t.as<ir::TensorTypeNode>();
        }
        if (has_non_tensor) {
          // Lowering expects tuples of tensors only, so no fusion through this get-item.
          Update(tuple, kNone, OpPattern::kOpaque);
        } else {
          slots_[node].pattern = OpPattern::kInjective;
          Update(tuple, node, OpPattern::kInjective);
        }
        break;
      }
      case ExprKind::kFunction: {
        auto* f = static_cast<const ir::FunctionNode*>(e);
        if (HasCompiler(f)) break;
        for (const ir::Var& p : f->params) Update(p.get(), kNone, OpPattern::kOpaque);
        Update(f->body.get(), kNone, OpPattern::kOpaque);
        break;
      }
      case ExprKind::kLet:
      case ExprKind::kIf:
        // No fusion through lets and ifs: their operands are all external.
        ForEachVisitedChild(e, [&](const ExprNode* c) { Update(c, kNone, OpPattern::kOpaque); });
        break;
      default:
        break;
    }
  }

  void EnterCall(const ir::CallNode* call, uint32_t node) {
    OpPattern op_pattern = OpPattern::kOpaque;
    if (const ir::OpNode* op = call->op_node()) {
      if (op->def) op_pattern = op->def->pattern;
    } else {
      Update(call->op.get(), node, OpPattern::kOpaque);
    }
    slots_[node].pattern = op_pattern;
    Update(call->op.get(), kNone, OpPattern::kOpaque);
    auto* rtype = CheckedType(call).as<ir::TensorTypeNode>();
    for (const ir::Expr& arg : call->args) {
      auto* arg_type = CheckedType(arg.get()).as<ir::TensorTypeNode>();
      // A broadcast of an argument that already has the result's shape is elementwise.
      OpPattern edge_pattern = op_pattern;
      if (edge_pattern == OpPattern::kBroadcast && arg_type && rtype &&
          arg_type->shape == rtype->shape) {
        edge_pattern = OpPattern::kElemWise;
      }
      Update(arg.get(), node, edge_pattern);
    }
  }

  void Leave(const ExprNode* e, uint32_t slot) {
    switch (e->kind) {
      case ExprKind::kConstant: {
        AddNode(e, slot);
        bool fusable = IsFusableConstant(static_cast<const ir::ConstantNode*>(e));
        slots_[slot].pattern = fusable ? OpPattern::kElemWise : OpPattern::kOpaque;
        break;
      }
      case ExprKind::kVar:
      case ExprKind::kCall:
      case ExprKind::kTuple:
      case ExprKind::kTupleGetItem:
      case ExprKind::kLet:
      case ExprKind::kIf:
        AddNode(e, slot);
        break;
      default:
        break;  // ops, global vars and functions are not graph nodes
    }
  }

  // Depth-first, each node once, children in TVM's order. A uniquely referenced node is
  // reached once: it is not recorded as visited.
  void Walk(const ExprNode* root, uint32_t root_slot) {
    struct Frame {
      const ExprNode* node;
      uint32_t slot;
      size_t begin;  // the node's children are children[begin, end)
      size_t next;
      size_t end;
    };
    struct Child {
      const ExprNode* node;
      uint32_t slot;
    };
    std::vector<Frame> stack;
    std::vector<Child> children;
    auto open = [&](const ExprNode* e, uint32_t slot) {
      if (!e->uniquely_referenced()) visited_.insert(e);
      Enter(e, slot);
      size_t begin = children.size();
      ForEachVisitedChild(e, [&](const ExprNode* c) {
        // Enter gave every child a slot; a child it skipped (none today) is looked up.
        uint32_t child_slot = kNone;
        for (const auto& [n, s] : entered_children_) {
          if (n == c) child_slot = s;
        }
        children.push_back({c, child_slot});
      });
      stack.push_back({e, slot, begin, begin, children.size()});
    };
    open(root, root_slot);
    while (!stack.empty()) {
      Frame& top = stack.back();
      if (top.next < top.end) {
        const Child child = children[top.next++];
        if (child.node->uniquely_referenced() || !visited_.contains(child.node)) {
          open(child.node, child.slot != kNone ? child.slot : SlotOf(child.node));
        }
        continue;
      }
      const Frame done = top;
      children.resize(done.begin);
      stack.pop_back();
      Leave(done.node, done.slot);
    }
  }

  IndexedForwardGraph Finish() {
    IndexedForwardGraph g;
    size_t n = post_dfs_.size();
    g.refs_.resize(n);
    g.extern_ref_.resize(n);
    g.patterns_.resize(n);
    g.edge_begin_.resize(n + 1);
    g.edges_.reserve(links_.size());
    g.index_of_.reserve(n);
    for (size_t i = 0; i < n; ++i) {
      const Slot& s = slots_[post_dfs_[i]];
      g.refs_[i] = s.ref;
      g.extern_ref_[i] = s.extern_ref;
      g.patterns_[i] = s.pattern;
      g.edge_begin_[i] = static_cast<uint32_t>(g.edges_.size());
      for (uint32_t l = s.first_edge; l != kNone; l = links_[l].next) {
        g.edges_.push_back({slots_[links_[l].consumer_slot].index, links_[l].pattern});
      }
      g.index_of_.emplace(s.ref, static_cast<uint32_t>(i));
    }
    g.edge_begin_[n] = static_cast<uint32_t>(g.edges_.size());
    return g;
  }

  support::PointerMap<uint32_t> slot_of_;
  std::vector<Slot> slots_;
  std::vector<EdgeLink> links_;
  std::vector<uint32_t> post_dfs_;
  support::PointerSet visited_;
  std::vector<std::pair<const ExprNode*, uint32_t>> entered_children_;
};

IndexedForwardGraph IndexedForwardGraph::Create(const ir::Expr& body) {
  return GraphBuilder().Build(body);
}

}  // namespace relaypass::passes::fuse
