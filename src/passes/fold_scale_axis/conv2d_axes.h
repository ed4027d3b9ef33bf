// Where a conv2d's channels sit in its layouts, for folding a per-channel scale into its weight
// (the layout checks TVM's ConvForwardPrep/ConvBackwardPrep and their rewrites share).
#pragma once

#include "message.h"
#include "relaypass/ir/expr.h"

namespace relaypass::passes::fold_scale_axis {

struct Conv2DAxes {
  // groups == 1 or depthwise, and either no layout has sub-axes (NCHW/OIHW, NHWC/HWIO) or the
  // activation has `c` and the kernel both `o` and `i` (NCHW4c/OIHW4i4o). Grouped convs are
  // not folded.
  bool foldable = false;
  bool depthwise = false;
  // The kernel has no `o`/`i` sub-axes (and an `I` axis), or has both.
  bool simple_kernel = false;
  bool blocked_kernel = false;
  // {C} or {C, c} of the activation layout looked at (data or output).
  AxesSet channel_axes;
  // Positions in the kernel layout (-1 when absent) and its rank.
  int big_o = -1, small_o = -1, big_i = -1, small_i = -1;
  int64_t kernel_ndim = 0;
};

enum class ConvSide { kData, kOutput };

// The axes of `call` (an nn.conv2d) with the channel axes of its data layout or of its output
// layout (out_layout, or data_layout when that is ""). PassError if that layout has no `C`.
Conv2DAxes AnalyzeConv2D(const ir::CallNode* call, ConvSide side);

// The factor a kernel is multiplied by to scale its input channels (output channels for a
// depthwise conv) by the per-channel `scale`: ExpandBiasToMatchAxis for a simple kernel, a
// reshape for a blocked one; null when a blocked kernel's shape is unknown.
ir::Expr KernelInputChannelScale(const Conv2DAxes& axes, const ir::Expr& scale,
                                 const ir::CallNode* call);
// The factor that scales a kernel's output channels by `scale`; null as above.
ir::Expr KernelOutputChannelScale(const Conv2DAxes& axes, const ir::Expr& scale,
                                  const ir::CallNode* call);

}  // namespace relaypass::passes::fold_scale_axis
