// --list-passes: what this build of relay-opt can run.
#pragma once

#include <string>

namespace relay_opt {

/// Every registered pass (opt_level, required passes, options with types and defaults), the
/// config options, the default pipeline and the workloads.
std::string ListPasses();

}  // namespace relay_opt
