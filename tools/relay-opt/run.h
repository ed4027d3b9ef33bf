// --run: evaluating main on the model's weights and .npy files, and reporting its outputs.
#pragma once

#include <map>
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

/// What main's arguments are for: --run (a missing value is an error unless --random-inputs)
/// or only checking passes (--verify-each, --bisect-verify: missing values are seeded random).
enum class InputsFor { kRun, kVerify };

/// main's arguments, parameter by parameter: the .npy file --input names (shape and dtype must
/// match the parameter's type), else the model's own value from `model_values` (an ONNX
/// initializer, a workload's weight), else a seeded random value (eval::RandomInputs with
/// --seed) where `purpose` and the options allow it: with kRun only under --random-inputs,
/// and then `*random_note` is set to the line relay-opt prints on stderr to say so. Otherwise
/// relaypass::Error naming every parameter without a value.
std::vector<relaypass::eval::Value> MakeInputs(
    const relaypass::ir::IRModule& mod,
    const std::map<std::string, relaypass::ir::NDArray>& model_values, const Options& options,
    InputsFor purpose, std::string* random_note = nullptr);

/// Runs main with the evaluator on `inputs` and returns one line per output tensor:
/// `output[0]: shape=(1, 1000) dtype=float32 min=... max=... mean=... checksum=...` (the
/// checksum is FNV-1a of the bytes, so equal checksums mean bit-identical outputs). Writes the
/// first output to --output when given.
std::string RunAndReport(const relaypass::ir::IRModule& mod,
                         const std::vector<relaypass::eval::Value>& inputs, const Options& options);

}  // namespace relay_opt
