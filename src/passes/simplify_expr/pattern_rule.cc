#include "pattern_rule.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "relaypass/pattern/match.h"
#include "relaypass/relay.h"
#include "rule_util.h"

namespace relaypass::passes::simplify {

namespace {

// The first element of constant `e` read as TVM's SimplifyBinomial reads it: through the
// result's dtype, for int32, float32 and float64 only (1 otherwise, as in TVM).
double LeadingValue(const ir::Expr& e, ir::DataType dtype) {
  auto* c = e.as<ir::ConstantNode>();
  if (!c || c->data.size() == 0) return 1;
  if (dtype == ir::DataType::Int32()) return c->data.data<int32_t>()[0];
  if (dtype == ir::DataType::Float32()) return c->data.data<float>()[0];
  if (dtype == ir::DataType::Float(64)) return c->data.data<double>()[0];
  return 1;
}

}  // namespace

Rule SimplifyBinomial() {
  using pattern::DFPattern;
  const DFPattern x = pattern::Wildcard(), y = pattern::Wildcard();
  const DFPattern a = pattern::IsConstant(), b = pattern::IsConstant(), c = pattern::IsConstant();
  const DFPattern add = pattern::IsOp("add"), mul = pattern::IsOp("multiply");
  // TVM's arrangements, in its order.
  const DFPattern x_sq = mul({a, mul({x, x})}) | mul({x, mul({a, x})}) | mul({x, x});
  const DFPattern xy =
      mul({b, mul({x, y})}) | mul({x, mul({b, y})}) | mul({y, mul({b, x})}) | mul({x, y});
  const DFPattern y_sq = mul({c, mul({y, y})}) | mul({y, mul({c, y})}) | mul({y, y});
  const DFPattern sum =
      add({add({xy, x_sq}), y_sq}) | add({add({xy, y_sq}), x_sq}) | add({add({x_sq, y_sq}), xy});
  return PatternRule(
      "SimplifyBinomial", sum, {x, y, a, b, c},
      [](const ir::Expr& pre, const ir::Expr&, const std::vector<ir::Expr>& k) -> ir::Expr {
        auto* t = TensorOf(pre);
        if (!t) return pre;
        const ir::DataType dtype = t->dtype;
        ir::Expr first = k[0], second = k[1];
        double a_val = k[2] ? LeadingValue(k[2], dtype) : 1;
        const double b_val = k[3] ? LeadingValue(k[3], dtype) : 1;
        double c_val = k[4] ? LeadingValue(k[4], dtype) : 1;
        if (c_val == 1 && a_val > 1) {  // TVM swaps x and y (keeping a in float precision)
          std::swap(first, second);
          const float held = static_cast<float>(a_val);
          a_val = c_val;
          c_val = held;
        }
        const double discriminant_sq = b_val * b_val - 4 * a_val * c_val;
        if (discriminant_sq < 0) return pre;
        const bool same = discriminant_sq < 10e-5;
        const double discriminant = std::sqrt(discriminant_sq);
        const ir::Expr p = ScalarOf(dtype, (b_val + discriminant) / (2 * a_val));
        const ir::Expr q = same ? p : ScalarOf(dtype, (b_val - discriminant) / (2 * a_val));
        const ir::Expr left = relay::add(first, relay::multiply(second, p));
        const ir::Expr right = same ? left : relay::add(first, relay::multiply(second, q));
        return relay::multiply(ScalarOf(dtype, a_val), relay::multiply(left, right));
      });
}

Rule SimplifyDQArgFunc(const std::string& op) {
  const pattern::DFPattern x = pattern::Wildcard();
  const pattern::DFPattern dequantize =
      pattern::IsOp("qnn.dequantize")({x, pattern::Wildcard(), pattern::Wildcard()});
  return PatternRule(
      "SimplifyDQArgFunc(" + op + ")", pattern::IsOp(op)({dequantize}), {x},
      [](const ir::Expr& pre, const ir::Expr&, const std::vector<ir::Expr>& k) -> ir::Expr {
        const auto* call = pre.as<ir::CallNode>();
        return ir::MakeCall(call->op, {k[0]}, call->attrs);
      });
}

}  // namespace relaypass::passes::simplify
