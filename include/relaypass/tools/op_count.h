// Operator counts of a module, a before/after table of them, and an instrument that remembers
// the module a pipeline started from and the one it produced.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "relaypass/ir/module.h"
#include "relaypass/transform/pass_instrument.h"

namespace relaypass::tools {

struct OpCounts {
  std::map<std::string, int64_t> ops;  // calls of each operator, inside fused functions too
  int64_t fused_functions = 0;         // functions with Primitive=1
  int64_t constants = 0;               // Constant nodes
  int64_t total_ops() const;
};

/// Counts every node of every function once (iteratively).
OpCounts CountOps(const ir::IRModule& mod);

/// A table with one row per operator that appears in either count, then the total, the fused
/// functions and the constants, in columns `before` and `after`:
///   operator            before   after
///   nn.conv2d               20      20
std::string RenderOpCountTable(const OpCounts& before, const OpCounts& after);

/// Remembers the input of the first pass that runs outside any other pass, and the output of
/// the last such pass, while the context is active. Counting happens when asked, not while
/// passes run.
class OpCountInstrument final : public transform::PassInstrument {
 public:
  std::string name() const override { return "OpCountInstrument"; }

  /// Whether a top-level pass has finished.
  bool has_result() const { return last_output_.has_value(); }
  /// Counts of the first top-level input and the last top-level output; InternalError if no
  /// top-level pass has finished.
  OpCounts before() const;
  OpCounts after() const;
  /// RenderOpCountTable(before(), after()).
  std::string Render() const;

  void run_before_pass(const ir::IRModule& mod, const transform::PassInfo& info) override;
  void run_after_pass_status(const ir::IRModule& mod, const transform::PassInfo& info,
                             transform::PassStatus status) override;

 private:
  int depth_ = 0;
  std::optional<ir::IRModule> first_input_;
  std::optional<ir::IRModule> last_output_;
};

}  // namespace relaypass::tools
