// Parameter initialisation bit-exact with TVM's relay.testing (init.create_workload): Xavier
// uniform weights drawn from NumPy's legacy MT19937 stream seeded 0, zeros for bias/beta/mean,
// ones for gamma/var.
#pragma once

#include <map>
#include <string>

#include "relaypass/ir/module.h"
#include "relaypass/workloads/workloads.h"

namespace relaypass::workloads {

/// Values for every parameter of the typed `main` except `data`, in parameter order (the random
/// stream continues across weights). Throws for a parameter name with no known initialiser.
std::map<std::string, ir::NDArray> InitParams(const ir::IRModule& typed_mod, uint32_t seed = 0);

/// init.create_workload: `net` as the module's `main`, type-inferred, with InitParams' values.
Workload CreateWorkload(const ir::Function& net, uint32_t seed = 0);

}  // namespace relaypass::workloads
