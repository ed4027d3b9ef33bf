#include "rules.h"

#include <cmath>
#include <limits>
#include <string_view>

#include "concretize_rules.h"
#include "pattern_rule.h"
#include "relaypass/op/layout.h"
#include "relaypass/passes/fold_constant.h"
#include "relaypass/relay.h"
#include "rule_util.h"

namespace relaypass::passes::simplify {

namespace {

using ir::CallNode;
using ir::DataType;
using ir::Expr;
using pattern::DFPattern;
using pattern::IsConstant;
using pattern::IsOp;
using pattern::Wildcard;

// ----- SimplifyAdd: add(x, x) -> multiply(x, 2)
Rule SimplifyAdd() {
  const DFPattern x = Wildcard(), y = Wildcard();
  return PatternRule("SimplifyAdd", IsOp("add")({x, y}), {x, y},
                     [](const Expr& pre, const Expr& post, const std::vector<Expr>& c) -> Expr {
                       auto* t = TensorOf(pre);
                       if (!t || !c[0].same_as(c[1])) return post;
                       return relay::multiply(c[0], ScalarOf(t->dtype, 2));
                     });
}

// ----- SimplifyRSqrt: divide(n, sqrt(x)) -> multiply(n, rsqrt(x))
Rule SimplifyRSqrt() {
  const DFPattern numerator = Wildcard(), x = Wildcard();
  return PatternRule("SimplifyRSqrt", IsOp("divide")({numerator, IsOp("sqrt")({x})}),
                     {numerator, x},
                     [](const Expr&, const Expr&, const std::vector<Expr>& c) -> Expr {
                       return relay::multiply(c[0], relay::rsqrt(c[1]));
                     });
}

// ----- EliminateIdentity: x + 0, x * 1, x - 0, x / 1 -> x when the result has x's type. The 0
// is a scalar constant, zeros() or zeros_like(_); the 1 a scalar constant, ones() or ones_like(_).
Rule EliminateIdentity() {
  const DFPattern x = Wildcard(), constant = IsConstant();
  const DFPattern zeros = IsOp("zeros")({}) | IsOp("zeros_like")({Wildcard()}) | constant;
  const DFPattern ones = IsOp("ones")({}) | IsOp("ones_like")({Wildcard()}) | constant;
  const DFPattern identity = IsOp("add")({x, zeros}) | IsOp("multiply")({x, ones}) |
                             IsOp("subtract")({x, zeros}) | IsOp("divide")({x, ones});
  return PatternRule("EliminateIdentity", identity, {x, zeros, ones},
                     [](const Expr& pre, const Expr& post, const std::vector<Expr>& k) -> Expr {
                       // The identity operand: the matched zeros or ones.
                       const std::vector<Expr> c = {k[0], k[1] ? k[1] : k[2]};
                       auto* call = pre.as<CallNode>();
                       const std::string& name = call->op_node()->name;
                       if (auto* constant = c[1].as<ir::ConstantNode>()) {
                         if (!IsScalarTyped(c[1]) || constant->data.size() < 1) return post;
                         const DataType dt = constant->data.dtype();
                         if (!(dt.is_float() || dt.is_int() || dt.is_uint())) return post;
                         const double value = constant->data.GetAsDouble(0);
                         const double identity = name == "add" || name == "subtract" ? 0.0 : 1.0;
                         if (value != identity) return post;
                       }
                       // The type of x in the input graph: the argument that is not the identity.
                       const Expr& x_pre = post.as<CallNode>()->args[1].same_as(c[0])
                                               ? call->args[1]
                                               : call->args[0];
                       if (x_pre->checked_type && pre->checked_type &&
                           ir::TypeEqual(x_pre->checked_type, pre->checked_type)) {
                         return c[0];
                       }
                       return post;
                     });
}

// ----- SimplifyReshape: reshape(reshape(x)) -> reshape(x, static result shape)
// reshape or contrib_reverse_reshape (TVM's pattern takes either, at both positions).
Rule SimplifyReshape() {
  const DFPattern x = Wildcard();
  const auto reshape = [] { return IsOp("reshape") | IsOp("contrib_reverse_reshape"); };
  return PatternRule("SimplifyReshape", reshape()({reshape()({x})}), {x},
                     [](const Expr& pre, const Expr& post, const std::vector<Expr>& c) -> Expr {
                       auto* t = TensorOf(pre);
                       if (!t || !t->is_static()) return post;
                       return relay::reshape(c[0], t->shape);
                     });
}

// The axis order of a transpose or same-rank layout_transform (TVM's GetTransposeAxisOrder);
// empty if it cannot be read.
std::vector<int64_t> AxisOrder(const CallNode* call, int ndim) {
  std::vector<int64_t> axes;
  if (call->op_node()->name == "transpose") {
    const ir::AttrValue& attr = call->attrs->get("axes");
    if (attr.is_null()) {
      for (int i = ndim - 1; i >= 0; --i) axes.push_back(i);
      return axes;
    }
    for (int64_t a : attr.as_ints()) axes.push_back(a < 0 ? a + ndim : a);
    if (static_cast<int>(axes.size()) != ndim) axes.clear();
    return axes;
  }
  const op::Layout src(call->attrs->get_string("src_layout"));
  const op::Layout dst(call->attrs->get_string("dst_layout"));
  if (static_cast<int>(dst.ndim()) < ndim || static_cast<int>(src.ndim()) != ndim) return {};
  for (int i = 0; i < ndim; ++i) axes.push_back(src.IndexOf(dst[i].name));
  return axes;
}

bool RankChanging(const CallNode* call) {
  return call->op_node()->name == "layout_transform" &&
         call->attrs->get_string("src_layout").size() !=
             call->attrs->get_string("dst_layout").size();
}

// ----- SimplifyTranspose: two consecutive transposes/layout_transforms -> one transpose.
// Rank-changing layout_transforms are left alone (TVM folds some of them into one
// layout_transform: not implemented).
DFPattern TransposeLike() {
  return IsOp("transpose") | IsOp("layout_transform");
}

Rule SimplifyTranspose() {
  const DFPattern x = Wildcard();
  return PatternRule("SimplifyTranspose", TransposeLike()({TransposeLike()({x})}), {x},
                     [](const Expr& pre, const Expr& post, const std::vector<Expr>& c) -> Expr {
                       auto* outer = post.as<CallNode>();
                       auto* inner = outer->args[0].as<CallNode>();
                       if (RankChanging(outer) || RankChanging(inner)) return post;
                       auto* t = TensorOf(pre);
                       if (!t) return post;
                       const int ndim = t->ndim();
                       const std::vector<int64_t> a2 = AxisOrder(outer, ndim);
                       const std::vector<int64_t> a1 = AxisOrder(inner, ndim);
                       if (a1.empty() || a2.empty()) return post;
                       // Applied from the input: first a1, then a2.
                       std::vector<int64_t> axes(ndim);
                       for (int i = 0; i < ndim; ++i) axes[i] = a1[a2[i]];
                       return relay::transpose(c[0], axes);
                     });
}

// ----- SimplifyNoOpTranspose: a transpose (or a layout_transform to the same layout) that keeps
// every axis in place -> its input.
Rule SimplifyNoOpTranspose() {
  const DFPattern x = Wildcard();
  return PatternRule(
      "SimplifyNoOpTranspose", TransposeLike()({x}), {x},
      [](const Expr& pre, const Expr& post, const std::vector<Expr>& c) -> Expr {
        auto* call = post.as<CallNode>();
        if (call->op_node()->name == "layout_transform" &&
            call->attrs->get_string("src_layout") != call->attrs->get_string("dst_layout")) {
          return post;
        }
        auto* t = TensorOf(pre);
        if (!t) return post;
        const std::vector<int64_t> axes = AxisOrder(call, t->ndim());
        if (static_cast<int>(axes.size()) != t->ndim()) return post;
        for (int i = 0; i < t->ndim(); ++i) {
          if (axes[i] != i) return post;
        }
        return c[0];
      });
}

// TVM's `cast_like(data, _) || cast(data)`.
DFPattern CastOf(const DFPattern& data) {
  return IsOp("cast_like")({data, Wildcard()}) | IsOp("cast")({data});
}

// ----- SimplifySameCast: cast(x) or cast_like(x, _) to x's own dtype -> x
Rule SimplifySameCast() {
  const DFPattern x = Wildcard();
  return PatternRule("SimplifySameCast", CastOf(x), {x},
                     [](const Expr& pre, const Expr& post, const std::vector<Expr>& c) -> Expr {
                       auto* from = TensorOf(pre.as<CallNode>()->args[0]);
                       auto* to = TensorOf(pre);
                       if (from && to && from->dtype == to->dtype) return c[0];
                       return post;
                     });
}

// TVM's type codes and bits: bool is uint1 there.
int TvmCode(DataType t) {
  using Code = DataType::Code;
  switch (t.code()) {
    case Code::kInt:
      return 0;
    case Code::kUInt:
    case Code::kBool:
      return 1;
    case Code::kFloat:
      return 2;
    case Code::kBFloat:
      return 4;
    default:
      return 3;
  }
}
int TvmBits(DataType t) {
  return t.is_bool() ? 1 : t.bits();
}

bool IsWidenCast(DataType origin, DataType cast) {
  if (TvmCode(origin) == TvmCode(cast) && TvmBits(origin) <= TvmBits(cast)) return true;
  if (origin.code() == DataType::Code::kBFloat || cast.code() == DataType::Code::kBFloat) {
    return false;
  }
  return TvmCode(origin) < TvmCode(cast) && TvmBits(origin) <= TvmBits(cast);
}

// ----- SimplifyConsecutiveCast: cast(cast(x)) -> cast(x) when the first cast widens (either
// cast may be a cast_like)
Rule SimplifyConsecutiveCast() {
  const DFPattern x = Wildcard();
  const DFPattern cast1 = CastOf(x);
  return PatternRule("SimplifyConsecutiveCast", CastOf(cast1), {x, cast1},
                     [](const Expr& pre, const Expr& post, const std::vector<Expr>& c) -> Expr {
                       auto* data = TensorOf(c[0]);
                       auto* cast1 = TensorOf(c[1]);
                       auto* cast2 = TensorOf(pre);
                       if (!data || !cast1 || !cast2) return post;
                       if (!IsWidenCast(data->dtype, cast1->dtype)) return post;
                       return ir::WithCheckedType(relay::cast(c[0], cast2->dtype.ToString()),
                                                  ir::TensorType(data->shape, cast2->dtype));
                     });
}

// The range of dtype's values (TVM's min_value / max_value).
std::pair<double, double> Range(DataType t) {
  if (t.is_bool()) return {0, 1};
  if (t.is_int()) {
    const double m = std::ldexp(1.0, t.bits() - 1);
    return {-m, m - 1};
  }
  if (t.is_uint()) return {0, std::ldexp(1.0, t.bits()) - 1};
  if (t.code() == DataType::Code::kBFloat) return {-3.38953139e38, 3.38953139e38};
  if (t.bits() == 16) return {-65504.0, 65504.0};
  if (t.bits() == 32) {
    return {-std::numeric_limits<float>::max(), std::numeric_limits<float>::max()};
  }
  return {-std::numeric_limits<double>::max(), std::numeric_limits<double>::max()};
}

// mode 0: [lo, hi] contains dtype's range; mode 1: [lo, hi] lies within it.
bool CheckRange(DataType t, double lo, double hi, int mode) {
  const auto [lb, ub] = Range(t);
  return mode == 0 ? hi >= ub && lo <= lb : hi <= ub && lo >= lb;
}

// ----- SimplifyClipAndConsecutiveCast: clip followed by casts: drop the casts whose dtype holds
// the clip's interval (adding one cast to the final dtype if needed). The one rule matched by hand:
// TVM's pattern is cyclic (cast(P | clip(_)) where P is that pattern itself, a chain of any
// length), which src/pattern's immutable patterns cannot express.
Rule SimplifyClipAndConsecutiveCast() {
  return {"SimplifyClipAndConsecutiveCast",
          {"cast"},
          [](const Expr& pre, Match& m) {
            if (!OpCall(pre, "cast")) return false;
            Expr e = pre.as<CallNode>()->args[0];
            while (OpCall(e, "cast")) {
              m.inner.push_back(e.get());
              e = e.as<CallNode>()->args[0];
            }
            if (!OpCall(e, "clip")) return false;
            m.inner.push_back(e.get());
            m.captures = {e};
            return true;
          },
          [](const Expr&, const Expr& post, const std::vector<Expr>&) -> Expr {
            // The clip as rebuilt: the bottom of post's cast chain.
            Expr clip = post;
            while (OpCall(clip, "cast")) clip = clip.as<CallNode>()->args[0];
            const ir::Attrs& attrs = clip.as<CallNode>()->attrs;
            const double a_min = attrs->get_double("a_min");
            const double a_max = attrs->get_double("a_max");
            std::vector<Expr> remaining;
            for (Expr e = post; !e.same_as(clip); e = e.as<CallNode>()->args[0]) {
              auto* t = TensorOf(e);
              if (!t || !CheckRange(t->dtype, a_min, a_max, 1)) remaining.push_back(e);
            }
            const Expr& last = remaining.empty() ? clip : remaining.front();
            auto* last_type = TensorOf(last);
            auto* post_type = TensorOf(post);
            if (!last_type || !post_type) return post;
            Expr res = clip;
            for (size_t i = remaining.size(); i > 0; --i) {
              res = relay::cast(res, TensorOf(remaining[i - 1])->dtype.ToString());
            }
            if (last_type->dtype != post_type->dtype) {
              res = relay::cast(res, post_type->dtype.ToString());
            }
            return res;
          }};
}

// ----- SimplifyClip: clip whose interval holds every value of its dtype -> its input
Rule SimplifyClip() {
  const DFPattern x = Wildcard();
  return PatternRule(
      "SimplifyClip", IsOp("clip")({x}), {x},
      [](const Expr& pre, const Expr& post, const std::vector<Expr>& c) -> Expr {
        auto* t = TensorOf(pre);
        if (!t) return post;
        const ir::Attrs& attrs = post.as<CallNode>()->attrs;
        if (CheckRange(t->dtype, attrs->get_double("a_min"), attrs->get_double("a_max"), 0)) {
          return c[0];
        }
        return post;
      });
}

// ----- SwitchAddMultiply: (x + c1) * c2 -> x * c2 + (c1 * c2 folded)
Rule SwitchAddMultiply() {
  const DFPattern x = Wildcard(), c1 = IsConstant(), c2 = IsConstant();
  return PatternRule("SwitchAddMultiply", IsOp("multiply")({IsOp("add")({x, c1}), c2}), {x, c1, c2},
                     [](const Expr&, const Expr& post, const std::vector<Expr>& c) -> Expr {
                       if (c[0].as<ir::ConstantNode>()) return post;
                       Expr folded = FoldConstantExpr(relay::multiply(c[1], c[2]));
                       return relay::add(relay::multiply(c[0], c[2]), folded);
                     });
}

// ----- SimplifyAdjacentMultiplyOrAdd: (x * c1) * c2 -> x * (c1 * c2), same for add
Rule SimplifyAdjacentMultiplyOrAdd() {
  const DFPattern x = Wildcard(), c1 = IsConstant(), c2 = IsConstant();
  const DFPattern multiply = IsOp("multiply")({IsOp("multiply")({x, c1}), c2});
  const DFPattern add = IsOp("add")({IsOp("add")({x, c1}), c2});
  return PatternRule("SimplifyAdjacentMultiplyOrAdd", multiply | add, {x, c1, c2},
                     [](const Expr& pre, const Expr& post, const std::vector<Expr>& c) -> Expr {
                       if (c[0].as<ir::ConstantNode>()) return post;
                       const Expr& op = pre.as<CallNode>()->op;
                       Expr folded = FoldConstantExpr(ir::MakeCall(op, {c[1], c[2]}));
                       return ir::MakeCall(op, {c[0], folded});
                     });
}

}  // namespace

std::vector<Rule> SimplifyExprRules() {
  return {ConcretizeZerosLike(),
          ConcretizeOnesLike(),
          ConcretizeFullLike(),
          ConcretizeReshapeLike(),
          ConcretizeCollapseSumLike(),
          ConcretizeBroadcastToLike(),
          ConcretizeCastLike(),
          SimplifyAdd(),
          SimplifyRSqrt(),
          EliminateIdentity(),
          SimplifyReshape(),
          SimplifyTranspose(),
          SimplifyNoOpTranspose(),
          SimplifySameCast(),
          SimplifyConsecutiveCast(),
          FullElementwise(),
          SwitchAddMultiply(),
          SimplifyAdjacentMultiplyOrAdd(),
          SimplifyDQArgFunc("argmax"),
          SimplifyDQArgFunc("argmin"),
          SimplifyDQArgFunc("argsort"),
          SimplifyClipAndConsecutiveCast(),
          SimplifyClip(),
          SimplifyBinomial()};
}

std::vector<Rule> PostAlterOpRules() {
  return {EliminateIdentity(),
          SimplifyReshape(),
          SimplifySameCast(),
          SimplifyConsecutiveCast(),
          SimplifyClipAndConsecutiveCast(),
          SimplifyClip()};
}

}  // namespace relaypass::passes::simplify
