// Running the passes: the default pipeline, the PassContext built from the options, and the
// instruments behind --print-ir-*, --time-passes, --time-trace, --op-counts and --verify-each.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "options.h"
#include "relaypass/eval/value.h"
#include "relaypass/ir/module.h"
#include "relaypass/transform/option_value.h"
#include "relaypass/transform/pass.h"

namespace relay_opt {

/// TVM v0.13's relay.build pass prefix (GetPassPrefix in src/relay/backend/utils.cc), in order:
/// relaypass::passes::BuildPrefixNames (include/relaypass/passes/default_pipeline.h).
const std::vector<std::string>& BuildPrefixNames();

/// `--pipeline=default`: relaypass::passes::DefaultPipelineNames (the registered passes of
/// BuildPrefixNames, then PlanDevices and FuseOps).
std::vector<std::string> DefaultPipelineNames();

/// The --config entries as a config map, each validated against the config registry.
std::map<std::string, relaypass::transform::OptionValue> ParseConfig(
    const std::vector<std::string>& entries);

/// What the options ask to run: each pass of --passes (called directly) or the one Sequential of
/// --pipeline, and the validated --config entries. Made before the input is read, so that a
/// bad option is reported first.
struct PassPlan {
  std::vector<relaypass::transform::Pass> direct;  // --passes
  relaypass::transform::Pass pipeline;             // --pipeline
  std::map<std::string, relaypass::transform::OptionValue> config;
  bool empty() const { return direct.empty() && !pipeline.defined(); }
};
/// Throws relaypass::Error naming the option at fault.
PassPlan MakePassPlan(const Options& options);

/// Runs `plan` on `mod` under a PassContext made from the options, with the instruments they
/// ask for; prints the timing tree and the op-count table to stderr and writes the trace file.
/// `inputs` are main's arguments for --verify-each (random when empty).
relaypass::ir::IRModule RunPasses(const Options& options, const PassPlan& plan,
                                  relaypass::ir::IRModule mod,
                                  std::vector<relaypass::eval::Value> inputs);

}  // namespace relay_opt
