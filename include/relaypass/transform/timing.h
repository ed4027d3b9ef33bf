// PassTimingInstrument: profiles every pass invocation into a tree and renders it in TVM's
// format (tvm.ir.instrument.PassTimingInstrument).
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "relaypass/transform/pass_instrument.h"

namespace relaypass::transform {

class PassTimingInstrument final : public PassInstrument {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;

  /// `clock` is std::chrono::steady_clock::now unless a test injects a fake one.
  explicit PassTimingInstrument(Clock clock = {});
  ~PassTimingInstrument() override;

  std::string name() const override { return "PassTimingInstrument"; }

  /// One line per recorded invocation, depth first in execution order, one tab per nesting
  /// level: `NAME: TOTALus [SELFus] (PCT_OF_ALL%; PCT_OF_PARENT%)`. TOTAL and SELF (TOTAL minus
  /// the children's totals) are rounded to whole microseconds, percentages have two decimals,
  /// and top-level entries use the sum of all top-level totals as their parent. With nothing
  /// recorded, warns on stderr and returns "". Throws PassError while a pass is running.
  /// Call it inside the context: the records are cleared when the context exits.
  std::string render() const;

  void exit_pass_ctx() override;
  void run_before_pass(const ir::IRModule& mod, const PassInfo& info) override;
  void run_after_pass_status(const ir::IRModule& mod, const PassInfo& info,
                             PassStatus status) override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace relaypass::transform
