// qnn.simulated_quantize and qnn.simulated_dequantize (simulated_quantize.cc): registered by
// RegisterQnnOps after qnn.dequantize, whose attrs simulated_dequantize shares.
#pragma once

#include "relaypass/op/registry.h"

namespace relaypass::qnn {

void RegisterSimulatedQuantizeOps(op::OpRegistry& registry);

}  // namespace relaypass::qnn
