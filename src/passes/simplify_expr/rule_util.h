// Matching helpers shared by SimplifyExpr's rules (rules.cc, concretize_rules.cc).
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "relaypass/ir/expr.h"
#include "relaypass/ir/type.h"
#include "relaypass/relay.h"

namespace relaypass::passes::simplify {

/// The call at `e` when it calls the operator `name`, else null.
inline const ir::CallNode* OpCall(const ir::Expr& e, std::string_view name) {
  auto* call = e.as<ir::CallNode>();
  if (!call) return nullptr;
  auto* op = call->op_node();
  return op && op->name == name ? call : nullptr;
}

/// The checked tensor type of `e`, or null (not typed, or not a tensor).
inline const ir::TensorTypeNode* TensorOf(const ir::Expr& e) {
  return e->checked_type ? e->checked_type.as<ir::TensorTypeNode>() : nullptr;
}

/// TVM's MakeConstantScalar(dtype, value).
inline ir::Expr ScalarOf(ir::DataType dtype, double value) {
  return relay::const_(value, dtype.ToString());
}

/// TVM's IsScalar: a tensor type whose dimensions are all 1 (rank 0 included).
inline bool IsScalarTyped(const ir::Expr& e) {
  auto* t = TensorOf(e);
  if (!t) return false;
  for (ir::Dim d : t->shape) {
    if (d != 1) return false;
  }
  return true;
}

/// The dimensions of `t` when all are known (TVM's "shape is static"), else nullopt.
inline std::optional<std::vector<int64_t>> StaticShape(const ir::TensorTypeNode& t) {
  std::vector<int64_t> shape;
  for (ir::Dim d : t.shape) {
    if (!ir::IsKnownDim(d)) return std::nullopt;
    shape.push_back(d);
  }
  return shape;
}

/// Matches op(a, b) trying (a, b) and, for add and multiply, (b, a): TVM's matcher tries both
/// orders for commutative operators. `try_order` sees the candidate arguments.
template <typename F>
bool MatchBinary(const ir::CallNode* call, F&& try_order) {
  if (call->args.size() != 2) return false;
  if (try_order(call->args[0], call->args[1])) return true;
  auto* op = call->op_node();
  if (op->name == "add" || op->name == "multiply") {
    return try_order(call->args[1], call->args[0]);
  }
  return false;
}

}  // namespace relaypass::passes::simplify
