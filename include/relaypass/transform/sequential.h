// Sequential: a named list of passes that is itself a pass (TVM's tvm.transform.Sequential).
#pragma once

#include <string>
#include <vector>

#include "relaypass/transform/pass.h"

namespace relaypass::transform {

/// Runs `passes` in order. For each member: skip it if its name is in the context's
/// disabled_pass (this beats required_pass); otherwise run it if its name is in required_pass
/// or ctx.opt_level() >= its opt_level. Before running a member, each name in its
/// info().required is created from the registry with default options and run (one level deep,
/// instrumented, every time). The Sequential's own opt_level and required list only matter when
/// it is a member of another Sequential.
Pass Sequential(std::vector<Pass> passes, std::string name = "sequential", int opt_level = 0,
                std::vector<std::string> required = {});

/// The members of `pass` if it is a Sequential, else null.
const std::vector<Pass>* SequentialPasses(const Pass& pass);

}  // namespace relaypass::transform
