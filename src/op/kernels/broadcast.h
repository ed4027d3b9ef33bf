// Numpy-style broadcasting of two arrays: the output shape and, for a loop over the output, the
// element strides of each input (0 along broadcast axes), with contiguous axes merged.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernel_util.h"
#include "relaypass/support/parallel.h"

namespace relaypass::op::kernels {

struct BroadcastPlan {
  Shape out_shape;
  // Merged loop: extents and per-input strides, outermost first (at least one axis).
  Shape extents;
  Shape a_strides;
  Shape b_strides;
};

// Fails naming `op` if the shapes do not broadcast.
BroadcastPlan PlanBroadcast(const Shape& a, const Shape& b, const char* op);

// Calls body(out_index, a_index, b_index, count, a_step, b_step) once per run of the innermost
// merged axis.
template <typename Body>
void ForEachBroadcastRun(const BroadcastPlan& plan, Body&& body) {
  const size_t nd = plan.extents.size();
  const int64_t inner = plan.extents[nd - 1];
  const int64_t sa = plan.a_strides[nd - 1], sb = plan.b_strides[nd - 1];
  int64_t outer = 1;
  for (size_t i = 0; i + 1 < nd; ++i) outer *= plan.extents[i];
  std::vector<int64_t> idx(nd, 0);
  int64_t ia = 0, ib = 0, io = 0;
  for (int64_t o = 0; o < outer; ++o) {
    body(io, ia, ib, inner, sa, sb);
    io += inner;
    // Advance the odometer over the outer axes.
    for (size_t d = nd - 1; d-- > 0;) {
      ia += plan.a_strides[d];
      ib += plan.b_strides[d];
      if (++idx[d] < plan.extents[d]) break;
      ia -= plan.a_strides[d] * plan.extents[d];
      ib -= plan.b_strides[d] * plan.extents[d];
      idx[d] = 0;
    }
  }
}

// ForEachBroadcastRun split over support::ParallelFor: body is called from several threads at
// once, on disjoint parts of the output (runs, or pieces of one long run).
template <typename Body>
void ForEachBroadcastRunParallel(const BroadcastPlan& plan, Body&& body) {
  const size_t nd = plan.extents.size();
  const int64_t inner = plan.extents[nd - 1];
  const int64_t sa = plan.a_strides[nd - 1], sb = plan.b_strides[nd - 1];
  int64_t outer = 1;
  for (size_t i = 0; i + 1 < nd; ++i) outer *= plan.extents[i];
  if (outer == 1) {
    support::ParallelFor(inner, kParallelGrain, [&](int64_t begin, int64_t end) {
      body(begin, begin * sa, begin * sb, end - begin, sa, sb);
    });
    return;
  }
  const int64_t rows_per_grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(inner, 1));
  support::ParallelFor(outer, rows_per_grain, [&](int64_t begin, int64_t end) {
    // The odometer at row `begin`.
    std::vector<int64_t> idx(nd, 0);
    int64_t ia = 0, ib = 0, rest = begin;
    for (size_t d = nd - 1; d-- > 0;) {
      idx[d] = rest % plan.extents[d];
      rest /= plan.extents[d];
      ia += idx[d] * plan.a_strides[d];
      ib += idx[d] * plan.b_strides[d];
    }
    int64_t io = begin * inner;
    for (int64_t o = begin; o < end; ++o) {
      body(io, ia, ib, inner, sa, sb);
      io += inner;
      for (size_t d = nd - 1; d-- > 0;) {
        ia += plan.a_strides[d];
        ib += plan.b_strides[d];
        if (++idx[d] < plan.extents[d]) break;
        ia -= plan.a_strides[d] * plan.extents[d];
        ib -= plan.b_strides[d] * plan.extents[d];
        idx[d] = 0;
      }
    }
  });
}

}  // namespace relaypass::op::kernels
