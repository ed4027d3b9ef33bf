// Helpers for the pass-infrastructure tests: an instrument that records its hook calls, passes
// that record that they ran, and tiny modules.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "relaypass/ir/module.h"
#include "relaypass/transform/pass.h"
#include "relaypass/transform/pass_instrument.h"

namespace relaypass::transform::testing {

using Log = std::vector<std::string>;

// What tests throw from hooks and passes.
struct HookError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Records "NAME hook" or "NAME hook PASS" for every hook call; can veto or throw from any hook.
class RecordingInstrument : public PassInstrument {
 public:
  RecordingInstrument(std::string name, Log* log) : name_(std::move(name)), log_(log) {}

  std::string name() const override { return name_; }
  // Makes `hook` ("enter_pass_ctx", "should_run", ...) throw HookError("NAME hook").
  RecordingInstrument& ThrowIn(std::string hook) {
    throw_in_ = std::move(hook);
    return *this;
  }
  RecordingInstrument& Veto() {
    veto_ = true;
    return *this;
  }
  // Also record run_after_pass_status calls ("NAME status PASS ok").
  RecordingInstrument& RecordStatus() {
    record_status_ = true;
    return *this;
  }

  void enter_pass_ctx() override { Hook("enter_pass_ctx", ""); }
  void exit_pass_ctx() override { Hook("exit_pass_ctx", ""); }
  bool should_run(const ir::IRModule&, const PassInfo& info) override {
    Hook("should_run", info.name);
    return !veto_;
  }
  void run_before_pass(const ir::IRModule&, const PassInfo& info) override {
    Hook("run_before_pass", info.name);
  }
  void run_after_pass(const ir::IRModule&, const PassInfo& info) override {
    Hook("run_after_pass", info.name);
  }
  void run_after_pass_status(const ir::IRModule&, const PassInfo& info,
                             PassStatus status) override {
    if (record_status_)
      log_->push_back(name_ + " status " + info.name + " " + PassStatusName(status));
  }

 private:
  void Hook(const std::string& hook, const std::string& pass) {
    log_->push_back(name_ + " " + hook + (pass.empty() ? "" : " " + pass));
    if (hook == throw_in_) throw HookError(name_ + " " + hook);
  }
  std::string name_;
  Log* log_;
  std::string throw_in_;
  bool veto_ = false;
  bool record_status_ = false;
};

// A one-function module: `def @main(%x: Tensor[(1, 4), float32]) { %x }`.
ir::IRModule TinyModule();

// A module pass named `name` that logs "run NAME" and returns the module unchanged.
Pass LoggingPass(const std::string& name, int opt_level, Log* log,
                 std::vector<std::string> required = {});

// The log of the passes the tests register in the global registry ("TestRequired",
// "TestRequiredOther", "TestOptions", "TestConvertLayout"); factories log "created with ...".
Log& RegisteredPassLog();
// Registers those passes once.
void EnsureTestPassesRegistered();

}  // namespace relaypass::transform::testing
