// NormalizationInferCorrectLayout (nn.layer_norm, nn.instance_norm) and PReluInferCorrectLayout.
#include "layout_rules.h"
#include "rule_util.h"

namespace relaypass::op::layout_rules {

// The data takes any layout and `axis` moves to where its letter is in the new one; gamma and
// beta are "C"; one output in the data's layout.
InferLayoutOutput Normalization(const ir::Attrs& attrs, const Layouts* new_in_layouts,
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
  return {{ret, c, c}, {ret}, params};
}

// nn.prelu keeps its data in the old layout (TVM transforms it back) and alpha in "C".
InferLayoutOutput PRelu(const ir::Attrs& attrs, const Layouts* /*new_in_layouts*/,
                        const Layouts& old_in_layouts,
                        const std::vector<ir::Type>& /*old_in_types*/) {
  if (old_in_layouts.empty()) return Undefined(attrs);
  const Layout data = old_in_layouts[0];
  return {{data, Layout("C")}, {data}, attrs};
}

}  // namespace relaypass::op::layout_rules
