#include "scale_utils.h"

#include <algorithm>

#include "relaypass/relay.h"
#include "relaypass/support/error.h"

namespace relaypass::passes::fold_scale_axis {

using ir::DataType;
using ir::Expr;

std::string_view OpName(const ir::CallNode* call) {
  const ir::OpNode* op = call->op_node();
  return op ? std::string_view(op->name) : std::string_view();
}

const ir::TensorTypeNode& TensorTypeOf(const Expr& e) {
  auto* type = e->checked_type ? e->checked_type.as<ir::TensorTypeNode>() : nullptr;
  if (!type) {
    throw PassError(
        "FoldScaleAxis needs the checked tensor types of its input: run InferType first");
  }
  return *type;
}

namespace {

template <typename T>
bool AllNonNegative(const ir::NDArray& data) {
  const T* values = data.data<T>();
  for (int64_t i = 0, n = data.size(); i < n; ++i) {
    if (values[i] < 0) return false;
  }
  return true;
}

bool IsNonNegativeConstant(const ir::NDArray& data) {
  DataType dtype = data.dtype();
  if (dtype == DataType::Float(32)) return AllNonNegative<float>(data);
  if (dtype == DataType::Float(64)) return AllNonNegative<double>(data);
  if (dtype == DataType::Int(8)) return AllNonNegative<int8_t>(data);
  if (dtype == DataType::Int(32)) return AllNonNegative<int32_t>(data);
  if (dtype == DataType::UInt(8) || dtype == DataType::UInt(32)) return true;
  return false;
}

bool PreservesSign(std::string_view op) {
  return op == "expand_dims" || op == "reshape" || op == "transpose" || op == "squeeze" ||
         op == "repeat";
}

// TVM broadcasts a rank-0 scale to the matched axes as repeat(expand_dims(s, axis=0,
// num_newaxis=n), repeats=d, axis=i) for each new axis i, where d is the lhs dim of the *first*
// matched axis every time (as TVM's loop reads lhs_axes[0]). Returns null when that dim is `?`
// (TVM expects a static dim there).
Expr BroadcastScalar(const Expr& scalar, const ir::TensorTypeNode& lhs, const AxesSet& lhs_axes) {
  ir::Dim extent = lhs.shape[static_cast<size_t>(lhs_axes[0])];
  if (!ir::IsKnownDim(extent)) return nullptr;
  const int count = static_cast<int>(lhs_axes.size());
  Expr out = relay::expand_dims(scalar, 0, count);
  for (int i = 0; i < count; ++i) out = relay::repeat(out, static_cast<int>(extent), i);
  return out;
}

}  // namespace

bool IsAllPositiveConstant(const Expr& e) {
  Expr current = e;
  while (auto* call = current.as<ir::CallNode>()) {
    if (!PreservesSign(OpName(call)) || call->args.empty()) return false;
    current = call->args[0];
  }
  auto* constant = current.as<ir::ConstantNode>();
  return constant && constant->data.dtype().lanes() == 1 && IsNonNegativeConstant(constant->data);
}

bool MatchBroadcastToLeftAxes(const ir::TensorTypeNode& lhs, const ir::TensorTypeNode& rhs,
                              const AxesSet& lhs_axes, Expr* rhs_value) {
  if (lhs.shape.size() < rhs.shape.size()) return false;
  size_t base = lhs.shape.size() - rhs.shape.size();
  if (rhs.shape.empty() && rhs_value && !lhs_axes.empty()) {
    Expr broadcast = BroadcastScalar(*rhs_value, lhs, lhs_axes);
    if (!broadcast) return false;
    *rhs_value = broadcast;
    return true;
  }
  std::vector<int64_t> squeeze_axes;
  size_t j = 0;
  for (size_t i = 0; i < lhs.shape.size(); ++i) {
    if (j < lhs_axes.size() && static_cast<int64_t>(i) == lhs_axes[j]) {
      if (i < base || lhs.shape[i] != rhs.shape[i - base]) return false;
      ++j;
    } else if (i >= base) {
      if (rhs.shape[i - base] != 1) return false;
      squeeze_axes.push_back(static_cast<int64_t>(i - base));
    }
  }
  if (rhs_value && !squeeze_axes.empty()) *rhs_value = relay::squeeze(*rhs_value, squeeze_axes);
  return true;
}

Expr ExpandBiasToMatchAxis(const Expr& bias, int64_t target_ndim, int64_t axis) {
  int64_t num_newaxis = target_ndim - axis - 1;
  return num_newaxis > 0 ? relay::expand_dims(bias, 1, static_cast<int>(num_newaxis)) : bias;
}

Expr ReshapeToMatchAxis(const Expr& scale, const std::vector<ir::Dim>& shape, const AxesSet& axes) {
  std::vector<int64_t> newshape;
  for (size_t i = 0; i < shape.size(); ++i) {
    bool on_axis = std::find(axes.begin(), axes.end(), static_cast<int64_t>(i)) != axes.end();
    if (on_axis && !ir::IsKnownDim(shape[i])) return nullptr;
    newshape.push_back(on_axis ? shape[i] : 1);
  }
  return relay::reshape(scale, newshape);
}

Expr ReshapeOrExpandToMatchAxis(const Expr& scale, const std::vector<ir::Dim>& shape,
                                const AxesSet& axes) {
  if (axes.size() > 1) return ReshapeToMatchAxis(scale, shape, axes);
  if (axes.empty()) return scale;
  return ExpandBiasToMatchAxis(scale, static_cast<int64_t>(shape.size()), axes[0]);
}

}  // namespace relaypass::passes::fold_scale_axis
