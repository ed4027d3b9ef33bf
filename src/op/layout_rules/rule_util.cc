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

std::optional<AxisFollowingLayout> AxisFollowsData(const ir::Attrs& attrs,
                                                   const Layouts* new_in_layouts,
                                                   const Layouts& old_in_layouts,
                                                   const std::vector<ir::Type>& old_in_types) {
  if (new_in_layouts != nullptr && !new_in_layouts->empty() && !old_in_layouts.empty()) {
    std::optional<std::vector<ir::Dim>> shape = ShapeOf(old_in_types.at(0));
    const Layout& old_layout = old_in_layouts[0];
    std::optional<size_t> axis =
        shape ? AxisIndex(attrs->get_int("axis"), shape->size()) : std::nullopt;
    if (!axis || *axis >= old_layout.ndim()) return std::nullopt;
    const Layout& data = (*new_in_layouts)[0];
    return AxisFollowingLayout{
        data, attrs->With("axis", ir::AttrValue::Int(data.IndexOf(old_layout[*axis].name)))};
  }
  return AxisFollowingLayout{old_in_layouts.empty() ? Layout() : old_in_layouts[0], attrs};
}

}  // namespace relaypass::op::layout_rules
