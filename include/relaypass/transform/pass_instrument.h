// PassInstrument: hooks called around pass contexts and pass invocations (TVM's
// tvm.instrument.PassInstrument). Override only the hooks you need; all default to doing nothing.
//
// Instruments are shared (std::shared_ptr) between the PassContexts that list them and must not
// be copied. Hooks are called on the thread that runs the pass.
#pragma once

#include <cstdint>
#include <string>

#include "relaypass/ir/module.h"
#include "relaypass/transform/pass_info.h"

namespace relaypass::transform {

/// How one pass invocation ended, as reported to PassInstrument::run_after_pass_status.
enum class PassStatus : uint8_t {
  kOk,                   ///< the pass ran and returned a module
  kFailed,               ///< the pass, or a hook of this invocation, threw
  kSkippedByInstrument,  ///< an instrument's should_run returned false
  kSkippedDisabled,      ///< a Sequential skipped it: the name is in disabled_pass
  kSkippedOptLevel,      ///< a Sequential skipped it: its opt_level is above the context's
};

/// "ok", "failed", "skipped (should_run)", "skipped (disabled)", "skipped (opt_level)".
const char* PassStatusName(PassStatus status);
inline bool IsSkipped(PassStatus status) {
  return status != PassStatus::kOk && status != PassStatus::kFailed;
}

class PassInstrument {
 public:
  PassInstrument() = default;
  virtual ~PassInstrument() = default;
  PassInstrument(const PassInstrument&) = delete;
  PassInstrument& operator=(const PassInstrument&) = delete;

  /// The instrument's name, for messages. Defaults to the class name without namespace.
  virtual std::string name() const;

  /// Called when a PassContext listing this instrument is entered (PassContextScope), before
  /// the context becomes current, and by override_instruments for the new instruments. Called in
  /// list order. If it throws, the context drops all its instruments, calls exit_pass_ctx of the
  /// instruments that had entered, and the error propagates (the context is not entered).
  virtual void enter_pass_ctx() {}

  /// Called when a PassContext listing this instrument is left (after it stopped being
  /// current), and by override_instruments for the old instruments, in list order. If it throws,
  /// later instruments are not exited, the context drops all its instruments and the error
  /// propagates (unless another error is already propagating; see PassContextScope).
  virtual void exit_pass_ctx() {}

  /// Called before every pass invocation (direct call, Sequential member, required pass, the
  /// InferType after a function pass) with the input module. Every instrument is asked, even
  /// after one said no; the pass runs only if all return true. Not asked for a pass named in the
  /// context's required_pass. When the answer is no, the input module is returned unchanged
  /// and neither run_before_pass nor run_after_pass is called.
  virtual bool should_run(const ir::IRModule& /*mod*/, const PassInfo& /*info*/) { return true; }

  /// Called, in list order, right before a pass that should run starts, with its input module.
  /// If it throws, the error propagates at once: the pass does not run and no later hook of
  /// this invocation is called (except run_after_pass_status, see there).
  virtual void run_before_pass(const ir::IRModule& /*mod*/, const PassInfo& /*info*/) {}

  /// Called, in list order, right after a pass returned, with the module it returned. Not called
  /// when the pass (or an earlier hook of the invocation) threw.
  virtual void run_after_pass(const ir::IRModule& /*mod*/, const PassInfo& /*info*/) {}

  /// Beyond TVM: the balanced end of an invocation. For every run_before_pass of this
  /// instrument that returned normally, called exactly once as this instrument's last hook of
  /// that invocation: with kOk right after its run_after_pass returned normally (and the
  /// module the pass returned), otherwise with kFailed and the module the pass started from
  /// (the pass, a later run_before_pass, or a run_after_pass up to and including this
  /// instrument's threw). An instrument that pushes in run_before_pass and pops here keeps a
  /// correct stack whatever fails. Also called, on every instrument and with the input module,
  /// when a pass is skipped: by should_run (kSkippedByInstrument), or by a Sequential because
  /// of disabled_pass (kSkippedDisabled) or opt_level (kSkippedOptLevel). An exception thrown
  /// from here with kFailed is swallowed (the pass's error propagates); otherwise it propagates.
  virtual void run_after_pass_status(const ir::IRModule& /*mod*/, const PassInfo& /*info*/,
                                     PassStatus /*status*/) {}
};

}  // namespace relaypass::transform
