// Target: the device a module is compiled for, and the thread-local scope that makes one current
// -- the counterpart of `with tvm.target.Target("llvm"):`. Target-dependent passes and hooks
// (AlterOpLayout's per-op hooks) read Target::Current().
#pragma once

#include <map>
#include <optional>
#include <string>

namespace relaypass::passes {

class Target {
 public:
  /// Parses TVM's target string: a kind, then `-key=value` options (`llvm -mcpu=skylake-avx512`);
  /// a bare `-flag` is stored with value "true". Throws PassError for an empty kind or a malformed
  /// option.
  explicit Target(const std::string& spec);

  /// The kind ("llvm", "c", "cuda", ...).
  const std::string& kind() const { return kind_; }
  /// The value of option `key` ("mcpu" for `-mcpu=...`), or nullopt.
  std::optional<std::string> GetAttr(const std::string& key) const;
  /// The target string, normalised: the kind, then the options in key order.
  std::string str() const;

  /// The target of the innermost TargetScope on this thread, or nullopt outside any scope.
  static std::optional<Target> Current();

 private:
  std::string kind_;
  std::map<std::string, std::string> attrs_;
};

/// Makes `target` current on this thread for the lifetime of the scope (scopes nest).
class TargetScope {
 public:
  explicit TargetScope(Target target);
  ~TargetScope();
  TargetScope(const TargetScope&) = delete;
  TargetScope& operator=(const TargetScope&) = delete;
};

}  // namespace relaypass::passes
