// Running the passes: the default pipeline, the PassContext built from the options, and the
// instruments behind --print-ir-*, --time-passes, --time-trace, --op-counts and --verify-each.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "options.h"
#include "relaypass/eval/allclose.h"
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

/// --verify-tolerance's "RTOL[,ATOL]"; relaypass::Error naming the option if malformed.
relaypass::eval::Tolerance ParseTolerance(const std::string& text);

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
  relaypass::transform::PassInstruments plugin_instruments;  // from --load-pass-plugin
  bool empty() const { return direct.empty() && !pipeline.defined(); }
};
/// Throws relaypass::Error naming the option at fault. Pass names written in kebab-case
/// (`fold-constant`) are read as the registered name, with a note on stderr.
PassPlan MakePassPlan(const Options& options);

/// The PassContext the options describe (opt level, required and disabled passes, config),
/// with `instruments`.
relaypass::transform::PassContext MakeContext(const Options& options, const PassPlan& plan,
                                              relaypass::transform::PassInstruments instruments);

/// --dump-pass-pipeline's text: the passes as they will run, options resolved, gating noted.
std::string DumpPassPipeline(const Options& options, const PassPlan& plan);

/// The relay-opt arguments that run `plan` again as the options ask (the pipeline with its
/// options, the context, plugins, and what decides a failure: --verify-each, tolerance, seed,
/// inputs, --opt-bisect-limit), for a reproducer.
std::vector<std::string> ReplayArguments(const Options& options, const PassPlan& plan);

/// `options` without anything that prints or writes reports (IR dumps, timing, trace, op
/// counts, bisect decisions): for the runs that --reduce and --bisect-verify make.
Options QuietOptions(const Options& options);

/// Runs `plan` on `mod` under a PassContext made from the options, with the instruments they
/// ask for; prints the timing tree and the op-count table to stderr and writes the trace file.
/// `inputs` are main's arguments for --verify-each (random when empty); `extra` instruments are
/// added to the context's. The timing tree and the trace are written even when a pass fails.
relaypass::ir::IRModule RunPasses(const Options& options, const PassPlan& plan,
                                  relaypass::ir::IRModule mod,
                                  std::vector<relaypass::eval::Value> inputs,
                                  const relaypass::transform::PassInstruments& extra = {});

}  // namespace relay_opt
