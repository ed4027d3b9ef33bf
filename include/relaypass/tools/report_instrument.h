// ReportInstrument: records what every pass did and writes the pass explorer, one
// self-contained HTML page (docs/cli.md, --report): the passes as they ran, nested, with their
// times and skip reasons; per pass the operator and node count changes, the diff of the module
// text and, with a VerifyInstrument, the largest numeric difference it introduced; the final
// graph drawn by Graphviz, whose nodes show their attributes, type and the pass that made them.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "relaypass/ir/module.h"
#include "relaypass/transform/pass_instrument.h"

namespace relaypass::tools {

class VerifyInstrument;

struct ReportOptions {
  /// Shown in the page's header: where the module came from and the command that ran.
  std::string input = {};
  std::string command_line = {};
  /// Names of passes that only group others (see SequentialNames): listed, not diffed.
  std::set<std::string> containers = {};
  /// If set, the largest numeric difference each verified pass introduced is shown (see
  /// ReportInstrument::SetVerify).
  std::shared_ptr<const VerifyInstrument> verify = nullptr;
  /// A pass's diff is cut after this many lines (the page says how many were left out).
  int64_t max_diff_lines = 3000;
};

/// One pass invocation as the report shows it.
struct PassRecord {
  std::string name;
  int depth = 0;        // nesting: 0 for passes called directly
  double start_us = 0;  // since the first pass started
  double duration_us = 0;
  std::string status;  // transform::PassStatusName
  bool container = false;
  bool changed = false;
  int64_t nodes_before = 0;
  int64_t nodes_after = 0;
  std::map<std::string, int64_t> op_delta;  // operator -> change in calls (non-zero only)
  std::string diff;                         // unified diff of the module text, maybe cut
  int64_t diff_lines_dropped = 0;
  int64_t lines_added = 0;
  int64_t lines_removed = 0;
  std::optional<double> max_abs_diff;  // from the VerifyInstrument
  int64_t verify_slot = -1;            // which of the VerifyInstrument's checks is this pass's
};

class ReportInstrument final : public transform::PassInstrument {
 public:
  explicit ReportInstrument(ReportOptions options = {});
  ~ReportInstrument() override;

  std::string name() const override { return "ReportInstrument"; }

  void run_before_pass(const ir::IRModule& mod, const transform::PassInfo& info) override;
  void run_after_pass_status(const ir::IRModule& mod, const transform::PassInfo& info,
                             transform::PassStatus status) override;

  /// The VerifyInstrument whose checks give each pass's largest numeric difference. It may come
  /// before or after this instrument in the context's list: its checks are matched to passes
  /// in order (each outermost pass that changed the module is checked once) when rendering.
  void SetVerify(std::shared_ptr<const VerifyInstrument> verify);

  /// The passes recorded so far, with the verification results matched in.
  std::vector<PassRecord> records() const;
  /// The page for what was recorded so far (the graph is the last module a pass returned, or
  /// the input if none did). Graphviz runs here.
  std::string RenderHtml() const;
  /// RenderHtml() into `path`; throws relaypass::Error if it cannot be written.
  void WriteFile(const std::string& path) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace relaypass::tools
