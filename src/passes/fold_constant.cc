#include "relaypass/passes/fold_constant.h"

#include <optional>
#include <string>
#include <vector>

#include "relaypass/eval/interpreter.h"
#include "relaypass/eval/value.h"
#include "relaypass/ir/tensor_size.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/op/registry.h"
#include "relaypass/support/error.h"
#include "relaypass/support/memory_budget.h"
#include "relaypass/support/pointer_map.h"

namespace relaypass::passes {

namespace {

using ir::Expr;

// A Constant, or a Tuple whose fields are all complex constants (TVM's IsComplexConstant).
bool IsComplexConstant(const Expr& e) {
  // Tuples of constants nest only as deep as they are written; no graph-depth recursion.
  if (e->kind == ir::ExprKind::kConstant) return true;
  auto* tuple = e.as<ir::TupleNode>();
  if (!tuple) return false;
  for (const Expr& f : tuple->fields) {
    if (!IsComplexConstant(f)) return false;
  }
  return true;
}

// TVM's EvaluateShapeOf / EvaluateNdarraySize: shape_of and ndarray_size of a tensor whose type
// has a static shape are that shape (or its element count), whatever the tensor's value. A rank-0
// input stays (TVM folds it to a scalar, not to the empty shape), as does a `?` extent.
std::optional<Expr> FoldShapeQuery(const ir::CallNode* pre) {
  const ir::OpNode* op = pre->op_node();
  if (!op || (op->name != "shape_of" && op->name != "ndarray_size") || pre->args.size() != 1) {
    return std::nullopt;
  }
  const auto* t = pre->args[0]->checked_type.as<ir::TensorTypeNode>();
  if (!t || t->shape.empty() || !pre->attrs) return std::nullopt;
  std::vector<int64_t> dims;
  for (ir::Dim d : t->shape) {
    if (d < 0) return std::nullopt;
    dims.push_back(d);
  }
  const std::string& name = pre->attrs->get_string("dtype");
  const std::optional<ir::DataType> parsed =
      name.empty() ? ir::DataType::Int32() : ir::DataType::Parse(name);
  if (!parsed || (*parsed != ir::DataType::Int32() && *parsed != ir::DataType::Int64())) {
    return std::nullopt;
  }
  const ir::DataType dtype = *parsed;
  if (op->name == "ndarray_size") {
    const std::optional<int64_t> count = ir::ElementCount(dims);
    if (!count) return std::nullopt;
    dims = {*count};
  }
  const ir::Shape shape =
      op->name == "shape_of" ? ir::Shape{static_cast<int64_t>(dims.size())} : ir::Shape{};
  ir::NDArray out = ir::NDArray::Empty(shape, dtype);
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dtype == ir::DataType::Int32()) {
      out.mutable_data<int32_t>()[i] = static_cast<int32_t>(dims[i]);
    } else {
      out.mutable_data<int64_t>()[i] = dims[i];
    }
  }
  return eval::ValueToExpr(eval::Value(out));
}

// Whether a call's checked result type says it is too large to fold: a tensor (or the tensors of
// a tuple) over kMaxFoldBytes, or whose size overflows. An unknown type or dimension says
// nothing; the evaluation's own allocations are then checked against the memory budget.
bool TooLargeToFold(const ir::Type& type) {
  std::vector<const ir::TypeNode*> stack = {type.get()};
  int64_t total = 0;
  while (!stack.empty()) {
    const ir::TypeNode* t = stack.back();
    stack.pop_back();
    if (!t) continue;
    if (t->kind == ir::TupleTypeNode::kKind) {
      for (const ir::Type& field : static_cast<const ir::TupleTypeNode*>(t)->fields) {
        stack.push_back(field.get());
      }
    } else if (t->kind == ir::TensorTypeNode::kKind) {
      const auto* tensor = static_cast<const ir::TensorTypeNode*>(t);
      if (!tensor->is_static()) continue;
      const std::optional<int64_t> bytes = ir::ByteCount(tensor->shape, tensor->dtype);
      if (!bytes || __builtin_add_overflow(total, *bytes, &total)) return true;
    }
  }
  return total > kMaxFoldBytes;
}

class ConstantFolder : public ir::ExprMutator {
 public:
  explicit ConstantFolder(bool fold_qnn = false) : fold_qnn_(fold_qnn) {}

 protected:
  bool ShouldVisitChildren(const Expr& e) override {
    auto* fn = e.as<ir::FunctionNode>();
    return !(fn && fn->is_primitive());
  }

  // The let's value is rewritten before its variable (see ExprMutator's visit order).
  Expr RewriteVar(const ir::VarNode* pre, const Expr& post) override {
    if (lets_scanned_ < index().size()) FindLets();
    const ir::LetNode* const* let = let_of_.find(pre);
    if (!let) return post;
    Expr value = Lookup((*let)->value);
    return value && value->kind == ir::ExprKind::kConstant ? value : post;
  }

  Expr RewriteLet(const ir::LetNode* pre, const Expr& post) override {
    Expr value = Lookup(pre->value);
    if (value && value->kind == ir::ExprKind::kConstant) return post.as<ir::LetNode>()->body;
    return post;
  }

  Expr RewriteIf(const ir::IfNode*, const Expr& post) override {
    auto* node = post.as<ir::IfNode>();
    auto* cond = node->cond.as<ir::ConstantNode>();
    if (!cond || cond->data.nbytes() == 0) return post;
    bool taken = *static_cast<const uint8_t*>(cond->data.raw_data()) != 0;
    return taken ? node->true_branch : node->false_branch;
  }

  Expr RewriteTupleGetItem(const ir::TupleGetItemNode*, const Expr& post) override {
    auto* item = post.as<ir::TupleGetItemNode>();
    auto* tuple = item->tuple.as<ir::TupleNode>();
    if (!tuple || item->index < 0 || item->index >= static_cast<int>(tuple->fields.size())) {
      return post;
    }
    return tuple->fields[item->index];
  }

  Expr RewriteCall(const ir::CallNode* pre, const Expr& post) override {
    if (std::optional<Expr> shape = FoldShapeQuery(pre)) return *shape;
    auto* call = post.as<ir::CallNode>();
    auto* op = call->op_node();
    const op::OpDef* def = op::Def(op);
    if (call->args.empty() || !def || def->stateful || !def->kernel) return post;
    // As TVM, qnn ops are folded only when asked (fold_qnn): they stay for the qnn lowering.
    if (!fold_qnn_ && op->name.starts_with("qnn.")) return post;
    for (const Expr& a : call->args) {
      if (!IsComplexConstant(a)) return post;
    }
    if (TooLargeToFold(call->checked_type)) return post;
    // As TVM's FoldConstant, a call the evaluator cannot compute (an integer division by zero in
    // a branch that may never run, a cast to a dtype without a kernel, a tensor over the memory
    // budget) stays as it is: the program fails, if ever, where it runs. A broken precondition
    // of the API (InternalError) is a bug and still propagates.
    try {
      return eval::ValueToExpr(eval::EvaluateConstantCall(call));
    } catch (const InternalError&) {
      throw;
    } catch (const Error&) {
      return post;
    }
  }

 private:
  // Which let binds each let variable, so a use can be replaced by a folded value. Read at the
  // first variable from the walk's own index (complete before any hook runs; nodes a later
  // Mutate call adds are read at the next variable), which spares a second walk over the graph.
  void FindLets() {
    for (; lets_scanned_ < index().size(); ++lets_scanned_) {
      const auto id = static_cast<ir::PostOrderIndex::Id>(lets_scanned_);
      const ir::ExprNode* node = index().node(id);
      if (node->kind == ir::ExprKind::kLet) {
        auto* let = static_cast<const ir::LetNode*>(node);
        let_of_.emplace(let->var.get(), let);
      }
    }
  }

  bool fold_qnn_ = false;
  size_t lets_scanned_ = 0;  // index() entries read so far
  support::PointerMap<const ir::LetNode*> let_of_;
};

}  // namespace

Expr FoldConstantExpr(const Expr& expr) {
  return ConstantFolder().Mutate(expr);
}

transform::Pass FoldConstant(bool fold_qnn) {
  return transform::CreateFunctionPass(
      [fold_qnn](const ir::Function& func, const ir::IRModule&, const transform::PassContext& ctx) {
        // The context's memory budget bounds what folding may allocate (0: the process's).
        const int64_t budget = ctx.GetConfig("relay.memory_budget").as_int();
        support::MemoryBudgetScope scope(budget > 0 ? static_cast<uint64_t>(budget) : 0);
        return ConstantFolder(fold_qnn).Mutate(func).downcast<ir::FunctionNode>();
      },
      2, "FoldConstant");
}

void RegisterFoldConstant(transform::PassRegistry& registry) {
  registry.Register(
      {"FoldConstant",
       {{"fold_qnn", transform::OptionType::kBool, transform::OptionValue::Bool(false),
         "also fold qnn.* calls (TVM's default leaves them for the qnn lowering)"}},
       [](const transform::PassOptions& options) {
         return FoldConstant(options.GetBool("fold_qnn"));
       },
       "evaluates calls whose arguments are all constants"});
}

}  // namespace relaypass::passes
