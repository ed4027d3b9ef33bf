// Automatic bisection of a pipeline for a numerical change (--bisect-verify): the search that
// LLVM users script around -opt-bisect-limit, done in-process. The pipeline is run with an
// OptBisectInstrument limiting it to its first k passes, and `main`'s results on seeded random
// inputs are compared with those of the input module; a binary search over k finds the first
// pass after which they differ. It costs about log2(N) + 2 pipeline runs and evaluations.
//
// Unlike --verify-each, which compares each pass with the one before, this compares every
// prefix of the pipeline with the input, so a drift that builds up over several passes, each
// within the tolerance, is found where it first crosses it.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "relaypass/eval/allclose.h"
#include "relaypass/eval/value.h"
#include "relaypass/ir/module.h"
#include "relaypass/transform/pass_context.h"

namespace relaypass::tools {

struct BisectVerifyOptions {
  /// Seed of eval::RandomInputs for main's parameters (when `inputs` is not given).
  uint64_t seed = 0;
  /// main's arguments; random by default.
  std::optional<std::vector<eval::Value>> inputs = std::nullopt;
  /// Tolerance of the comparison; eval::DefaultTolerance of each output's dtype by default.
  std::optional<eval::Tolerance> tolerance = std::nullopt;
  /// Names of the passes that only group others (see SequentialNames): not numbered.
  std::set<std::string> containers = {};
};

struct BisectVerifyResult {
  int64_t passes = 0;     ///< passes the whole pipeline runs (numbered as OptBisectInstrument)
  int64_t first_bad = 0;  ///< 1-based number of the first pass whose output differs; 0: none
  std::string pass;       ///< its name
  std::string message;    ///< what differs (eval::AllClose's message), or the pipeline's error
  int64_t runs = 0;       ///< pipeline runs made
  std::string weak;       ///< eval::WeakReference of the input's results ("" if it is strong)
};

/// Runs the pipeline on `mod` with `extra` added to the instruments of the context it runs
/// under, and returns its output. Called with one OptBisectInstrument in `extra`.
using PipelineRunner =
    std::function<ir::IRModule(const ir::IRModule& mod, const transform::PassInstruments& extra)>;

/// Bisects as described above. A run that throws counts as a difference (its message is the
/// error's). relaypass::Error if `mod` has no main or cannot be evaluated.
BisectVerifyResult BisectVerify(const ir::IRModule& mod, const PipelineRunner& run,
                                const BisectVerifyOptions& options = {});

}  // namespace relaypass::tools
