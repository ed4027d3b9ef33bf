// ConvInferCorrectLayout: a convolution dictates its layouts through its attrs; the layout passes
// make the other operators fit them.
#include "layout_rules.h"
#include "rule_util.h"

namespace relaypass::op::layout_rules {

InferLayoutOutput Conv2D(const ir::Attrs& attrs, const Layouts* /*new_in_layouts*/,
                         const Layouts& /*old_in_layouts*/,
                         const std::vector<ir::Type>& /*old_in_types*/) {
  const std::string& data_layout = attrs->get_string("data_layout");
  const std::string& out_layout = attrs->get_string("out_layout");
  return {{ParsedLayout(data_layout), ParsedLayout(attrs->get_string("kernel_layout"))},
          {ParsedLayout(out_layout.empty() ? data_layout : out_layout)},
          attrs};
}

}  // namespace relaypass::op::layout_rules
