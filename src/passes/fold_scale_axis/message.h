// The message both FoldScaleAxis directions propagate in their preparation phase: which axes of
// a value may carry a per-channel scale, and whether that scale must be positive (it will cross
// a relu, which commutes only with non-negative factors).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace relaypass::passes::fold_scale_axis {

// Axes in increasing order (TVM's AxesSet).
using AxesSet = std::vector<int64_t>;

struct Message {
  AxesSet axes;
  bool require_positive = false;
};

// nullopt is TVM's NullValue<Message>(): no scale can be folded across this value.
using MaybeMessage = std::optional<Message>;

// The axes present in both sorted sets.
AxesSet Intersect(const AxesSet& a, const AxesSet& b);
// Both consumers' demands at once: nullopt if either is, else the common axes, with a positive
// scale required if either requires it.
MaybeMessage Intersect(const MaybeMessage& a, const MaybeMessage& b);

}  // namespace relaypass::passes::fold_scale_axis
