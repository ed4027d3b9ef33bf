// TransposeInferCorrectLayout: a transpose accepts any input layout; its `axes` are re-expressed
// in that layout and the output layout is the input layout permuted.
#include "layout_rules.h"
#include "rule_util.h"

namespace relaypass::op::layout_rules {

InferLayoutOutput Transpose(const ir::Attrs& attrs, const Layouts* new_in_layouts,
                            const Layouts& old_in_layouts,
                            const std::vector<ir::Type>& /*old_in_types*/) {
  if (old_in_layouts.empty() || !old_in_layouts[0].defined()) return Undefined(attrs);
  const Layout& old_layout = old_in_layouts[0];
  const ir::AttrValue& axes_attr = attrs->get("axes");

  // The old axes, explicit (None reverses) and non-negative.
  std::vector<int64_t> old_axes;
  if (!axes_attr.is_null()) old_axes = axes_attr.as_ints();
  if (old_axes.empty()) {
    for (size_t i = old_layout.ndim(); i-- > 0;) old_axes.push_back(static_cast<int64_t>(i));
  }
  for (int64_t& axis : old_axes) {
    if (axis < 0) axis += static_cast<int64_t>(old_layout.ndim());
    if (axis < 0 || axis >= static_cast<int64_t>(old_layout.ndim())) return Undefined(attrs);
  }

  std::vector<int64_t> axes;
  std::string in_layout;
  if (new_in_layouts != nullptr && !new_in_layouts->empty() && (*new_in_layouts)[0].defined()) {
    const Layout& new_layout = (*new_in_layouts)[0];
    std::vector<int64_t> new_axes;
    for (int64_t axis : old_axes) {
      int new_axis = new_layout.IndexOf(old_layout[axis].name);
      if (new_axis < 0) {  // the axis is not in the new layout
        new_axes.clear();
        break;
      }
      new_axes.push_back(new_axis);
    }
    if (!new_axes.empty() && new_axes.size() == new_layout.ndim()) {
      axes = std::move(new_axes);
      in_layout = new_layout.name();
    }
  }
  if (in_layout.empty()) {
    axes = std::move(old_axes);
    in_layout = old_layout.name();
  }

  // As TVM, the output layout picks characters of the input layout's name by axis index; a
  // result that is not a valid layout (split axes) gives up.
  std::string out_layout;
  for (int64_t axis : axes) {
    if (axis >= static_cast<int64_t>(in_layout.size())) return Undefined(attrs);
    out_layout += in_layout[axis];
  }
  Layout in = ParsedLayout(in_layout);
  Layout out = ParsedLayout(out_layout);
  if (!in.defined() || !out.defined()) return Undefined(attrs);
  return {{in}, {out}, attrs->With("axes", ir::AttrValue::Ints(axes))};
}

}  // namespace relaypass::op::layout_rules
