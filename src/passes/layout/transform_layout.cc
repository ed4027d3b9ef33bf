#include "transform_layout.h"

#include <optional>
#include <string>
#include <utility>

#include "layout_transformer.h"
#include "relaypass/ir/post_order_index.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/op/registry.h"
#include "relaypass/passes/alter_op_layout.h"
#include "relaypass/support/error.h"
#include "relaypass/support/pointer_map.h"

namespace relaypass::passes::layout {

namespace {

using ir::Expr;
using op::Layout;
using op::Layouts;

// The rewritten form of a value.
enum class ValueKind : uint8_t {
  kPlain,   // an ordinary expression
  kLayout,  // an expression in a new layout, knowing its old one (TVM's LayoutAlternatedExpr)
  kTuple,   // a tuple literal with fields that are not all plain
};

struct Value {
  // kPlain: the expression. kLayout: the value in its new layout. kTuple: the tuple node it was
  // rewritten from (null for the fields of a call's tuple result).
  Expr expr;
  uint32_t aux = 0;  // kLayout: index into layouts_; kTuple: index into tuples_
  ValueKind kind = ValueKind::kPlain;
};

struct LayoutPair {
  Layout old_layout, new_layout;
};

struct TupleValue {
  std::vector<uint32_t> fields;
  Expr realized;  // the plain tuple, once built
};

// One input of a call as its producer left it (a tuple argument gives one input per field).
struct Input {
  Expr value;
  Layout old_layout, new_layout;  // undefined for plain values
};

// `original` (a tuple node, or null) with `fields`; the node itself when nothing changed.
Expr WithFields(const Expr& original, std::vector<Expr> fields) {
  auto* tuple = original.as<ir::TupleNode>();
  if (tuple != nullptr && tuple->fields.size() == fields.size()) {
    bool same = true;
    for (size_t i = 0; i < fields.size(); ++i) same &= fields[i].same_as(tuple->fields[i]);
    if (same) return original;
  }
  Expr result = ir::MakeTuple(std::move(fields));
  if (tuple != nullptr) const_cast<ir::ExprNode*>(result.get())->span = tuple->span;
  return result;
}

Expr WithSpan(Expr e, const Span& span) {
  const_cast<ir::ExprNode*>(e.get())->span = span;
  return e;
}

// The op's layout rule; nullopt if it has none or any layout comes back undefined.
std::optional<op::InferLayoutOutput> Infer(const op::OpDef* def, const ir::Attrs& attrs,
                                           const Layouts* new_in, const Layouts& old_in,
                                           const std::vector<ir::Type>& types) {
  if (!def || !def->infer_layout) return std::nullopt;
  op::InferLayoutOutput out = def->infer_layout(attrs, new_in, old_in, types);
  for (const Layouts* layouts : {&out.input_layouts, &out.output_layouts}) {
    for (const Layout& layout : *layouts) {
      if (!layout.defined()) return std::nullopt;
    }
  }
  return out;
}

class Rewriter {
 public:
  explicit Rewriter(LayoutCallBuilder& builder) : builder_(builder) {}

  ir::Function Run(const ir::Function& func) {
    const ir::PostOrderIndex::Id root = index_.Add(func);
    value_of_.resize(index_.size());
    for (ir::PostOrderIndex::Id id : index_.post_order()) {
      current_ = id;
      cursor_ = 0;
      value_of_[id] = Visit(Expr(index_.node(id)));
    }
    return Realize(value_of_[root]).downcast<ir::FunctionNode>();
  }

 private:
  // The value of `e`, a child of the node being visited: found among that node's children by
  // number (no table lookup). The visits ask for children in order, so the search starts after
  // the last one found.
  uint32_t IdOf(const Expr& e) {
    const std::span<const ir::PostOrderIndex::Id> kids = index_.children(current_);
    for (size_t n = 0; n < kids.size(); ++n) {
      const size_t k = (cursor_ + n) % kids.size();
      if (kids[k] != ir::PostOrderIndex::kNone && index_.node(kids[k]) == e.get()) {
        cursor_ = k + 1;
        return value_of_[kids[k]];
      }
    }
    return value_of_[index_.find(e.get())];
  }

  uint32_t Add(Value value) {
    values_.push_back(std::move(value));
    return static_cast<uint32_t>(values_.size() - 1);
  }
  uint32_t Plain(Expr e) { return Add({std::move(e), 0, ValueKind::kPlain}); }
  uint32_t WithLayout(Expr e, Layout old_layout, Layout new_layout) {
    layouts_.push_back({std::move(old_layout), std::move(new_layout)});
    return Add({std::move(e), static_cast<uint32_t>(layouts_.size() - 1), ValueKind::kLayout});
  }
  uint32_t TupleOf(Expr original, std::vector<uint32_t> fields) {
    tuples_.push_back({std::move(fields), nullptr});
    return Add({std::move(original), static_cast<uint32_t>(tuples_.size() - 1), ValueKind::kTuple});
  }

  // The value as an ordinary expression: a value in a new layout is converted back to its old
  // layout (TVM's TempExpr::Realize).
  Expr Realize(uint32_t id) {
    const Value& v = values_[id];
    switch (v.kind) {
      case ValueKind::kPlain:
        return v.expr;
      case ValueKind::kLayout: {
        const LayoutPair& layouts = layouts_[v.aux];
        return transformer_.Transform(v.expr, layouts.new_layout, layouts.old_layout);
      }
      case ValueKind::kTuple:
        return RealizeTuple(id);
    }
    return v.expr;
  }

  // Tuples of tuples are realized inner first, with an explicit stack.
  Expr RealizeTuple(uint32_t root) {
    std::vector<std::pair<uint32_t, bool>> stack{{root, false}};
    while (!stack.empty()) {
      auto [id, expanded] = stack.back();
      const uint32_t tuple_index = values_[id].aux;
      if (tuples_[tuple_index].realized) {
        stack.pop_back();
        continue;
      }
      if (!expanded) {
        stack.back().second = true;
        for (uint32_t field : tuples_[tuple_index].fields) {
          if (values_[field].kind == ValueKind::kTuple) stack.push_back({field, false});
        }
        continue;
      }
      stack.pop_back();
      std::vector<Expr> fields;
      for (uint32_t field : tuples_[tuple_index].fields) fields.push_back(Realize(field));
      tuples_[tuple_index].realized = WithFields(values_[id].expr, std::move(fields));
    }
    return tuples_[values_[root].aux].realized;
  }

  uint32_t Visit(const Expr& e) {
    switch (e->kind) {
      case ir::ExprKind::kTuple:
        return VisitTuple(e.as<ir::TupleNode>(), e);
      case ir::ExprKind::kTupleGetItem:
        return VisitGetItem(e.as<ir::TupleGetItemNode>(), e);
      case ir::ExprKind::kCall:
        return VisitCall(e.as<ir::CallNode>(), e);
      case ir::ExprKind::kFunction:
        return VisitFunction(e.as<ir::FunctionNode>(), e);
      case ir::ExprKind::kLet:
        return VisitLet(e.as<ir::LetNode>(), e);
      case ir::ExprKind::kIf:
        return VisitIf(e.as<ir::IfNode>(), e);
      case ir::ExprKind::kRefCreate:
      case ir::ExprKind::kRefRead:
      case ir::ExprKind::kRefWrite:
        return VisitReference(e);
      default:
        return Plain(e);  // vars, global vars, constants, ops
    }
  }

  // A tuple keeps its fields' layouts, so that a consumer (concatenate) can use them.
  uint32_t VisitTuple(const ir::TupleNode* tuple, const Expr& e) {
    std::vector<uint32_t> fields;
    bool all_plain = true;
    for (const Expr& f : tuple->fields) {
      fields.push_back(IdOf(f));
      all_plain &= values_[fields.back()].kind == ValueKind::kPlain;
    }
    if (!all_plain) return TupleOf(e, std::move(fields));
    std::vector<Expr> exprs;
    for (uint32_t f : fields) exprs.push_back(values_[f].expr);
    return Plain(WithFields(e, std::move(exprs)));
  }

  // As TVM's ForwardRewrite, a get-item of a tuple literal is the field itself.
  uint32_t VisitGetItem(const ir::TupleGetItemNode* item, const Expr& e) {
    uint32_t tuple_id = IdOf(item->tuple);
    const Value& v = values_[tuple_id];
    if (v.kind == ValueKind::kTuple) {
      const std::vector<uint32_t>& fields = tuples_[v.aux].fields;
      if (item->index < 0 || static_cast<size_t>(item->index) >= fields.size()) {
        throw PassError("tuple index " + std::to_string(item->index) + " out of range");
      }
      return fields[item->index];
    }
    Expr tuple = Realize(tuple_id);
    if (auto* literal = tuple.as<ir::TupleNode>()) {
      if (item->index < 0 || static_cast<size_t>(item->index) >= literal->fields.size()) {
        throw PassError("tuple index " + std::to_string(item->index) + " out of range");
      }
      return Plain(literal->fields[item->index]);
    }
    if (tuple.same_as(item->tuple)) return Plain(e);
    return Plain(WithSpan(ir::MakeTupleGetItem(tuple, item->index), item->span));
  }

  uint32_t VisitFunction(const ir::FunctionNode* func, const Expr& e) {
    Expr body = Realize(IdOf(func->body));
    if (body.same_as(func->body)) return Plain(e);
    return Plain(WithSpan(
        ir::MakeFunction(func->params, body, func->ret_type, func->attrs, func->type_params),
        func->span));
  }

  uint32_t VisitLet(const ir::LetNode* let, const Expr& e) {
    Expr value = Realize(IdOf(let->value));
    Expr body = Realize(IdOf(let->body));
    if (value.same_as(let->value) && body.same_as(let->body)) return Plain(e);
    return Plain(WithSpan(ir::MakeLet(let->var, value, body), let->span));
  }

  uint32_t VisitIf(const ir::IfNode* node, const Expr& e) {
    Expr cond = Realize(IdOf(node->cond));
    Expr then_branch = Realize(IdOf(node->true_branch));
    Expr else_branch = Realize(IdOf(node->false_branch));
    if (cond.same_as(node->cond) && then_branch.same_as(node->true_branch) &&
        else_branch.same_as(node->false_branch)) {
      return Plain(e);
    }
    return Plain(WithSpan(ir::MakeIf(cond, then_branch, else_branch), node->span));
  }

  // A reference operation on its operands converted back to their old layouts.
  uint32_t VisitReference(const Expr& e) {
    std::vector<Expr> kids;
    bool changed = false;
    ir::ForEachChild(e.get(), [&](const Expr& c) {
      kids.push_back(Realize(IdOf(c)));
      changed |= !kids.back().same_as(c);
    });
    if (!changed) return Plain(e);
    if (e->kind == ir::ExprKind::kRefCreate) return Plain(ir::MakeRefCreate(kids[0]));
    if (e->kind == ir::ExprKind::kRefRead) return Plain(ir::MakeRefRead(kids[0]));
    return Plain(ir::MakeRefWrite(kids[0], kids[1]));
  }

  uint32_t VisitCall(const ir::CallNode* call, const Expr& e) {
    if (call->op_node() != nullptr) {
      if (std::optional<uint32_t> rewritten = RewriteOpCall(call)) return *rewritten;
    }
    return Unconverted(call, e);
  }

  // The call as it was, on its arguments converted back to their old layouts.
  uint32_t Unconverted(const ir::CallNode* call, const Expr& e) {
    Expr op = Realize(IdOf(call->op));
    bool changed = !op.same_as(call->op);
    std::vector<Expr> args;
    for (const Expr& arg : call->args) {
      args.push_back(Realize(IdOf(arg)));
      changed |= !args.back().same_as(arg);
    }
    if (!changed) return Plain(e);
    return Plain(WithSpan(ir::MakeCall(op, std::move(args), call->attrs), call->span));
  }

  const ir::CallNode* AsCall(const Expr& e) {
    auto* call = e.as<ir::CallNode>();
    if (call == nullptr) {
      throw PassError("Can only replace the original operator with another call node");
    }
    return call;
  }

  // The steps of transform_layout.h for a call of an operator; nullopt when it is not converted.
  std::optional<uint32_t> RewriteOpCall(const ir::CallNode* call) {
    std::vector<Input> inputs;
    std::vector<Expr> args;
    auto push_one = [&](uint32_t id) -> Expr {
      const Value v = values_[id];
      if (v.kind == ValueKind::kLayout) {
        const LayoutPair& layouts = layouts_[v.aux];
        inputs.push_back({v.expr, layouts.old_layout, layouts.new_layout});
        return v.expr;
      }
      Expr plain = Realize(id);
      inputs.push_back({plain, Layout(), Layout()});
      return plain;
    };
    for (const Expr& arg : call->args) {
      const uint32_t id = IdOf(arg);
      const Value v = values_[id];
      if (v.kind == ValueKind::kTuple) {
        const std::vector<uint32_t> field_ids = tuples_[v.aux].fields;
        std::vector<Expr> fields;
        for (uint32_t field : field_ids) fields.push_back(push_one(field));
        args.push_back(WithFields(v.expr, std::move(fields)));
      } else if (auto* tuple = v.expr.as<ir::TupleNode>()) {
        for (const Expr& field : tuple->fields) inputs.push_back({field, Layout(), Layout()});
        args.push_back(v.expr);
      } else {
        args.push_back(push_one(id));
      }
    }

    const std::string& op_name = call->op_node()->name;
    // Null for an op registered without the op layer's record: it has no layout rule.
    const op::OpDef* def = op::Def(call->op_node());
    if (!(def && def->infer_layout) && GetAlterOpLayout(op_name)) {
      // As TVM: an op with a hook but no layout rule is re-created on its arguments as they are.
      Expr built = builder_.CallWithNewLayouts(*call, call->attrs, args);
      AsCall(built);
      return Plain(built);
    }

    std::vector<ir::Type> types;
    for (const Expr& arg : call->args) {
      if (!arg->checked_type) {
        throw InternalError("layout rewrite of " + op_name +
                            " needs a typed function; run InferType first");
      }
      types.push_back(arg->checked_type);
    }
    Layouts old_prd, new_prd;
    for (const Input& in : inputs) {
      old_prd.push_back(in.old_layout);
      new_prd.push_back(in.new_layout);
    }

    // 1. The layouts of the original call.
    std::optional<op::InferLayoutOutput> before = Infer(def, call->attrs, nullptr, old_prd, types);
    if (!before) return std::nullopt;
    const Layouts& old_cur = before->input_layouts;
    if (old_cur.size() != inputs.size()) {
      throw PassError("layout rule of " + op_name + " gave " + std::to_string(old_cur.size()) +
                      " input layouts for " + std::to_string(inputs.size()) + " inputs");
    }
    // 2. Unknown producer layouts are taken to be what the call wants.
    Layouts new_prd_inferred = new_prd, old_prd_inferred = old_prd;
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (!new_prd_inferred[i].defined()) new_prd_inferred[i] = old_cur[i];
      if (!old_prd_inferred[i].defined()) old_prd_inferred[i] = old_cur[i];
    }
    // 3. The pass re-creates the call; its rule on the new layouts gives what it needs.
    Expr built = builder_.CallWithNewLayouts(*call, before->new_attrs, args);
    const ir::CallNode* new_call = AsCall(built);
    const ir::OpNode* new_op = new_call->op_node();
    if (new_op == nullptr) return std::nullopt;
    std::optional<op::InferLayoutOutput> after =
        Infer(op::Def(new_op), new_call->attrs, &new_prd_inferred, old_prd_inferred, types);
    if (!after) return std::nullopt;
    if (after->output_layouts.size() != before->output_layouts.size()) {
      throw PassError("The number of output nodes should keep the same during alter_op_layout");
    }
    if (after->input_layouts.size() != inputs.size()) {
      throw PassError("The number of input nodes should keep the same during alter_op_layout");
    }
    const Layouts& new_cur = after->input_layouts;

    // 4. Convert each argument of the new call to the layout it needs.
    size_t pt = 0;
    auto convert = [&](const Expr& arg) -> Expr {
      if (pt >= inputs.size()) {
        throw PassError("the call re-created for " + op_name + " has more inputs than it had");
      }
      const Input& in = inputs[pt];
      Expr result = arg;
      if (old_cur[pt] == in.old_layout) {
        result = transformer_.Transform(result, in.new_layout, new_cur[pt]);
      } else {
        if (in.old_layout.defined()) {
          result = transformer_.Transform(result, in.new_layout, in.old_layout);
        }
        result = transformer_.Transform(result, old_cur[pt], new_cur[pt]);
      }
      ++pt;
      return result;
    };
    std::vector<Expr> new_args;
    for (const Expr& arg : new_call->args) {
      if (auto* tuple = arg.as<ir::TupleNode>()) {
        std::vector<Expr> fields;
        for (const Expr& field : tuple->fields) fields.push_back(convert(field));
        new_args.push_back(WithFields(arg, std::move(fields)));
      } else {
        new_args.push_back(convert(arg));
      }
    }
    if (pt != inputs.size()) {
      throw PassError("the call re-created for " + op_name + " has fewer inputs than it had");
    }

    // 5. The result carries its old and new layouts (per field for a tuple result).
    const Layouts& old_out = before->output_layouts;
    const Layouts& new_out = after->output_layouts;
    if (auto* tuple_type = call->checked_type.as<ir::TupleTypeNode>()) {
      Expr output = ir::MakeCall(new_call->op, std::move(new_args), after->new_attrs);
      std::vector<uint32_t> fields;
      for (size_t i = 0; i < tuple_type->fields.size(); ++i) {
        Expr item = ir::MakeTupleGetItem(output, static_cast<int>(i));
        fields.push_back(i < new_out.size() ? WithLayout(item, old_out[i], new_out[i])
                                            : Plain(item));
      }
      return TupleOf(nullptr, std::move(fields));
    }
    if (new_out.size() != 1) {
      throw PassError("layout rule of " + op_name + " gave " + std::to_string(new_out.size()) +
                      " output layouts for a single result");
    }
    Expr output =
        WithSpan(ir::MakeCall(new_call->op, std::move(new_args), after->new_attrs), call->span);
    return WithLayout(output, old_out[0], new_out[0]);
  }

  LayoutCallBuilder& builder_;
  LayoutTransformer transformer_;
  std::vector<Value> values_;
  std::vector<LayoutPair> layouts_;
  std::vector<TupleValue> tuples_;
  // The function's nodes, numbered; value_of_[id] is the value of node `id`.
  ir::PostOrderIndex index_;
  std::vector<uint32_t> value_of_;
  ir::PostOrderIndex::Id current_ = 0;  // the node being visited
  size_t cursor_ = 0;
};

}  // namespace

ir::Function RewriteLayouts(const ir::Function& func, const ir::IRModule& mod,
                            LayoutCallBuilder& builder) {
  ir::Function typed =
      func->checked_type ? func : ir::InferExprTypes(func, mod).downcast<ir::FunctionNode>();
  return Rewriter(builder).Run(typed);
}

}  // namespace relaypass::passes::layout
