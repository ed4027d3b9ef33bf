#include "relaypass/tools/print_ir_instrument.h"

#include <algorithm>
#include <iostream>

#include "relaypass/text/printer.h"
#include "relaypass/tools/module_stats.h"
#include "relaypass/tools/text_diff.h"

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

std::string PrintIRInstrument::Print(const ir::IRModule& mod) const {
  if (options_.functions.empty()) {
    return options_.printer ? options_.printer(mod) : text::PrettyPrint(mod);
  }
  ir::IRModule selected;
  for (const auto& [var, data] : mod.type_definitions()) selected.AddTypeDef(var, data);
  for (const auto& [gv, func] : mod.functions()) {
    if (Contains(options_.functions, gv->name_hint)) selected.Add(gv, func);
  }
  if (selected.size() == 0) return "";
  return options_.printer ? options_.printer(selected) : text::PrettyPrint(selected);
}

void PrintIRInstrument::Write(const std::string& header, const std::string& body) const {
  std::ostream& out = options_.out ? *options_.out : std::cerr;
  out << "// *** IR Dump " << header << " ***\n" << body;
  out.flush();
}

void PrintIRInstrument::Dump(const char* when, const std::string& pass,
                             const ir::IRModule& mod) const {
  const std::string body = Print(mod);
  if (body.empty()) return;  // no selected function
  Write(std::string(when) + " " + pass, body + "\n");
}

void PrintIRInstrument::DumpAfter(const std::string& pass, const ir::IRModule& input,
                                  const ir::IRModule& mod) {
  if (!options_.changed_only) return Dump("After", pass, mod);
  if (!options_.diff) {
    if (ModuleChanged(input, mod)) Dump("After", pass, mod);
    return;
  }
  const std::string before = Print(input);
  const std::string after = Print(mod);
  if (before.empty() && after.empty()) return;  // no selected function
  // The whole module decides "changed" (a checked type filled in is no change); the filtered
  // text decides what is shown.
  const std::string diff = ModuleChanged(input, mod)
                               ? UnifiedDiff(before, after, "before " + pass, "after " + pass)
                               : "";
  if (diff.empty()) {
    Write("After " + pass + " omitted because no change", "");
  } else {
    Write("After " + pass + " (diff)", diff);
  }
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
  if (status == transform::PassStatus::kFailed) {
    // The innermost failure is reported first; the Sequentials it passes through follow.
    if (options_.after_failure && !failure_printed_ && options_.containers.count(info.name) == 0) {
      failure_printed_ = true;
      Dump("After", info.name + " Failed", input);
    }
    return;
  }
  if (status != transform::PassStatus::kOk) return;
  if (!Selected(options_.after, after_all_, info.name)) return;
  DumpAfter(info.name, input, mod);
}

}  // namespace relaypass::tools
