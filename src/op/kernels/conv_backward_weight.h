// The CPU kernel of nn.conv2d_backward_weight (conv_backward_weight.cc).
#pragma once

#include "kernels.h"

namespace relaypass::op::kernels {

KernelFn Conv2DBackwardWeight;

}  // namespace relaypass::op::kernels
