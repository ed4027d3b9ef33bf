// PrintIRInstrument: dumps the module before and/or after chosen passes, optionally only when
// the pass changed it (LLVM's -print-before / -print-after / -print-changed for the pass infra).
#pragma once

#include <functional>
#include <iosfwd>
#include <set>
#include <string>
#include <vector>

#include "relaypass/ir/module.h"
#include "relaypass/transform/pass_instrument.h"

namespace relaypass::tools {

struct PrintIROptions {
  /// Passes to print before / after, by name; "all" means every pass except `containers`.
  std::vector<std::string> before = {};
  std::vector<std::string> after = {};
  /// Print after a pass only if it changed the module (see ModuleChanged). With `after` empty,
  /// this means after every pass (except containers).
  bool changed_only = false;
  /// With changed_only: print a unified diff of the module before and after each changed pass
  /// (opt's -print-changed=diff) instead of the whole module, and a one-line note
  /// `// *** IR Dump After NAME omitted because no change ***` for each pass that ran without
  /// changing it.
  bool diff = false;
  /// Print the module a pass started from when the pass fails, headed
  /// `// *** IR Dump After NAME Failed ***` (mlir-opt's --mlir-print-ir-after-failure). Only the
  /// innermost failing pass is printed, not the Sequentials the failure passes through.
  bool after_failure = false;
  /// Only these functions are printed (and diffed), by global name without `@` (opt's
  /// -filter-print-funcs); every function if empty. A dump in which no selected function exists
  /// is left out.
  std::vector<std::string> functions = {};
  /// Names that only group passes (Sequentials, see SequentialNames): "all" does not print
  /// around them, since their members are printed. Naming one explicitly still prints it.
  std::set<std::string> containers = {};
  /// How a module is shown; text::PrettyPrint (the `print(mod)` form) if empty.
  std::function<std::string(const ir::IRModule&)> printer = {};
  /// Where dumps go; std::cerr if null. Must outlive the instrument.
  std::ostream* out = nullptr;
};

/// Writes `// *** IR Dump Before NAME ***` (or `After`) and the module for every selected pass
/// invocation that runs (skipped passes print nothing). The header is a Relay comment, so a
/// dump can be cut out and parsed again (a diff cannot).
class PrintIRInstrument final : public transform::PassInstrument {
 public:
  explicit PrintIRInstrument(PrintIROptions options);

  std::string name() const override { return "PrintIRInstrument"; }

  void run_before_pass(const ir::IRModule& mod, const transform::PassInfo& info) override;
  void run_after_pass_status(const ir::IRModule& mod, const transform::PassInfo& info,
                             transform::PassStatus status) override;

 private:
  bool Selected(const std::vector<std::string>& names, bool all, const std::string& pass) const;
  std::string Print(const ir::IRModule& mod) const;
  void Write(const std::string& header, const std::string& body) const;
  void Dump(const char* when, const std::string& pass, const ir::IRModule& mod) const;
  void DumpAfter(const std::string& pass, const ir::IRModule& input, const ir::IRModule& mod);

  PrintIROptions options_;
  bool before_all_ = false;
  bool after_all_ = false;
  bool failure_printed_ = false;
  /// The input module of each running invocation, innermost last (for changed_only).
  std::vector<ir::IRModule> open_;
};

}  // namespace relaypass::tools
