// BatchNormInferCorrectLayout: batch_norm accepts its data in any layout; `axis` moves to where
// the normalised axis letter is in the new layout.
#include "layout_rules.h"
#include "rule_util.h"

namespace relaypass::op::layout_rules {

InferLayoutOutput BatchNorm(const ir::Attrs& attrs, const Layouts* new_in_layouts,
                            const Layouts& old_in_layouts,
                            const std::vector<ir::Type>& old_in_types) {
  std::optional<AxisFollowingLayout> layout =
      AxisFollowsData(attrs, new_in_layouts, old_in_layouts, old_in_types);
  if (!layout) return Undefined(attrs);
  const Layout& ret = layout->data;
  const ir::Attrs& params = layout->attrs;
  Layout c("C");
  return {{ret, c, c, c, c}, {ret, c, c}, params};
}

}  // namespace relaypass::op::layout_rules
