#include "indexed_graph.h"

#include "relaypass/support/error.h"

namespace relaypass::passes::fuse {

using ir::ExprKind;
using ir::ExprNode;

namespace {

using Id = ir::PostOrderIndex::Id;
constexpr uint32_t kNone = IndexedForwardGraph::kNone;
static_assert(ir::PostOrderIndex::kNone == IndexedForwardGraph::kNone);

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

// The tensor type of a call argument or tuple field, null for any other type. A constructor
// or global variable used as a value keeps the module's node, which type inference leaves
// without a checked type: it is a function, never a tensor.
const ir::TensorTypeNode* TensorTypeOf(const ExprNode* e) {
  if (!e->checked_type && (e->kind == ExprKind::kConstructor || e->kind == ExprKind::kGlobalVar)) {
    return nullptr;
  }
  return CheckedType(e).as<ir::TensorTypeNode>();
}

}  // namespace

// Builds the graph with an explicit stack, in the order of TVM's recursive creator: on the first
// visit of a node its consumers' edges to its children are recorded (`Enter`), then its children
// are visited, then the node gets its post-DFS index (`Leave`). Per-node facts live in `slots_`,
// indexed by the node's PostOrderIndex number.
class GraphBuilder {
 public:
  explicit GraphBuilder(ir::PostOrderIndex& index) : index_(index) {}

  IndexedForwardGraph Build(Id root) {
    slots_.resize(index_.size());
    slots_[root].extern_ref = true;
    Walk(root);
    return Finish();
  }

 private:
  struct Slot {
    uint32_t index = kNone;  // post-DFS index once added
    uint32_t first_edge = kNone;
    uint32_t last_edge = kNone;
    OpPattern pattern = OpPattern::kOpaque;
    bool extern_ref = false;
    bool visited = false;
  };
  struct EdgeLink {
    Id consumer;
    OpPattern pattern;
    uint32_t next;
  };

  // The children TVM's ExprVisitor visits, in its order, into `out`.
  void VisitedChildren(Id id, std::vector<Id>& out) {
    out.clear();
    const ExprNode* e = index_.node(id);
    if (e->kind == ExprKind::kFunction) {
      auto* f = static_cast<const ir::FunctionNode*>(e);
      if (HasCompiler(f)) return;
      if (!index_.children_visited(id)) {
        // A function the rewriter does not enter (already primitive): TVM's graph holds its
        // nodes all the same.
        for (const ir::Var& p : f->params) out.push_back(index_.Add(p));
        out.push_back(index_.Add(f->body));
        slots_.resize(index_.size());
        return;
      }
    }
    std::span<const Id> kids = index_.children(id);
    if (e->kind == ExprKind::kLet) {
      out.assign({kids[1], kids[0], kids[2]});  // the index lists value, var, body
    } else {
      out.assign(kids.begin(), kids.end());
    }
  }

  // Records that `consumer` uses `child` with `pattern`; kNone marks `child` as external.
  void Update(Id child, Id consumer, OpPattern pattern) {
    if (child == kNone) return;
    if (consumer == kNone) {
      slots_[child].extern_ref = true;
      return;
    }
    auto link = static_cast<uint32_t>(links_.size());
    links_.push_back({consumer, pattern, kNone});
    Slot& s = slots_[child];
    if (s.last_edge == kNone) {
      s.first_edge = link;
    } else {
      links_[s.last_edge].next = link;
    }
    s.last_edge = link;
  }

  void AddNode(Id id) {
    slots_[id].index = static_cast<uint32_t>(post_dfs_.size());
    post_dfs_.push_back(id);
  }

  // Records the edges from node `id` to its `children` (as VisitedChildren lists them).
  void Enter(Id id, std::span<const Id> children) {
    const ExprNode* e = index_.node(id);
    switch (e->kind) {
      case ExprKind::kCall:
        EnterCall(static_cast<const ir::CallNode*>(e), id, children);
        break;
      case ExprKind::kTuple: {
        slots_[id].pattern = OpPattern::kTuple;
        const std::vector<ir::Expr>& fields = static_cast<const ir::TupleNode*>(e)->fields;
        for (size_t i = 0; i < fields.size(); ++i) {
          if (TensorTypeOf(fields[i].get())) {
            Update(children[i], id, OpPattern::kInjective);
          } else {
            Update(children[i], kNone, OpPattern::kOpaque);
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
          Update(children[0], kNone, OpPattern::kOpaque);
        } else {
          slots_[id].pattern = OpPattern::kInjective;
          Update(children[0], id, OpPattern::kInjective);
        }
        break;
      }
      case ExprKind::kFunction:
      case ExprKind::kLet:
      case ExprKind::kIf:
      case ExprKind::kMatch:
      case ExprKind::kRefCreate:
      case ExprKind::kRefRead:
      case ExprKind::kRefWrite:
        // Function params and bodies, let, if and reference operands are all external: no
        // fusion through them.
        for (Id c : children) Update(c, kNone, OpPattern::kOpaque);
        break;
      default:
        break;
    }
  }

  // `children`: the callee, then the arguments.
  void EnterCall(const ir::CallNode* call, Id id, std::span<const Id> children) {
    OpPattern op_pattern = OpPattern::kOpaque;
    if (const ir::OpNode* op = call->op_node()) {
      if (op->def) op_pattern = op->def->pattern;
    } else {
      Update(children[0], id, OpPattern::kOpaque);
    }
    slots_[id].pattern = op_pattern;
    Update(children[0], kNone, OpPattern::kOpaque);
    auto* rtype = CheckedType(call).as<ir::TensorTypeNode>();
    for (size_t i = 0; i < call->args.size(); ++i) {
      auto* arg_type = TensorTypeOf(call->args[i].get());
      // A broadcast of an argument that already has the result's shape is elementwise.
      OpPattern edge_pattern = op_pattern;
      if (edge_pattern == OpPattern::kBroadcast && arg_type && rtype &&
          arg_type->shape == rtype->shape) {
        edge_pattern = OpPattern::kElemWise;
      }
      Update(children[1 + i], id, edge_pattern);
    }
  }

  void Leave(Id id) {
    const ExprNode* e = index_.node(id);
    switch (e->kind) {
      case ExprKind::kConstant: {
        AddNode(id);
        bool fusable = IsFusableConstant(static_cast<const ir::ConstantNode*>(e));
        slots_[id].pattern = fusable ? OpPattern::kElemWise : OpPattern::kOpaque;
        break;
      }
      case ExprKind::kVar:
      case ExprKind::kCall:
      case ExprKind::kTuple:
      case ExprKind::kTupleGetItem:
      case ExprKind::kLet:
      case ExprKind::kIf:
      case ExprKind::kMatch:
      case ExprKind::kRefCreate:
      case ExprKind::kRefRead:
      case ExprKind::kRefWrite:
        AddNode(id);
        break;
      default:
        break;  // ops, global vars and functions are not graph nodes
    }
  }

  // Depth-first, each node once, children in TVM's order.
  void Walk(Id root) {
    struct Frame {
      Id id;
      size_t begin;  // the node's children are children[begin, end)
      size_t next;
      size_t end;
    };
    std::vector<Frame> stack;
    std::vector<Id> children;
    std::vector<Id> scratch;
    auto open = [&](Id id) {
      slots_[id].visited = true;
      VisitedChildren(id, scratch);
      Enter(id, scratch);
      size_t begin = children.size();
      children.insert(children.end(), scratch.begin(), scratch.end());
      stack.push_back({id, begin, begin, children.size()});
    };
    open(root);
    while (!stack.empty()) {
      Frame& top = stack.back();
      if (top.next < top.end) {
        const Id child = children[top.next++];
        if (child != kNone && !slots_[child].visited) open(child);
        continue;
      }
      const Frame done = top;
      children.resize(done.begin);
      stack.pop_back();
      Leave(done.id);
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
    g.index_of_id_.assign(index_.size(), kNone);
    for (size_t i = 0; i < n; ++i) {
      const Id id = post_dfs_[i];
      const Slot& s = slots_[id];
      g.refs_[i] = index_.node(id);
      g.extern_ref_[i] = s.extern_ref;
      g.patterns_[i] = s.pattern;
      g.edge_begin_[i] = static_cast<uint32_t>(g.edges_.size());
      for (uint32_t l = s.first_edge; l != kNone; l = links_[l].next) {
        g.edges_.push_back({slots_[links_[l].consumer].index, links_[l].pattern});
      }
      g.index_of_id_[id] = static_cast<uint32_t>(i);
    }
    g.edge_begin_[n] = static_cast<uint32_t>(g.edges_.size());
    return g;
  }

  ir::PostOrderIndex& index_;
  std::vector<Slot> slots_;  // by PostOrderIndex number
  std::vector<EdgeLink> links_;
  std::vector<Id> post_dfs_;  // post-DFS order, as PostOrderIndex numbers
};

IndexedForwardGraph IndexedForwardGraph::Create(ir::PostOrderIndex& index,
                                                ir::PostOrderIndex::Id root) {
  return GraphBuilder(index).Build(root);
}

}  // namespace relaypass::passes::fuse
