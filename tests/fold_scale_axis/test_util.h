// Helpers for the FoldScaleAxis tests: typed modules, printed bodies, numerical comparison.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "relaypass/ir/module.h"
#include "relaypass/relay.h"
#include "relaypass/transform/pass.h"

namespace relaypass::passes::testing {

// `func` as the main function of a module, after type inference.
ir::IRModule Typed(const ir::Function& func);

// The module as `print(mod)` prints it, without the `/* ty=... */` comments.
std::string PrintWithoutTypes(const ir::IRModule& mod);

// A float32 constant of `shape` with the values base, base+step, base+2*step, ...
relay::Constant Ramp(const std::vector<int64_t>& shape, float base, float step);

// main of `before` and of `after` on the same seeded random inputs; gtest failure if they differ
// beyond `rtol`/`atol`.
void ExpectSameResults(const ir::IRModule& before, const ir::IRModule& after, uint64_t seed = 7,
                       double rtol = 1e-5, double atol = 1e-5);

// Number of calls to operator `op` in main.
size_t CountOp(const ir::IRModule& mod, const std::string& op);

// `pass` run on `mod` under a context with `opt_level`.
ir::IRModule RunAtLevel(const transform::Pass& pass, const ir::IRModule& mod, int opt_level);

}  // namespace relaypass::passes::testing
