// The CPU kernel of nn.correlation (correlation.cc).
#pragma once

#include "kernels.h"

namespace relaypass::op::kernels {

KernelFn Correlation;

}  // namespace relaypass::op::kernels
