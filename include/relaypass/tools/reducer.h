// A test-case reducer for Relay modules (the job of mlir-reduce and llvm-reduce): shrinks a
// module while a check ("interesting") still holds, e.g. "this pipeline fails with the same
// error in the same pass". relay-opt --reduce drives it.
//
// Reductions, tried in a fixed order (so the result is deterministic), each kept only if the
// candidate still type-checks and is still interesting:
//   1. drop a function other than main;
//   2. bypass a call of a function's top-level dataflow (not inside a nested function), from the
//      output towards the inputs: replace it by a new parameter of its type (which also drops
//      everything only it used), or else by one of its arguments of the same type;
//   3. drop parameters of main that are no longer used.
// Rounds repeat until one changes nothing or `max_checks` checks were made.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "relaypass/ir/module.h"

namespace relaypass::tools {

struct ReduceOptions {
  /// The most candidates checked (each check typically runs a pipeline): bounds the work.
  int64_t max_checks = 1000;
  /// Called with a one-line note for every reduction kept; nothing if empty.
  std::function<void(const std::string&)> log = {};
};

struct ReduceResult {
  ir::IRModule module;      ///< the smallest interesting module found (type-checked)
  int64_t checks = 0;       ///< candidates given to the check
  int64_t kept = 0;         ///< reductions kept
  size_t nodes_before = 0;  ///< CountModuleNodes of the input and of the result
  size_t nodes_after = 0;
  bool budget_exhausted = false;  ///< stopped by max_checks, not because nothing more reduced
};

/// True when a candidate still shows the behaviour being reduced. An exception thrown from it
/// propagates.
using InterestingFn = std::function<bool(const ir::IRModule&)>;

/// Reduces `mod` (which the caller found interesting) as described above.
ReduceResult ReduceModule(const ir::IRModule& mod, const InterestingFn& interesting,
                          const ReduceOptions& options = {});

}  // namespace relaypass::tools
