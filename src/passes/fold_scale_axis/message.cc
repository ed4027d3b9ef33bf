#include "message.h"

namespace relaypass::passes::fold_scale_axis {

AxesSet Intersect(const AxesSet& a, const AxesSet& b) {
  AxesSet out;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i] < b[j]) {
      ++i;
    } else if (a[i] > b[j]) {
      ++j;
    } else {
      out.push_back(a[i]);
      ++i;
      ++j;
    }
  }
  return out;
}

MaybeMessage Intersect(const MaybeMessage& a, const MaybeMessage& b) {
  if (!a || !b) return std::nullopt;
  return Message{Intersect(a->axes, b->axes), a->require_positive || b->require_positive};
}

}  // namespace relaypass::passes::fold_scale_axis
