// VerifyInstrument: semantic verification of a pipeline. After every pass that changed the
// module, runs `main` with the evaluator on the same seeded random inputs before and after the
// pass and throws a PassError naming the first pass whose results differ. A check against a
// reference that cannot tell right from wrong (eval::WeakReference: NaN or constant outputs) is
// recorded as weak, not counted as verified.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "relaypass/eval/allclose.h"
#include "relaypass/eval/value.h"
#include "relaypass/ir/module.h"
#include "relaypass/transform/pass_instrument.h"

namespace relaypass::tools {

struct VerifyOptions {
  /// Seed of eval::RandomInputs for main's parameters (when `inputs` is not given).
  uint64_t seed = 0;
  /// main's arguments; by default random, from the first module the instrument sees.
  std::optional<std::vector<eval::Value>> inputs = std::nullopt;
  /// Tolerance of the comparison; eval::DefaultTolerance of each output's dtype by default.
  std::optional<eval::Tolerance> tolerance = std::nullopt;
  /// Names of passes that only group others (see SequentialNames): their members are checked
  /// one by one instead.
  std::set<std::string> containers = {};
};

/// A pass whose results were compared with a weak reference: equal to it, but that proves little.
struct WeakCheck {
  std::string pass;
  std::string reason;  // eval::WeakReference's, e.g. "output 0 is NaN in 1000 of 1000 elements"
};

/// Checks each outermost pass that is not a container (a pass nested in a checked pass, such as
/// the InferType after a function pass, is part of it). The module before the pass is
/// evaluated once and its results are reused for the next pass; a pass that did not change the
/// module (ModuleChanged) costs no evaluation. Results are compared with eval::AllClose (NaN
/// matches NaN at the same element only; a NaN against a number, or an infinity against anything
/// but the same infinity, is a difference at any tolerance). The error thrown from
/// run_after_pass_status reads: `pass "FoldConstant" changed the results of @main: ...` with
/// AllClose's message. Equal results against a weak reference are recorded in weak_checks().
/// One comparison of a checked pass's results with its input's.
struct VerifyCheck {
  std::string pass;
  double max_abs_diff = 0;  // over every output element (AllClose's)
  bool passed = true;
};

class VerifyInstrument final : public transform::PassInstrument {
 public:
  explicit VerifyInstrument(VerifyOptions options = {});

  std::string name() const override { return "VerifyInstrument"; }

  /// Passes checked (changed the module, results compared, including the weak checks) and
  /// evaluations run so far.
  int64_t passes_checked() const { return passes_checked_; }
  int64_t evaluations() const { return evaluations_; }
  /// The checked passes whose reference was weak, in order; passes_checked() minus their number
  /// passes were verified.
  const std::vector<WeakCheck>& weak_checks() const { return weak_checks_; }
  /// Every comparison so far, in order (the failing one last, when a pass changed results).
  const std::vector<VerifyCheck>& checks() const { return checks_; }

  void run_before_pass(const ir::IRModule& mod, const transform::PassInfo& info) override;
  void run_after_pass_status(const ir::IRModule& mod, const transform::PassInfo& info,
                             transform::PassStatus status) override;

 private:
  eval::Value Evaluate(const ir::IRModule& mod, const std::string& when);

  VerifyOptions options_;
  /// Running invocations, innermost last: whether it is checked, and its input.
  std::vector<std::pair<bool, ir::IRModule>> open_;
  int checking_ = 0;  // open invocations being checked (0 or 1)
  /// The last module evaluated and its results.
  std::optional<ir::IRModule> reference_module_;
  eval::Value reference_;
  int64_t passes_checked_ = 0;
  int64_t evaluations_ = 0;
  std::vector<WeakCheck> weak_checks_;
  std::vector<VerifyCheck> checks_;
};

}  // namespace relaypass::tools
