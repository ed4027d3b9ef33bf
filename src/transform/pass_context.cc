#include "relaypass/transform/pass_context.h"

#include <algorithm>

#include "relaypass/support/error.h"
#include "relaypass/transform/pass_config.h"

namespace relaypass::transform {

struct PassContext::Node {
  int opt_level = 2;
  std::vector<std::string> required_pass;
  std::vector<std::string> disabled_pass;
  PassInstruments instruments;
  std::map<std::string, OptionValue> config;
  PassTraceFunc trace;
  std::vector<std::exception_ptr> suppressed;
};

namespace {

// Each thread has its own default context and its own stack of entered contexts.
struct ThreadContexts {
  PassContext default_context;
  std::vector<PassContext> stack;
};

ThreadContexts& Local() {
  thread_local ThreadContexts contexts;
  return contexts;
}

bool Contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

PassContext::PassContext() : node_(std::make_shared<Node>()) {}

PassContext::PassContext(PassContextOptions options) : PassContext() {
  node_->opt_level = options.opt_level;
  node_->required_pass = std::move(options.required_pass);
  node_->disabled_pass = std::move(options.disabled_pass);
  node_->instruments = std::move(options.instruments);
  node_->trace = std::move(options.trace);
  for (auto& [key, value] : options.config) SetConfig(key, std::move(value));
}

PassContext PassContext::Current() {
  ThreadContexts& local = Local();
  return local.stack.empty() ? local.default_context : local.stack.back();
}

int PassContext::opt_level() const {
  return node_->opt_level;
}
void PassContext::set_opt_level(int level) {
  node_->opt_level = level;
}
const std::vector<std::string>& PassContext::required_pass() const {
  return node_->required_pass;
}
void PassContext::set_required_pass(std::vector<std::string> names) {
  node_->required_pass = std::move(names);
}
const std::vector<std::string>& PassContext::disabled_pass() const {
  return node_->disabled_pass;
}
void PassContext::set_disabled_pass(std::vector<std::string> names) {
  node_->disabled_pass = std::move(names);
}

bool PassContext::IsRequired(const std::string& pass_name) const {
  return Contains(node_->required_pass, pass_name);
}

bool PassContext::IsDisabled(const std::string& pass_name) const {
  return Contains(node_->disabled_pass, pass_name);
}

PassStatus PassContext::Gate(const PassInfo& info) const {
  if (IsDisabled(info.name)) return PassStatus::kSkippedDisabled;
  if (IsRequired(info.name)) return PassStatus::kOk;
  return node_->opt_level >= info.opt_level ? PassStatus::kOk : PassStatus::kSkippedOptLevel;
}

const PassInstruments& PassContext::instruments() const {
  return node_->instruments;
}

void PassContext::override_instruments(PassInstruments instruments) {
  ExitInstruments();
  node_->instruments = std::move(instruments);
  EnterInstruments();
}

const PassTraceFunc& PassContext::trace() const {
  return node_->trace;
}
void PassContext::set_trace(PassTraceFunc trace) {
  node_->trace = std::move(trace);
}

const std::map<std::string, OptionValue>& PassContext::config() const {
  return node_->config;
}

void PassContext::SetConfig(const std::string& key, OptionValue value) {
  node_->config[key] = PassConfigRegistry::Global().Validate(key, value);
}

OptionValue PassContext::GetConfig(const std::string& key) const {
  auto it = node_->config.find(key);
  if (it != node_->config.end()) return it->second;
  const PassConfigRegistry& registry = PassConfigRegistry::Global();
  if (const PassConfigOption* option = registry.Find(key)) return option->default_value;
  registry.Validate(key, OptionValue());  // throws the "unknown option" error
  return OptionValue();
}

std::vector<std::exception_ptr> PassContext::suppressed_errors() const {
  return node_->suppressed;
}

void PassContext::EnterInstruments() {
  const PassInstruments list = node_->instruments;  // hooks may override the instruments
  size_t entered = 0;
  try {
    for (; entered < list.size(); ++entered) list[entered]->enter_pass_ctx();
  } catch (...) {
    node_->instruments.clear();
    for (size_t i = 0; i < entered; ++i) {
      try {
        list[i]->exit_pass_ctx();
      } catch (...) {
        node_->suppressed.push_back(std::current_exception());
      }
    }
    throw;
  }
}

void PassContext::ExitInstruments() {
  const PassInstruments list = node_->instruments;
  try {
    for (const auto& instrument : list) instrument->exit_pass_ctx();
  } catch (...) {
    node_->instruments.clear();
    throw;
  }
}

void PassContext::EnterScope() {
  EnterInstruments();
  Local().stack.push_back(*this);
}

void PassContext::ExitScope() {
  std::vector<PassContext>& stack = Local().stack;
  if (stack.empty() || !stack.back().same_as(*this)) {
    throw InternalError("PassContextScope left out of order (or on another thread)");
  }
  stack.pop_back();
  ExitInstruments();
}

PassContextScope::PassContextScope(PassContext ctx)
    : ctx_(std::move(ctx)), uncaught_at_entry_(std::uncaught_exceptions()) {
  ctx_.EnterScope();
}

PassContextScope::~PassContextScope() noexcept(false) {
  if (std::uncaught_exceptions() <= uncaught_at_entry_) {
    ctx_.ExitScope();
    return;
  }
  // Another exception is unwinding this scope: keep it, record ours.
  try {
    ctx_.ExitScope();
  } catch (...) {
    ctx_.node_->suppressed.push_back(std::current_exception());
  }
}

}  // namespace relaypass::transform
