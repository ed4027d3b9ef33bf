// OptBisectInstrument: LLVM's -opt-bisect-limit for the pass infra. Every pass invocation that
// would run (a Sequential's gating already passed) gets the next number; those numbered above
// the limit are skipped (should_run answers no), and each decision is printed as LLVM prints it:
//   BISECT: running pass (1) FoldConstant on module
//   BISECT: NOT running pass (2) FuseOps on module
// Sequentials (`containers`) are not numbered and always run: their members are. A pass named
// in the context's required_pass is never asked (PassInstrument::should_run), so it always runs
// and takes no number, as LLVM's required passes.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <set>
#include <string>
#include <vector>

#include "relaypass/transform/pass_instrument.h"

namespace relaypass::tools {

struct OptBisectOptions {
  /// Passes numbered above this are skipped; -1 runs every pass (and still numbers them).
  int64_t limit = -1;
  /// Names of the passes that only group others (see SequentialNames).
  std::set<std::string> containers = {};
  /// Where decisions are printed; nowhere if null.
  std::ostream* out = nullptr;
};

class OptBisectInstrument final : public transform::PassInstrument {
 public:
  explicit OptBisectInstrument(OptBisectOptions options = {});

  std::string name() const override { return "OptBisectInstrument"; }
  bool should_run(const ir::IRModule& mod, const transform::PassInfo& info) override;

  /// Passes numbered so far (ran or not).
  int64_t count() const { return static_cast<int64_t>(names_.size()); }
  /// The name of pass number `n` (1-based).
  const std::string& pass_name(int64_t n) const { return names_.at(static_cast<size_t>(n - 1)); }

 private:
  OptBisectOptions options_;
  std::vector<std::string> names_;
};

}  // namespace relaypass::tools
