// ConcatenateLayout: the fields of a concatenation share one layout; `axis` follows its letter.
#include "layout_rules.h"
#include "rule_util.h"

namespace relaypass::op::layout_rules {

InferLayoutOutput Concatenate(const ir::Attrs& attrs, const Layouts* new_in_layouts,
                              const Layouts& old_in_layouts,
                              const std::vector<ir::Type>& old_in_types) {
  auto* tuple = old_in_types.size() == 1 ? old_in_types[0].as<ir::TupleTypeNode>() : nullptr;
  if (tuple == nullptr || tuple->fields.empty()) return Undefined(attrs);
  std::optional<std::vector<ir::Dim>> shape = ShapeOf(tuple->fields[0]);
  if (!shape) return Undefined(attrs);
  int64_t axis_attr = attrs->get_int("axis");
  size_t axis = static_cast<size_t>(axis_attr < 0 ? axis_attr + static_cast<int64_t>(shape->size())
                                                  : axis_attr);

  if (new_in_layouts != nullptr && !new_in_layouts->empty()) {
    // After a rewrite: if every field arrives in the same layout, keep it and move the axis.
    bool all_same = true;
    for (const Layout& layout : *new_in_layouts) all_same &= layout == (*new_in_layouts)[0];
    if (all_same && !old_in_layouts.empty() && axis < old_in_layouts[0].ndim()) {
      const Layout& ret = (*new_in_layouts)[0];
      int new_axis = ret.IndexOf(old_in_layouts[0][axis].name);
      return {Layouts(old_in_layouts.size(), ret),
              {ret},
              attrs->With("axis", ir::AttrValue::Int(new_axis))};
    }
  }
  Layout ret;
  for (const Layout& layout : old_in_layouts) {
    if (layout.defined()) {
      ret = layout;
      break;
    }
  }
  if (ret.ndim() <= axis || !ret[axis].is_primal()) return Undefined(attrs);
  return {Layouts(old_in_layouts.size(), ret), {ret}, attrs};
}

}  // namespace relaypass::op::layout_rules
