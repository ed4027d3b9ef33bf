#include "relaypass/tools/verify_instrument.h"

#include "relaypass/eval/interpreter.h"
#include "relaypass/eval/random.h"
#include "relaypass/eval/weak_reference.h"
#include "relaypass/support/error.h"
#include "relaypass/tools/module_stats.h"

namespace relaypass::tools {

VerifyInstrument::VerifyInstrument(VerifyOptions options) : options_(std::move(options)) {}

eval::Value VerifyInstrument::Evaluate(const ir::IRModule& mod, const std::string& when) {
  try {
    if (!mod.Contains("main")) throw Error("the module has no main function");
    if (!options_.inputs) options_.inputs = eval::RandomInputs(mod.Lookup("main"), options_.seed);
    eval::Interpreter interpreter(mod);
    ++evaluations_;
    return interpreter.RunMain(*options_.inputs);
  } catch (const Error& e) {
    throw PassError("cannot evaluate the module " + when + ": " + e.message());
  }
}

void VerifyInstrument::run_before_pass(const ir::IRModule& mod, const transform::PassInfo& info) {
  const bool check = checking_ == 0 && options_.containers.count(info.name) == 0;
  if (check) ++checking_;
  open_.emplace_back(check, mod);
}

void VerifyInstrument::run_after_pass_status(const ir::IRModule& mod,
                                             const transform::PassInfo& info,
                                             transform::PassStatus status) {
  if (transform::IsSkipped(status) || open_.empty()) return;
  auto [check, input] = std::move(open_.back());
  open_.pop_back();
  if (!check) return;
  --checking_;
  if (status != transform::PassStatus::kOk) return;
  if (!ModuleChanged(input, mod)) {
    if (reference_module_ && reference_module_->same_as(input)) reference_module_ = mod;
    return;
  }
  const std::string pass = "\"" + info.name + "\"";
  if (!reference_module_ || !reference_module_->same_as(input)) {
    reference_ = Evaluate(input, "before pass " + pass);
    reference_module_ = input;
  }
  eval::Value result = Evaluate(mod, "after pass " + pass);
  ++passes_checked_;
  const eval::CloseResult close =
      eval::AllClose(result, reference_, options_.tolerance, /*equal_nan=*/true);
  checks_.push_back({info.name, close.max_abs_diff, close.ok});
  if (!close.ok) {
    throw PassError("pass " + pass + " changed the results of @main: " + close.message);
  }
  std::string weak = eval::WeakReference(reference_);
  if (!weak.empty()) weak_checks_.push_back({info.name, std::move(weak)});
  reference_ = std::move(result);
  reference_module_ = mod;
}

}  // namespace relaypass::tools
