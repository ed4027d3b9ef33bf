// Registration entry points of the operator families; OpRegistry::Global() calls each once.
#pragma once

#include "relaypass/op/registry.h"

namespace relaypass::op {

void RegisterTensorOps(OpRegistry& registry);     // tensor.cc: elementwise and broadcast
void RegisterNNOps(OpRegistry& registry);         // nn.cc: conv, pooling, norm, dense, ...
void RegisterTransformOps(OpRegistry& registry);  // transform.cc: reshape, layout, cast, ...
void RegisterReduceOps(OpRegistry& registry);     // reduce.cc: sum, mean

}  // namespace relaypass::op
