#include "broadcast.h"

#include <algorithm>

namespace relaypass::op::kernels {

BroadcastPlan PlanBroadcast(const Shape& a, const Shape& b, const char* op) {
  const size_t nd = std::max(a.size(), b.size());
  BroadcastPlan plan;
  plan.out_shape.assign(nd, 1);
  Shape sa(nd, 0), sb(nd, 0);
  const Shape stride_a = Strides(a), stride_b = Strides(b);
  for (size_t i = 0; i < nd; ++i) {
    // Right-aligned: output axis i is axis i - (nd - rank) of each input, if it has one.
    const int64_t ia = static_cast<int64_t>(i) - static_cast<int64_t>(nd - a.size());
    const int64_t ib = static_cast<int64_t>(i) - static_cast<int64_t>(nd - b.size());
    const int64_t da = ia >= 0 ? a[ia] : 1;
    const int64_t db = ib >= 0 ? b[ib] : 1;
    if (da != db && da != 1 && db != 1) {
      // TVM's run-time message ("Invalid broadcast shapes"), with the shapes.
      Fail(std::string(op) + ": Invalid broadcast shapes: " + ShapeString(a) + " and " +
           ShapeString(b) + " do not broadcast");
    }
    plan.out_shape[i] = da == 1 ? db : da;
    sa[i] = (ia >= 0 && da != 1) ? stride_a[ia] : 0;
    sb[i] = (ib >= 0 && db != 1) ? stride_b[ib] : 0;
  }
  // Merge axis i into the axis after it when both inputs step through them as one.
  for (size_t i = 0; i < nd; ++i) {
    const int64_t extent = plan.out_shape[i];
    if (extent == 1) continue;  // a unit axis changes no index
    if (!plan.extents.empty()) {
      const size_t last = plan.extents.size() - 1;
      // Can the previous (outer) merged axis absorb this one?
      if (plan.a_strides[last] == sa[i] * extent && plan.b_strides[last] == sb[i] * extent) {
        plan.extents[last] *= extent;
        plan.a_strides[last] = sa[i];
        plan.b_strides[last] = sb[i];
        continue;
      }
    }
    plan.extents.push_back(extent);
    plan.a_strides.push_back(sa[i]);
    plan.b_strides.push_back(sb[i]);
  }
  if (plan.extents.empty()) {
    plan.extents = {1};
    plan.a_strides = {0};
    plan.b_strides = {0};
  }
  return plan;
}

}  // namespace relaypass::op::kernels
