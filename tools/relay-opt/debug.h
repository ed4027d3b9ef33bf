// relay-opt's debugging modes over a pipeline: --reduce and --bisect-verify (docs/cli.md,
// "Debugging"). Both run the pipeline many times, quietly (QuietOptions).
#pragma once

#include <string>
#include <vector>

#include "options.h"
#include "pipeline.h"
#include "relaypass/eval/value.h"
#include "relaypass/ir/module.h"

namespace relay_opt {

/// --reduce: the smallest module found for which --reduce-check still holds (progress notes
/// and a summary on stderr). relaypass::Error if the check does not hold for `mod` itself.
relaypass::ir::IRModule Reduce(const Options& options, const PassPlan& plan,
                               const relaypass::ir::IRModule& mod);

/// --bisect-verify: bisects the pipeline for the first pass after which main's results differ
/// from the input's; prints the outcome to stderr. relaypass::PassError naming the pass if one
/// is found.
void BisectVerify(const Options& options, const PassPlan& plan, const relaypass::ir::IRModule& mod,
                  std::vector<relaypass::eval::Value> inputs);

}  // namespace relay_opt
