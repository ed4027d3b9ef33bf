// Small helpers shared by the layout rules.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "relaypass/ir/type.h"
#include "relaypass/op/infer_layout.h"

namespace relaypass::op::layout_rules {

// The shape of a tensor type, or nullopt for any other type.
std::optional<std::vector<ir::Dim>> ShapeOf(const ir::Type& type);

// `axis` (negative counts from the end) as an index into `ndim` dims, or nullopt if out of range.
std::optional<size_t> AxisIndex(int64_t axis, size_t ndim);

// The answer "cannot infer": undefined input and output layouts, the attrs unchanged.
InferLayoutOutput Undefined(const ir::Attrs& attrs);

// A layout from a string built by a rule, or the undefined layout if the string is not a valid
// layout. As in TVM, "" gives the undefined layout here (a rank-0 layout comes only from an
// empty axis list, e.g. Layout::SubLayout(0, 0)).
Layout ParsedLayout(const std::string& name);

// The data layout of an op whose data takes any layout and whose `axis` attribute names one of
// the data's axes (batch_norm, layer_norm, instance_norm): with new input layouts, the first one,
// and the attrs with `axis` moved to where that axis's letter is in it; otherwise the old layout
// (undefined if there is none) and the attrs as they are. nullopt when `axis` does not fit the
// old layout (the caller answers Undefined).
struct AxisFollowingLayout {
  Layout data;
  ir::Attrs attrs;
};
std::optional<AxisFollowingLayout> AxisFollowsData(const ir::Attrs& attrs,
                                                   const Layouts* new_in_layouts,
                                                   const Layouts& old_in_layouts,
                                                   const std::vector<ir::Type>& old_in_types);

}  // namespace relaypass::op::layout_rules
