// PadInferCorrectLayout: nn.pad accepts a new layout by re-ordering pad_width, unless the new
// layout splits an axis that is padded.
#include <map>

#include "layout_rules.h"
#include "rule_util.h"

namespace relaypass::op::layout_rules {

InferLayoutOutput Pad(const ir::Attrs& attrs, const Layouts* new_in_layouts,
                      const Layouts& old_in_layouts,
                      const std::vector<ir::Type>& /*old_in_types*/) {
  ir::Attrs params = attrs;
  Layout ret_data;
  bool modified = false;
  if (new_in_layouts != nullptr && new_in_layouts->size() == 2 && old_in_layouts.size() == 2) {
    // pad_width by axis letter of the old layout, then read back in the order of the new one.
    const std::vector<ir::AttrValue>& pad_width = attrs->get("pad_width").as_array();
    const Layout& old_layout = old_in_layouts[0];
    const Layout& new_layout = (*new_in_layouts)[0];
    std::map<char, ir::AttrValue> by_axis;
    for (size_t i = 0; i < old_layout.ndim() && i < pad_width.size(); ++i) {
      by_axis.emplace(old_layout[i].name, pad_width[i]);
    }
    modified = true;
    std::vector<ir::AttrValue> new_pad_width;
    for (const LayoutAxis& axis : new_layout.axes()) {
      auto it = by_axis.find(axis.name);
      if (it != by_axis.end() && axis.is_primal()) {
        new_pad_width.push_back(it->second);
        continue;
      }
      // A split axis: allowed only if its primal axis was not padded.
      auto primal = by_axis.find(axis.primal());
      if (primal == by_axis.end()) return Undefined(attrs);
      new_pad_width.push_back(primal->second);
      for (const ir::AttrValue& width : primal->second.as_array()) {
        if (width.kind() != ir::AttrValue::Kind::kInt || width.as_int() != 0) modified = false;
      }
    }
    if (modified) {
      ret_data = new_layout;
      params = attrs->With("pad_width", ir::AttrValue::Array(std::move(new_pad_width)));
    }
  }
  if (!modified && !old_in_layouts.empty()) ret_data = old_in_layouts[0];
  // The pad value is a scalar (TVM names its layout "1"; here it is the rank-0 layout).
  Layout scalar(std::vector<LayoutAxis>{});
  return {{ret_data, scalar}, {ret_data}, params};
}

}  // namespace relaypass::op::layout_rules
