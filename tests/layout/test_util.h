// Helpers for the layout-pass tests: counting operator calls per pass (the instrument tutorial's
// RelayCallNodeDiffer), running passes as the tutorials do, and reading expected texts.
#pragma once

#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "relaypass/ir/module.h"
#include "relaypass/transform/pass.h"
#include "relaypass/transform/pass_instrument.h"

namespace relaypass::layout_testing {

using OpCounts = std::map<std::string, int>;

// The number of calls of each operator in @main (post_order_visit, as the tutorial counts).
OpCounts CountOps(const ir::IRModule& mod);

// The instrument tutorial's RelayCallNodeDiffer: (depth, pass name, op-count changes) for each
// pass that changed the counts.
class CallNodeDiffer : public transform::PassInstrument {
 public:
  using Diff = std::tuple<int, std::string, OpCounts>;
  void run_before_pass(const ir::IRModule& mod, const transform::PassInfo& info) override;
  void run_after_pass(const ir::IRModule& mod, const transform::PassInfo& info) override;
  const std::vector<Diff>& diffs() const { return diffs_; }

 private:
  std::vector<std::pair<std::string, OpCounts>> stack_;
  std::vector<Diff> diffs_;
};

// Registers CanonicalizeOps, ConvertLayout and AlterOpLayout in the global registry unless they
// are already there, so that a Sequential can create the passes ConvertLayout requires.
void EnsureLayoutPassesRegistered();

// Runs Sequential({pass}) on `mod` at opt_level 3, as the tutorials do.
ir::IRModule RunAtLevel3(const transform::Pass& pass, const ir::IRModule& mod);

// The text of tests/data/<name>.
std::string ReadTestData(const std::string& name);

// The module of `text` (typed), with `constants` for its meta[relay.Constant][i].
ir::IRModule ParseExpected(const std::string& text,
                           const std::vector<ir::Constant>& constants = {});

// The constants of `expr` in the order a post-order walk meets them.
std::vector<ir::Constant> ConstantsOf(const ir::Expr& expr);

}  // namespace relaypass::layout_testing
