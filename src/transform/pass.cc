#include "relaypass/transform/pass.h"

#include <cxxabi.h>

#include <cctype>
#include <cstdlib>

#include "relaypass/support/error.h"
#include "relaypass/transform/infer_type.h"

namespace relaypass::transform {

namespace {

class ModulePassNode final : public PassNode {
 public:
  ModulePassNode(PassInfo info, ModulePassFunc fn)
      : PassNode(std::move(info)), fn_(std::move(fn)) {}
  PassKind kind() const override { return PassKind::kModule; }
  ir::IRModule Run(const ir::IRModule& mod, const PassContext& ctx) const override {
    return fn_(mod, ctx);
  }

 private:
  ModulePassFunc fn_;
};

// TVM's AsOptimizableFunctionNode: external and already-compiled functions are left alone.
bool IsOptimizable(const ir::Function& func) {
  const ir::AttrValue* compiler = func->attrs.find("Compiler");
  return (compiler == nullptr || compiler->is_null()) && func->attrs.GetInt("Extern", 0) == 0 &&
         func->attrs.GetInt("SkipOptimization", 0) == 0;
}

class FunctionPassNode final : public PassNode {
 public:
  FunctionPassNode(PassInfo info, FunctionPassFunc fn)
      : PassNode(std::move(info)), fn_(std::move(fn)) {}
  PassKind kind() const override { return PassKind::kFunction; }
  ir::IRModule Run(const ir::IRModule& mod, const PassContext& ctx) const override {
    ir::IRModule updated = mod;
    for (const auto& [gv, func] : mod.functions()) {
      if (!IsOptimizable(func)) continue;
      ir::Function new_func = fn_(func, mod, ctx);
      if (!new_func.same_as(func)) updated.Add(gv, new_func);
    }
    return InferType()(updated, ctx);
  }

 private:
  FunctionPassFunc fn_;
};

// Calls run_after_pass_status(kFailed) on instruments [begin, end), swallowing their errors:
// the error that ended the invocation is the one to propagate.
void NotifyFailed(const PassInstruments& instruments, size_t begin, size_t end,
                  const ir::IRModule& mod, const PassInfo& info) {
  for (size_t i = begin; i < end; ++i) {
    try {
      instruments[i]->run_after_pass_status(mod, info, PassStatus::kFailed);
    } catch (...) {
    }
  }
}

}  // namespace

const PassInfo& Pass::info() const {
  if (!node_) throw InternalError("use of an undefined Pass");
  return node_->info();
}

ir::IRModule Pass::operator()(const ir::IRModule& mod) const {
  return (*this)(mod, PassContext::Current());
}

ir::IRModule Pass::operator()(const ir::IRModule& mod, const PassContext& ctx) const {
  const PassInfo& pass_info = info();
  const PassInstruments instruments = ctx.instruments();  // a hook may override them
  if (!instruments.empty() && !ctx.IsRequired(pass_info.name)) {
    bool should_run = true;
    for (const auto& instrument : instruments) {
      should_run = instrument->should_run(mod, pass_info) && should_run;  // ask every one
    }
    if (!should_run) {
      for (const auto& instrument : instruments) {
        instrument->run_after_pass_status(mod, pass_info, PassStatus::kSkippedByInstrument);
      }
      return mod;
    }
  }
  const bool traced = ctx.trace() && node_->kind() != PassKind::kSequential;
  size_t entered = 0;  // instruments whose run_before_pass returned
  size_t ended = 0;    // instruments that got their run_after_pass_status
  try {
    for (; entered < instruments.size(); ++entered) {
      instruments[entered]->run_before_pass(mod, pass_info);
    }
    if (traced) ctx.trace()(mod, pass_info, true);
    ir::IRModule result = node_->Run(mod, ctx);
    while (ended < instruments.size()) {
      PassInstrument& instrument = *instruments[ended];
      instrument.run_after_pass(result, pass_info);
      ++ended;
      instrument.run_after_pass_status(result, pass_info, PassStatus::kOk);
    }
    if (traced) ctx.trace()(result, pass_info, false);
    return result;
  } catch (...) {
    NotifyFailed(instruments, ended, entered, mod, pass_info);
    throw;
  }
}

Pass CreateModulePass(ModulePassFunc fn, int opt_level, std::string name,
                      std::vector<std::string> required) {
  PassInfo info{opt_level, std::move(name), std::move(required)};
  return Pass(std::make_shared<ModulePassNode>(std::move(info), std::move(fn)));
}

Pass CreateFunctionPass(FunctionPassFunc fn, int opt_level, std::string name,
                        std::vector<std::string> required) {
  PassInfo info{opt_level, std::move(name), std::move(required)};
  return Pass(std::make_shared<FunctionPassNode>(std::move(info), std::move(fn)));
}

namespace detail {

std::string ShortTypeName(const std::type_info& type) {
  int status = 0;
  char* demangled = abi::__cxa_demangle(type.name(), nullptr, nullptr, &status);
  std::string full = status == 0 && demangled ? demangled : type.name();
  std::free(demangled);
  // Drop template arguments, then keep what follows the last "::" outside parentheses
  // ("(anonymous namespace)::CustomPipeline" -> "CustomPipeline").
  std::string plain;
  int angle = 0;
  for (char c : full) {
    if (c == '<') ++angle;
    if (angle == 0) plain += c;
    if (c == '>' && angle > 0) --angle;
  }
  size_t start = 0;
  int paren = 0;
  for (size_t i = 0; i + 1 < plain.size(); ++i) {
    if (plain[i] == '(' || plain[i] == '{') ++paren;
    if (plain[i] == ')' || plain[i] == '}') --paren;
    if (paren == 0 && plain[i] == ':' && plain[i + 1] == ':') start = i + 2;
  }
  std::string name = plain.substr(start);
  for (char c : name) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return "";  // a lambda
  }
  return name;
}

std::string PassNameOrTypeName(std::string name, const std::type_info& type) {
  if (!name.empty()) return name;
  name = ShortTypeName(type);
  if (name.empty()) {
    throw PassError("a pass made from a lambda or an unnamed type needs an explicit name");
  }
  return name;
}

}  // namespace detail

}  // namespace relaypass::transform
