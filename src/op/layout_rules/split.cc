// SplitInferCorrectLayout: split accepts its data in any layout; `axis` moves to where its axis
// letter is in the new layout, and each piece comes out in that layout.
#include "layout_rules.h"
#include "rule_util.h"

namespace relaypass::op::layout_rules {

InferLayoutOutput Split(const ir::Attrs& attrs, const Layouts* new_in_layouts,
                        const Layouts& old_in_layouts, const std::vector<ir::Type>& old_in_types) {
  ir::Attrs params = attrs;
  const ir::AttrValue& spec = attrs->get("indices_or_sections");
  const bool sections = spec.kind() == ir::AttrValue::Kind::kInt;
  const size_t pieces = sections ? static_cast<size_t>(spec.as_int()) : spec.as_array().size() + 1;
  Layout ret;
  if (new_in_layouts != nullptr && !new_in_layouts->empty() && !old_in_layouts.empty()) {
    std::optional<std::vector<ir::Dim>> shape = ShapeOf(old_in_types.at(0));
    const Layout& old_layout = old_in_layouts[0];
    const Layout& new_layout = (*new_in_layouts)[0];
    std::optional<size_t> axis =
        shape ? AxisIndex(attrs->get_int("axis"), shape->size()) : std::nullopt;
    if (!axis || *axis >= old_layout.ndim()) return Undefined(attrs);
    const char letter = old_layout[*axis].name;
    params = attrs->With("axis", ir::AttrValue::Int(new_layout.IndexOf(letter)));
    bool divisible = true;
    const int64_t factor = new_layout.FactorOf(letter);
    if (factor > 1 && !sections) {
      std::vector<int64_t> divided;
      for (int64_t index : spec.as_ints()) {
        divisible = divisible && index % factor == 0;
        divided.push_back(index / factor);
      }
      if (divisible) params = params->With("indices_or_sections", ir::AttrValue::Ints(divided));
    }
    // As TVM: when the indices do not divide, the old layout is kept (with the axis moved).
    ret = divisible ? new_layout : old_layout;
  } else if (!old_in_layouts.empty()) {
    ret = old_in_layouts[0];
  }
  return {{ret}, Layouts(pieces, ret), params};
}

}  // namespace relaypass::op::layout_rules
