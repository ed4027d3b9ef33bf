// The default pipeline: TVM v0.13's relay.optimize for one llvm target (relay.build's
// OptimizeImpl in src/relay/backend/build_module.cc): GetPassPrefix(homogeneous, not VM) from
// src/relay/backend/utils.cc, then PlanDevices and FuseOps, as one Sequential. The passes are
// the same at every opt level; the PassContext's opt_level (and its required and disabled
// passes) decides which of them run, as in TVM.
//
// TVM passes relaypass does not register are left out (DefaultPipelineMissing lists them):
// qnn.Legalize (no QNN operators) and SplitArgs (a no-op for llvm, whose max_function_args is
// unset).
#pragma once

#include <string>
#include <vector>

#include "relaypass/transform/pass.h"

namespace relaypass::passes {

/// TVM's GetPassPrefix for relay.build with one target, in order, by registered name.
const std::vector<std::string>& BuildPrefixNames();

/// The names of the default pipeline: BuildPrefixNames that are registered, then PlanDevices and
/// FuseOps.
std::vector<std::string> DefaultPipelineNames();

/// The passes of TVM's relay.optimize list that are not registered (so not in the pipeline).
std::vector<std::string> DefaultPipelineMissing();

/// The default pipeline as one Sequential named "sequential" (TVM's unnamed Sequential), each
/// pass created from the registry with its default options.
transform::Pass DefaultPipeline();

}  // namespace relaypass::passes
