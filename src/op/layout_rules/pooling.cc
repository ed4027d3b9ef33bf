// PoolInferCorrectLayout: pooling works in any layout with unsplit H and W, so its `layout` attr
// follows the incoming layout -- unless the user fixed out_layout.
#include "layout_rules.h"
#include "relaypass/support/error.h"
#include "rule_util.h"

namespace relaypass::op::layout_rules {

InferLayoutOutput Pool2D(const ir::Attrs& attrs, const Layouts* new_in_layouts,
                         const Layouts& /*old_in_layouts*/,
                         const std::vector<ir::Type>& /*old_in_types*/) {
  ir::Attrs params = attrs;
  const std::string& layout = attrs->get_string("layout");
  const std::string& out_layout = attrs->get_string("out_layout");
  if (!out_layout.empty()) {
    if (out_layout != layout) {
      throw PassError("Pooling input/output layouts mismatch: " + layout + " vs. " + out_layout);
    }
  } else if (new_in_layouts != nullptr && !new_in_layouts->empty()) {
    params = attrs->With("layout", ir::AttrValue::Str((*new_in_layouts)[0].name()));
  }
  Layout ret = ParsedLayout(params->get_string("layout"));
  return {{ret}, {ret}, params};
}

}  // namespace relaypass::op::layout_rules
