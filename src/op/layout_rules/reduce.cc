// ReduceInferCorrectLayout: a reduction accepts any layout; its reduced axes follow their letters
// (a split axis is reduced with its packed sub-axis) and the output layout drops them (or keeps
// them as 1 with keepdims).
#include <set>

#include "layout_rules.h"
#include "rule_util.h"

namespace relaypass::op::layout_rules {

namespace {

// TVM's GetReduceAxes: the axes actually reduced, sorted.
std::vector<size_t> ReducedAxes(size_t ndim, const ir::AttrValue& axis_attr, bool exclude) {
  std::vector<size_t> axes;
  if (axis_attr.is_null() || axis_attr.as_array().empty()) {
    for (size_t i = 0; i < ndim; ++i) axes.push_back(i);
    return axes;
  }
  std::vector<bool> listed(ndim, false);
  for (int64_t axis : axis_attr.as_ints()) {
    if (std::optional<size_t> index = AxisIndex(axis, ndim)) listed[*index] = true;
  }
  for (size_t i = 0; i < ndim; ++i) {
    if (listed[i] != exclude) axes.push_back(i);
  }
  return axes;
}

struct Inferred {
  Layout in, out;
  std::vector<int64_t> axes;  // the new `axis` attr, in the attr's (exclude) sense
};

// Walks `layout` and decides, per axis, whether it is reduced (by its letter in the old layout).
Inferred InferFrom(const Layout& layout, const std::set<char>& reduced_dims, bool keepdims,
                   bool exclude) {
  Inferred r;
  std::string in, out;
  auto push_axis = [&](char dim, size_t index) {
    if ((reduced_dims.count(dim) > 0) != exclude) {
      r.axes.push_back(static_cast<int64_t>(index));
      return true;
    }
    return false;
  };
  for (size_t i = 0; i < layout.ndim(); ++i) {
    const LayoutAxis& axis = layout[i];
    if (axis.is_primal()) {
      push_axis(axis.name, i);
      in += axis.name;
      if (!reduced_dims.count(axis.name) || keepdims) out += axis.name;
      continue;
    }
    // NCHW reduced over [1] becomes NCHW8c reduced over [1, 4].
    std::string packed = axis.ToString();
    in += packed;
    if (push_axis(axis.primal(), i)) {
      if (exclude) {
        out += packed;  // the primal axis is kept
      } else if (keepdims) {
        out += std::string("1") + axis.name;
      }
    } else {
      out += packed;
    }
  }
  r.in = ParsedLayout(in);
  r.out = ParsedLayout(out);
  return r;
}

}  // namespace

InferLayoutOutput Reduce(const ir::Attrs& attrs, const Layouts* new_in_layouts,
                         const Layouts& old_in_layouts, const std::vector<ir::Type>& old_in_types) {
  if (old_in_layouts.empty() || old_in_types.empty()) return Undefined(attrs);
  std::optional<std::vector<ir::Dim>> shape = ShapeOf(old_in_types[0]);
  if (!shape) return Undefined(attrs);
  const bool keepdims = attrs->get_bool("keepdims");
  const bool exclude = attrs->get_bool("exclude");
  std::vector<size_t> reduced = ReducedAxes(shape->size(), attrs->get("axis"), exclude);

  const Layout& old_layout = old_in_layouts[0];
  std::set<char> reduced_dims;
  for (size_t axis : reduced) {
    if (!old_layout.defined() || axis >= old_layout.ndim()) return Undefined(attrs);
    reduced_dims.insert(old_layout[axis].name);
  }

  ir::Attrs params = attrs;
  Inferred inferred;
  if (new_in_layouts != nullptr && !new_in_layouts->empty() && !reduced.empty()) {
    inferred = InferFrom((*new_in_layouts)[0], reduced_dims, keepdims, exclude);
    params = attrs->With("axis", ir::AttrValue::Ints(inferred.axes));
  } else {
    inferred = InferFrom(old_layout, reduced_dims, keepdims, exclude);
  }
  return {{inferred.in}, {inferred.out}, params};
}

}  // namespace relaypass::op::layout_rules
