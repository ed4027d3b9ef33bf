// ElemwiseArbitraryLayout: an elementwise op works in any layout, so it takes its input's.
#include "layout_rules.h"

namespace relaypass::op::layout_rules {

InferLayoutOutput ElemwiseArbitrary(const ir::Attrs& attrs, const Layouts* new_in_layouts,
                                    const Layouts& old_in_layouts,
                                    const std::vector<ir::Type>& /*old_in_types*/) {
  Layout ret;
  if (new_in_layouts != nullptr && !new_in_layouts->empty()) {
    ret = (*new_in_layouts)[0];
  } else {
    for (const Layout& layout : old_in_layouts) {
      if (layout.defined()) {
        ret = layout;
        break;
      }
    }
  }
  return {Layouts(old_in_layouts.size(), ret), {ret}, attrs};
}

}  // namespace relaypass::op::layout_rules
