// ChromeTraceInstrument: records every pass invocation as a Chrome trace event ("complete"
// events, nested like the calls), with the skip reason, the module's node count before and
// after, and whether the pass changed the module. The JSON opens in Perfetto
// (ui.perfetto.dev) and chrome://tracing. Unlike PassTimingInstrument, the records survive the
// context's exit, so write the file after the scope ends.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "relaypass/ir/module.h"
#include "relaypass/transform/pass_instrument.h"

namespace relaypass::tools {

struct ChromeTraceOptions {
  /// Record the module's size before and after each invocation (CountModuleNodes unless
  /// `count_nodes` is set; the counts of unchanged functions are reused).
  bool node_counts = true;
  /// Record whether each invocation changed the module (ModuleChanged unless `module_changed`
  /// is set).
  bool changed = true;
  std::function<size_t(const ir::IRModule&)> count_nodes = {};
  std::function<bool(const ir::IRModule& before, const ir::IRModule& after)> module_changed = {};
  /// The process name the viewers show.
  std::string process_name = "relaypass";
  /// std::chrono::steady_clock::now unless a test injects a fake clock.
  std::function<std::chrono::steady_clock::time_point()> clock = {};
};

class ChromeTraceInstrument final : public transform::PassInstrument {
 public:
  /// One pass invocation. Skipped invocations have duration 0 and no node count after.
  struct Event {
    std::string name;
    int opt_level = 0;
    int depth = 0;         // 0 for a pass called outside any other pass
    int64_t start_ns = 0;  // since the instrument was created
    int64_t duration_ns = 0;
    transform::PassStatus status = transform::PassStatus::kOk;
    std::optional<size_t> nodes_before;
    std::optional<size_t> nodes_after;
    std::optional<bool> changed;
  };

  explicit ChromeTraceInstrument(ChromeTraceOptions options = {});
  ~ChromeTraceInstrument() override;

  std::string name() const override { return "ChromeTraceInstrument"; }

  /// The invocations recorded so far, in the order they started.
  const std::vector<Event>& events() const;
  /// The trace as Chrome trace JSON: {"traceEvents": [...], "displayTimeUnit": "ms"}.
  std::string ToJson() const;
  /// Writes ToJson() to `path`; relaypass::Error if the file cannot be written.
  void WriteFile(const std::string& path) const;

  void run_before_pass(const ir::IRModule& mod, const transform::PassInfo& info) override;
  void run_after_pass_status(const ir::IRModule& mod, const transform::PassInfo& info,
                             transform::PassStatus status) override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace relaypass::tools
