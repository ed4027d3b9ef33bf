// PassContext: the settings passes run under (opt_level, required and disabled passes,
// instruments, typed config), and the thread-local stack that makes one of them current.
//
// A PassContext is a shared handle, as in TVM: copies refer to the same context, so
// `PassContext::Current().override_instruments(...)` changes the current context itself.
#pragma once

#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "relaypass/ir/module.h"
#include "relaypass/transform/option_value.h"
#include "relaypass/transform/pass_info.h"
#include "relaypass/transform/pass_instrument.h"

namespace relaypass::transform {

using PassInstruments = std::vector<std::shared_ptr<PassInstrument>>;

/// The legacy `trace` callback of older TVM (pass_infra_tutorial_zh.txt): called with the
/// module, the pass info and is_before, around every module and function pass that runs
/// (not around Sequentials, as in that TVM) -- after the run_before_pass hooks and after the
/// run_after_pass hooks.
using PassTraceFunc =
    std::function<void(const ir::IRModule& mod, const PassInfo& info, bool is_before)>;

/// What a PassContext is made from; reads like the Python constructor:
/// `PassContext ctx({.opt_level = 3, .disabled_pass = {"EliminateCommonSubexpr"}});`
struct PassContextOptions {
  int opt_level = 2;
  std::vector<std::string> required_pass = {};
  std::vector<std::string> disabled_pass = {};
  PassInstruments instruments = {};
  /// Config entries; each key must be a registered option (see pass_config.h) and each value
  /// of its type.
  std::map<std::string, OptionValue> config = {};
  PassTraceFunc trace = {};
};

class PassContext {
 public:
  /// A new context with default settings (opt_level 2, nothing required or disabled).
  PassContext();
  /// A new context; throws PassError for an unknown config key or a value of the wrong type.
  explicit PassContext(PassContextOptions options);

  /// The innermost context entered on this thread, or this thread's default context.
  static PassContext Current();

  int opt_level() const;
  void set_opt_level(int level);
  const std::vector<std::string>& required_pass() const;
  void set_required_pass(std::vector<std::string> names);
  const std::vector<std::string>& disabled_pass() const;
  void set_disabled_pass(std::vector<std::string> names);
  bool IsRequired(const std::string& pass_name) const;
  bool IsDisabled(const std::string& pass_name) const;
  /// What a Sequential decides for a member pass: kSkippedDisabled if disabled (this beats
  /// required), kOk if required or info.opt_level <= opt_level(), else kSkippedOptLevel.
  PassStatus Gate(const PassInfo& info) const;

  const PassInstruments& instruments() const;
  /// Exits the current instruments (exit_pass_ctx, in order), installs `instruments`, and
  /// enters them (enter_pass_ctx). Failures follow the enter/exit rules of PassInstrument.
  void override_instruments(PassInstruments instruments);

  const PassTraceFunc& trace() const;
  void set_trace(PassTraceFunc trace);

  /// The config entries set on this context (registered defaults are not listed).
  const std::map<std::string, OptionValue>& config() const;
  /// Sets a config entry; throws PassError for an unknown key (listing the valid ones) or a
  /// value of the wrong type.
  void SetConfig(const std::string& key, OptionValue value);
  /// The entry's value, or its registered default; throws PassError for an unknown key.
  OptionValue GetConfig(const std::string& key) const;

  /// Errors thrown by exit_pass_ctx while a PassContextScope of this context was left because
  /// of another exception (that exception propagated; these were kept here instead).
  std::vector<std::exception_ptr> suppressed_errors() const;

  /// True if both handles refer to the same context.
  bool same_as(const PassContext& other) const { return node_ == other.node_; }

 private:
  friend class PassContextScope;
  struct Node;
  void EnterScope();
  void ExitScope();
  void EnterInstruments();
  void ExitInstruments();
  std::shared_ptr<Node> node_;
};

/// Enters a context for the lifetime of the scope, like Python's `with ctx:` or TVM's
/// `With<PassContext>`: the constructor calls the instruments' enter_pass_ctx and makes the
/// context current (if an enter hook throws, nothing is entered and the error propagates); the
/// destructor pops it and calls exit_pass_ctx. An exit hook that throws while the scope is left
/// normally propagates from the destructor. One that throws while another exception is
/// unwinding the scope is recorded in PassContext::suppressed_errors() and the first exception
/// keeps propagating (TVM would call std::terminate here).
class PassContextScope {
 public:
  explicit PassContextScope(PassContext ctx);
  ~PassContextScope() noexcept(false);
  PassContextScope(const PassContextScope&) = delete;
  PassContextScope& operator=(const PassContextScope&) = delete;

  const PassContext& context() const { return ctx_; }

 private:
  PassContext ctx_;
  int uncaught_at_entry_;
};

}  // namespace relaypass::transform
