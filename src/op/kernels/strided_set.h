// The CPU kernel of strided_set (strided_set.cc).
#pragma once

#include "kernels.h"

namespace relaypass::op::kernels {

KernelFn StridedSet;

}  // namespace relaypass::op::kernels
