// NormalizationInferCorrectLayout (nn.layer_norm, nn.instance_norm) and PReluInferCorrectLayout.
#include "layout_rules.h"
#include "rule_util.h"

namespace relaypass::op::layout_rules {

// The data takes any layout and `axis` moves to where its letter is in the new one; gamma and
// beta are "C"; one output in the data's layout.
InferLayoutOutput Normalization(const ir::Attrs& attrs, const Layouts* new_in_layouts,
                                const Layouts& old_in_layouts,
                                const std::vector<ir::Type>& old_in_types) {
  std::optional<AxisFollowingLayout> layout =
      AxisFollowsData(attrs, new_in_layouts, old_in_layouts, old_in_types);
  if (!layout) return Undefined(attrs);
  const Layout& ret = layout->data;
  const ir::Attrs& params = layout->attrs;
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
