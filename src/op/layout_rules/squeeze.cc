// SqueezeInferCorrectLayout: squeeze accepts any layout; the squeezed axes follow their letters
// and the output layout drops them.
#include "layout_rules.h"
#include "rule_util.h"

namespace relaypass::op::layout_rules {

InferLayoutOutput Squeeze(const ir::Attrs& attrs, const Layouts* new_in_layouts,
                          const Layouts& old_in_layouts,
                          const std::vector<ir::Type>& old_in_types) {
  bool has_new = new_in_layouts != nullptr && !new_in_layouts->empty();
  if (old_in_layouts.empty() || old_in_types.empty()) return Undefined(attrs);
  Layout input = has_new ? (*new_in_layouts)[0] : old_in_layouts[0];
  std::optional<std::vector<ir::Dim>> shape = ShapeOf(old_in_types[0]);
  if (!input.defined() || !shape) return Undefined(attrs);

  ir::Attrs params = attrs;
  std::vector<int64_t> axes;
  const ir::AttrValue& axis_attr = attrs->get("axis");
  if (!axis_attr.is_null()) {
    axes = axis_attr.as_ints();
  } else {
    for (size_t i = 0; i < shape->size(); ++i) {
      if ((*shape)[i] == 1) axes.push_back(static_cast<int64_t>(i));
    }
  }
  if (has_new) {
    const Layout& old_layout = old_in_layouts[0];
    std::vector<int64_t> new_axes;
    for (int64_t axis : axes) {
      std::optional<size_t> index = AxisIndex(axis, old_layout.ndim());
      if (!index) return Undefined(attrs);
      new_axes.push_back(input.IndexOf(old_layout[*index].name));
    }
    params = attrs->With("axis", ir::AttrValue::Ints(new_axes));
    axes = std::move(new_axes);
  }

  std::vector<LayoutAxis> kept;
  for (size_t i = 0; i < input.ndim(); ++i) {
    bool squeezed = false;
    for (int64_t axis : axes) {
      squeezed |=
          (axis < 0 ? axis + static_cast<int64_t>(input.ndim()) : axis) == static_cast<int64_t>(i);
    }
    if (!squeezed) kept.push_back(input[i]);
  }
  Layout output;
  try {
    output = Layout(std::move(kept));
  } catch (const TypeError&) {
    return Undefined(attrs);  // a sub-axis left without its primal axis
  }
  return {{input}, {output}, params};
}

}  // namespace relaypass::op::layout_rules
