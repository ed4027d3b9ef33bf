// Pass: a cheap shared handle to an immutable IRModule -> IRModule transformation, and the ways
// to make one: CreateModulePass / CreateFunctionPass from a callable (TVM's C++ names), and
// module_pass / function_pass from a lambda or from a class with transform_module /
// transform_function (the C++ counterpart of the tutorial's `@function_pass(opt_level=1)` class).
#pragma once

#include <concepts>
#include <functional>
#include <memory>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

#include "relaypass/ir/module.h"
#include "relaypass/transform/pass_context.h"
#include "relaypass/transform/pass_info.h"

namespace relaypass::transform {

enum class PassKind : uint8_t { kModule, kFunction, kSequential };

/// The implementation of a pass. Subclass it only for a new kind of pass; ordinary passes are
/// made with CreateModulePass / CreateFunctionPass / module_pass / function_pass / Sequential.
class PassNode {
 public:
  explicit PassNode(PassInfo info) : info_(std::move(info)) {}
  virtual ~PassNode() = default;
  PassNode(const PassNode&) = delete;
  PassNode& operator=(const PassNode&) = delete;

  const PassInfo& info() const { return info_; }
  virtual PassKind kind() const = 0;
  /// The pass's own work on `mod` under `ctx`. Called by Pass::operator() once the instruments
  /// agreed and their run_before_pass hooks ran; must not change `mod` (modules are values).
  virtual ir::IRModule Run(const ir::IRModule& mod, const PassContext& ctx) const = 0;

 private:
  PassInfo info_;
};

class Pass {
 public:
  Pass() = default;  // undefined; calling it is an InternalError
  explicit Pass(std::shared_ptr<const PassNode> node, std::string spec = "")
      : node_(std::move(node)), spec_(std::move(spec)) {}

  bool defined() const { return node_ != nullptr; }
  const PassNode* get() const { return node_.get(); }
  const PassInfo& info() const;
  PassKind kind() const { return node_->kind(); }

  /// Runs the pass under PassContext::Current().
  ir::IRModule operator()(const ir::IRModule& mod) const;
  /// Runs the pass under `ctx`: asks every instrument's should_run (unless the pass is in
  /// ctx.required_pass()), then calls run_before_pass hooks, the pass, run_after_pass hooks, in
  /// instrument order. opt_level, required and disabled passes are not consulted here; a
  /// Sequential consults them for its members.
  ir::IRModule operator()(const ir::IRModule& mod, const PassContext& ctx) const;

  /// The registry text this pass was created from (`FuseOps(fuse_opt_level=2)`), or "" if it was
  /// not created by the registry. See PrintPipeline.
  const std::string& spec() const { return spec_; }
  /// The same pass carrying `spec` as its registry text.
  Pass WithSpec(std::string spec) const { return Pass(node_, std::move(spec)); }

 private:
  std::shared_ptr<const PassNode> node_;
  std::string spec_;
};

using ModulePassFunc = std::function<ir::IRModule(const ir::IRModule&, const PassContext&)>;
using FunctionPassFunc =
    std::function<ir::Function(const ir::Function&, const ir::IRModule&, const PassContext&)>;

/// A module pass: `fn(mod, ctx)` returns the new module.
Pass CreateModulePass(ModulePassFunc fn, int opt_level, std::string name,
                      std::vector<std::string> required = {});

/// A function pass: `fn(func, mod, ctx)` is applied to every function of the module except
/// those with a `Compiler` attribute or a non-zero `Extern` or `SkipOptimization` attribute
/// (`mod` is the input module). Afterwards InferType runs over the whole module as a nested,
/// instrumented pass under the same context.
Pass CreateFunctionPass(FunctionPassFunc fn, int opt_level, std::string name,
                        std::vector<std::string> required = {});

namespace detail {
/// The name of a class without namespaces or template arguments ("CustomPipeline" for
/// `my::CustomPipeline<int>`); "" for lambdas and other unnamed types.
std::string ShortTypeName(const std::type_info& type);
/// `name`, or the short name of `type` if `name` is empty; PassError if neither exists.
std::string PassNameOrTypeName(std::string name, const std::type_info& type);

template <typename T>
concept HasTransformModule = requires(T& t, const ir::IRModule& m, const PassContext& c) {
  { t.transform_module(m, c) } -> std::convertible_to<ir::IRModule>;
};
template <typename T>
concept HasTransformFunction = requires(T& t, const ir::Function& f, const ir::IRModule& m,
                                        const PassContext& c) {
  { t.transform_function(f, m, c) } -> std::convertible_to<ir::Function>;
};
/// What module_pass / function_pass accept: an object with the member, or a callable.
template <typename T>
concept ModulePassObject =
    HasTransformModule<T> || std::invocable<T&, const ir::IRModule&, const PassContext&>;
template <typename T>
concept FunctionPassObject = HasTransformFunction<T> ||
    std::invocable<T&, const ir::Function&, const ir::IRModule&, const PassContext&>;
}  // namespace detail

/// A module pass from an object with `transform_module(mod, ctx)` or from a callable
/// `(mod, ctx) -> IRModule`. The name defaults to the object's class name; a lambda needs one.
/// The object is moved into the pass and shared by its copies.
template <detail::ModulePassObject T>
Pass module_pass(T pass_object, int opt_level, std::string name = "",
                 std::vector<std::string> required = {}) {
  name = detail::PassNameOrTypeName(std::move(name), typeid(T));
  auto obj = std::make_shared<T>(std::move(pass_object));
  ModulePassFunc fn;
  if constexpr (detail::HasTransformModule<T>) {
    fn = [obj](const ir::IRModule& m, const PassContext& c) { return obj->transform_module(m, c); };
  } else {
    fn = [obj](const ir::IRModule& m, const PassContext& c) { return (*obj)(m, c); };
  }
  return CreateModulePass(std::move(fn), opt_level, std::move(name), std::move(required));
}

/// A function pass from an object with `transform_function(func, mod, ctx)` or from a callable
/// `(func, mod, ctx) -> Function`; see CreateFunctionPass. The name defaults to the object's
/// class name (`function_pass(CustomPipeline(c), 1).info().name == "CustomPipeline"`).
template <detail::FunctionPassObject T>
Pass function_pass(T pass_object, int opt_level, std::string name = "",
                   std::vector<std::string> required = {}) {
  name = detail::PassNameOrTypeName(std::move(name), typeid(T));
  auto obj = std::make_shared<T>(std::move(pass_object));
  FunctionPassFunc fn;
  if constexpr (detail::HasTransformFunction<T>) {
    fn = [obj](const ir::Function& f, const ir::IRModule& m, const PassContext& c) {
      return obj->transform_function(f, m, c);
    };
  } else {
    fn = [obj](const ir::Function& f, const ir::IRModule& m, const PassContext& c) {
      return (*obj)(f, m, c);
    };
  }
  return CreateFunctionPass(std::move(fn), opt_level, std::move(name), std::move(required));
}

}  // namespace relaypass::transform
