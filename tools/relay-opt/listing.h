// --list-passes and --list-ops: what this build of relay-opt can run and read.
#pragma once

#include <string>

namespace relay_opt {

/// Every registered pass (opt_level, required passes, options with types and defaults), the
/// config options, the default pipeline and the workloads.
std::string ListPasses();

/// Every registered operator: arity, fusion pattern, whether it has a layout rule (and a
/// ConvertLayout hook), its attributes with their defaults, and what it computes.
std::string ListOps();

}  // namespace relay_opt
