#include "rule_util.h"

#include "relaypass/support/error.h"

namespace relaypass::op::layout_rules {

std::optional<std::vector<ir::Dim>> ShapeOf(const ir::Type& type) {
  if (auto* tensor = type.as<ir::TensorTypeNode>()) return tensor->shape;
  return std::nullopt;
}

std::optional<size_t> AxisIndex(int64_t axis, size_t ndim) {
  int64_t index = axis < 0 ? axis + static_cast<int64_t>(ndim) : axis;
  if (index < 0 || index >= static_cast<int64_t>(ndim)) return std::nullopt;
  return static_cast<size_t>(index);
}

InferLayoutOutput Undefined(const ir::Attrs& attrs) {
  return {{Layout::Undef()}, {Layout::Undef()}, attrs};
}

Layout ParsedLayout(const std::string& name) {
  if (name.empty()) return Layout::Undef();
  try {
    return Layout(name);
  } catch (const TypeError&) {
    return Layout::Undef();
  }
}

}  // namespace relaypass::op::layout_rules
