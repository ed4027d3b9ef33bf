// The CPU kernels of the vision NMS operators (nms.cc): vision.get_valid_counts,
// vision.non_max_suppression and vision.all_class_non_max_suppression.
#pragma once

#include "kernels.h"

namespace relaypass::op::kernels {

KernelFn GetValidCounts, NonMaxSuppression, AllClassNonMaxSuppression;

}  // namespace relaypass::op::kernels
