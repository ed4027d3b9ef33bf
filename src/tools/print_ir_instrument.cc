#include "relaypass/tools/print_ir_instrument.h"

#include <algorithm>
#include <iostream>

#include "relaypass/text/printer.h"
#include "relaypass/tools/module_stats.h"

namespace relaypass::tools {

namespace {

bool Contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

PrintIRInstrument::PrintIRInstrument(PrintIROptions options) : options_(std::move(options)) {
  before_all_ = Contains(options_.before, "all");
  after_all_ = Contains(options_.after, "all") || (options_.after.empty() && options_.changed_only);
}

bool PrintIRInstrument::Selected(const std::vector<std::string>& names, bool all,
                                 const std::string& pass) const {
  if (Contains(names, pass)) return true;
  return all && options_.containers.count(pass) == 0;
}

void PrintIRInstrument::Dump(const char* when, const std::string& pass,
                             const ir::IRModule& mod) const {
  std::ostream& out = options_.out ? *options_.out : std::cerr;
  out << "// *** IR Dump " << when << " " << pass << " ***\n"
      << (options_.printer ? options_.printer(mod) : text::PrettyPrint(mod)) << "\n";
  out.flush();
}

void PrintIRInstrument::run_before_pass(const ir::IRModule& mod, const transform::PassInfo& info) {
  if (Selected(options_.before, before_all_, info.name)) Dump("Before", info.name, mod);
  open_.push_back(mod);
}

void PrintIRInstrument::run_after_pass_status(const ir::IRModule& mod,
                                              const transform::PassInfo& info,
                                              transform::PassStatus status) {
  if (transform::IsSkipped(status)) return;  // there was no run_before_pass
  if (open_.empty()) return;
  const ir::IRModule input = std::move(open_.back());
  open_.pop_back();
  if (status != transform::PassStatus::kOk) return;
  if (!Selected(options_.after, after_all_, info.name)) return;
  if (options_.changed_only && !ModuleChanged(input, mod)) return;
  Dump("After", info.name, mod);
}

}  // namespace relaypass::tools
