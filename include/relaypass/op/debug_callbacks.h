// The callbacks of TVM's `debug` operator (relay.op.debug): a function the evaluator calls with
// the value of the debugged expression, found by the name the call's DebugAttrs hold (TVM keeps
// an EnvFunc of a registered global function; relaypass keeps its name).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "relaypass/ir/ndarray.h"

namespace relaypass::op {

/// Called with the debugged value's tensors (one for a tensor, each field for a tuple).
using DebugCallback = std::function<void(const std::vector<ir::NDArray>& values)>;

/// Registers `callback` under `name` (replacing any before it), for the process's lifetime.
void RegisterDebugCallback(const std::string& name, DebugCallback callback);

}  // namespace relaypass::op
