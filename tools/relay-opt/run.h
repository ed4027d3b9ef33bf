// --run: evaluating main on seeded random inputs or .npy files, and reporting its outputs.
#pragma once

#include <string>
#include <vector>

#include "options.h"
#include "pipeline.h"
#include "relaypass/eval/value.h"
#include "relaypass/ir/module.h"

namespace relay_opt {

/// Sets the process's memory budget from --memory-budget, else from --config
/// relay.memory_budget (bytes); throws relaypass::Error naming the option for a malformed value.
void ApplyMemoryBudget(const Options& options, const PassPlan& plan);

/// main's arguments: eval::RandomInputs(main, --seed), with the parameters named by --input
/// read from their .npy files instead (shape and dtype must match the parameter's type).
std::vector<relaypass::eval::Value> MakeInputs(const relaypass::ir::IRModule& mod,
                                               const Options& options);

/// Runs main with the evaluator on `inputs` and returns one line per output tensor:
/// `output[0]: shape=(1, 1000) dtype=float32 min=... max=... mean=... checksum=...` (the
/// checksum is FNV-1a of the bytes, so equal checksums mean bit-identical outputs). Writes the
/// first output to --output when given.
std::string RunAndReport(const relaypass::ir::IRModule& mod,
                         const std::vector<relaypass::eval::Value>& inputs, const Options& options);

}  // namespace relay_opt
