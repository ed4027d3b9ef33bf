// BatchNormInferCorrectLayout: batch_norm accepts its data in any layout; `axis` moves to where
// the normalised axis letter is in the new layout.
#include "layout_rules.h"
#include "rule_util.h"

namespace relaypass::op::layout_rules {

InferLayoutOutput BatchNorm(const ir::Attrs& attrs, const Layouts* new_in_layouts,
                            const Layouts& old_in_layouts,
                            const std::vector<ir::Type>& old_in_types) {
  ir::Attrs params = attrs;
  Layout ret;
  if (new_in_layouts != nullptr && !new_in_layouts->empty() && !old_in_layouts.empty()) {
    std::optional<std::vector<ir::Dim>> shape = ShapeOf(old_in_types.at(0));
    const Layout& old_layout = old_in_layouts[0];
    std::optional<size_t> axis =
        shape ? AxisIndex(attrs->get_int("axis"), shape->size()) : std::nullopt;
    if (!axis || *axis >= old_layout.ndim()) return Undefined(attrs);
    ret = (*new_in_layouts)[0];
    params = attrs->With("axis", ir::AttrValue::Int(ret.IndexOf(old_layout[*axis].name)));
  } else if (!old_in_layouts.empty()) {
    ret = old_in_layouts[0];
  }
  Layout c("C");
  return {{ret, c, c, c, c}, {ret, c, c}, params};
}

}  // namespace relaypass::op::layout_rules
