#include "concretize_rules.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "pattern_rule.h"
#include "relaypass/ir/op_registry.h"
#include "relaypass/ir/structural.h"
#include "relaypass/op/registry.h"
#include "relaypass/pattern/pattern.h"
#include "rule_util.h"

namespace relaypass::passes::simplify {

namespace {

using ir::CallNode;
using ir::DataType;
using ir::Expr;

// The explicit form of a `*_like` call, from its rewritten arguments and the result's static
// shape and dtype.
using Concretizer = std::function<Expr(const std::vector<Expr>& args,
                                       const std::vector<int64_t>& shape, DataType dtype)>;

// TVM's ConcretizeLikeRewrite: `op`'s call (of `arity` arguments: TVM's pattern is op(like) or
// op(data, like)) becomes `make(...)` when its result is a tensor of static shape.
Rule ConcretizeLike(const std::string& op, int arity, Concretizer make) {
  const std::string name = "Concretize(" + op + ")";
  if (!ir::OpRegistry::Global().GetOp(op)) {  // not an operator of this build: nothing to match
    return {name,
            {op},
            [](const Expr&, Match&) { return false; },
            [](const Expr&, const Expr& post, const std::vector<Expr>&) { return post; }};
  }
  std::vector<pattern::DFPattern> args;
  for (int i = 0; i < arity; ++i) args.push_back(pattern::Wildcard());
  return PatternRule(name, pattern::IsOp(op)(args), args,
                     [make = std::move(make)](const Expr& pre, const Expr& post,
                                              const std::vector<Expr>& c) -> Expr {
                       auto* t = TensorOf(pre);
                       if (!t) return post;
                       auto shape = StaticShape(*t);
                       if (!shape) return post;
                       return make(c, *shape, t->dtype);
                     });
}

}  // namespace

Rule ConcretizeZerosLike() {
  return ConcretizeLike("zeros_like", 1,
                        [](const std::vector<Expr>&, const std::vector<int64_t>& s, DataType dt) {
                          return relay::zeros(s, dt.ToString());
                        });
}

Rule ConcretizeOnesLike() {
  return ConcretizeLike("ones_like", 1,
                        [](const std::vector<Expr>&, const std::vector<int64_t>& s, DataType dt) {
                          return relay::ones(s, dt.ToString());
                        });
}

Rule ConcretizeFullLike() {
  return ConcretizeLike("full_like", 2,
                        [](const std::vector<Expr>& c, const std::vector<int64_t>& s, DataType dt) {
                          return relay::full(c.at(1), s, dt.ToString());
                        });
}

Rule ConcretizeReshapeLike() {
  return ConcretizeLike("reshape_like", 2,
                        [](const std::vector<Expr>& c, const std::vector<int64_t>& s, DataType) {
                          return relay::reshape(c.at(0), s);
                        });
}

Rule ConcretizeCollapseSumLike() {
  return ConcretizeLike("collapse_sum_like", 2,
                        [](const std::vector<Expr>& c, const std::vector<int64_t>& s, DataType) {
                          return relay::collapse_sum_to(c.at(0), s);
                        });
}

Rule ConcretizeBroadcastToLike() {
  return ConcretizeLike("broadcast_to_like", 2,
                        [](const std::vector<Expr>& c, const std::vector<int64_t>& s, DataType) {
                          return relay::broadcast_to(c.at(0), s);
                        });
}

Rule ConcretizeCastLike() {
  const pattern::DFPattern data = pattern::Wildcard();
  return PatternRule("ConcretizeCastLike", pattern::IsOp("cast_like")({data, pattern::Wildcard()}),
                     {data},
                     [](const Expr& pre, const Expr& post, const std::vector<Expr>& c) -> Expr {
                       auto* t = TensorOf(pre);
                       if (!t) return post;
                       return relay::cast(c[0], t->dtype.ToString());
                     });
}

namespace {

// What fills a FullElementwise operand: the scalar constant of full / full_like (TVM requires
// a constant there), or ones / zeros and their *_like forms.
enum class Fill { kNone, kConstant, kOnes, kZeros };

Fill FillOf(const Expr& e, Expr& value) {
  auto* call = e.as<CallNode>();
  auto* op = call ? call->op_node() : nullptr;
  if (!op) return Fill::kNone;
  const std::string& name = op->name;
  if ((name == "full" && call->args.size() == 1) ||
      (name == "full_like" && call->args.size() == 2)) {
    value = call->args.back();
    return value.as<ir::ConstantNode>() ? Fill::kConstant : Fill::kNone;
  }
  if ((name == "ones" && call->args.empty()) || (name == "ones_like" && call->args.size() == 1)) {
    return Fill::kOnes;
  }
  if ((name == "zeros" && call->args.empty()) || (name == "zeros_like" && call->args.size() == 1)) {
    return Fill::kZeros;
  }
  return Fill::kNone;
}

// The position of the first fill among a binary call's arguments (TVM's pattern tries
// op(fill, x) before op(x, fill)), or -1.
int FillPosition(const CallNode& call, Fill& fill, Expr& value) {
  for (int at : {0, 1}) {
    fill = FillOf(call.args[at], value);
    if (fill != Fill::kNone) return at;
  }
  return -1;
}

}  // namespace

Rule FullElementwise() {
  using pattern::DFPattern;
  using pattern::IsOp;
  const DFPattern x = pattern::Wildcard(), data = pattern::Wildcard();
  const DFPattern value = pattern::IsConstant();
  const DFPattern fill = IsOp("full")({value}) | IsOp("full_like")({data, value}) |
                         IsOp("ones")({}) | IsOp("ones_like")({data}) | IsOp("zeros")({}) |
                         IsOp("zeros_like")({data});
  ir::DictAttrs broadcast;
  broadcast.Set("TOpPattern", ir::AttrValue::Int(static_cast<int>(op::OpPattern::kBroadcast)));
  const DFPattern op = pattern::Wildcard().HasAttr(broadcast);
  return PatternRule("FullElementwise", op({fill, x}) | op({x, fill}), {x},
                     [](const Expr& pre, const Expr& post, const std::vector<Expr>& c) -> Expr {
                       auto* call = pre.as<CallNode>();
                       auto* result = TensorOf(pre);
                       Fill fill;
                       Expr value;
                       const int at = FillPosition(*call, fill, value);
                       const Expr& x_pre = call->args[1 - at];
                       if (!result || !x_pre->checked_type ||
                           !ir::TypeEqual(x_pre->checked_type, pre->checked_type)) {
                         return post;
                       }
                       if (fill == Fill::kConstant) {
                         if (!IsScalarTyped(value))
                           return post;  // TVM requires (ICHECK) a scalar here
                       } else {
                         value = ScalarOf(result->dtype, fill == Fill::kOnes ? 1 : 0);
                       }
                       std::vector<Expr> args = at == 0 ? std::vector<Expr>{value, c[0]}
                                                        : std::vector<Expr>{c[0], value};
                       return ir::MakeCall(call->op, std::move(args), call->attrs);
                     });
}

}  // namespace relaypass::passes::simplify
