#include "conv2d_axes.h"

#include "relaypass/op/layout.h"
#include "relaypass/support/error.h"
#include "scale_utils.h"

namespace relaypass::passes::fold_scale_axis {

namespace {

// TVM's IsDepthwiseConv: the kernel, seen as OIHW, is (groups, 1, kh, kw).
bool IsDepthwise(const ir::CallNode* call, const op::Layout& kernel_layout, int64_t groups) {
  op::BijectiveLayout to_oihw(kernel_layout, op::Layout("OIHW"));
  if (!to_oihw.defined()) return false;
  std::vector<ir::Dim> oihw = to_oihw.ForwardShape(TensorTypeOf(call->args[1]).shape);
  return oihw[0] == groups && oihw[1] == 1;
}

// The expression the kernel is multiplied by, for a scale along `big` (and `small`, blocked).
ir::Expr KernelScale(const Conv2DAxes& axes, const ir::Expr& scale, const ir::CallNode* call,
                     int big, int small) {
  if (axes.simple_kernel) return ExpandBiasToMatchAxis(scale, axes.kernel_ndim, big);
  return ReshapeToMatchAxis(scale, TensorTypeOf(call->args[1]).shape, {big, small});
}

}  // namespace

Conv2DAxes AnalyzeConv2D(const ir::CallNode* call, ConvSide side) {
  const ir::AttrsNode& attrs = *call->attrs;
  std::string name = attrs.get_string("data_layout");
  if (side == ConvSide::kOutput && !attrs.get_string("out_layout").empty()) {
    name = attrs.get_string("out_layout");
  }
  op::Layout act_layout(name);
  op::Layout kernel_layout(attrs.get_string("kernel_layout"));
  int big_c = act_layout.IndexOf('C');
  int small_c = act_layout.IndexOf('c');
  if (big_c < 0) throw PassError("FoldScaleAxis: conv2d layout \"" + name + "\" has no C axis");

  Conv2DAxes axes;
  axes.big_o = kernel_layout.IndexOf('O');
  axes.small_o = kernel_layout.IndexOf('o');
  axes.big_i = kernel_layout.IndexOf('I');
  axes.small_i = kernel_layout.IndexOf('i');
  axes.kernel_ndim = static_cast<int64_t>(kernel_layout.ndim());
  axes.simple_kernel = axes.small_o < 0 && axes.small_i < 0 && axes.big_i >= 0;
  axes.blocked_kernel = axes.small_o >= 0 && axes.small_i >= 0 && axes.big_i >= 0;
  int64_t groups = attrs.get_int("groups");
  axes.depthwise = IsDepthwise(call, kernel_layout, groups);
  bool simple_layouts = axes.small_o < 0 && axes.small_i < 0 && small_c < 0;
  bool blocked_layouts = axes.small_o >= 0 && axes.small_i >= 0 && small_c >= 0;
  // TVM also requires a simple or blocked kernel, by a check that aborts in its rewrite.
  axes.foldable = (groups == 1 || axes.depthwise) && (simple_layouts || blocked_layouts) &&
                  (axes.simple_kernel || axes.blocked_kernel);
  axes.channel_axes = {big_c};
  if (small_c >= 0) axes.channel_axes.push_back(small_c);
  return axes;
}

ir::Expr KernelInputChannelScale(const Conv2DAxes& axes, const ir::Expr& scale,
                                 const ir::CallNode* call) {
  if (axes.depthwise) return KernelScale(axes, scale, call, axes.big_o, axes.small_o);
  return KernelScale(axes, scale, call, axes.big_i, axes.small_i);
}

ir::Expr KernelOutputChannelScale(const Conv2DAxes& axes, const ir::Expr& scale,
                                  const ir::CallNode* call) {
  return KernelScale(axes, scale, call, axes.big_o, axes.small_o);
}

}  // namespace relaypass::passes::fold_scale_axis
