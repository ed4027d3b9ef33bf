// Target: the device a module is compiled for, and the thread-local scope that makes one current
// -- the counterpart of `with tvm.target.Target("llvm"):`. Target-dependent passes and hooks
// (AlterOpLayout's per-op hooks) read Target::Current().
//
// A target string is parsed as TVM v0.13 parses one (src/target/target.cc, target_kind.cc): a
// registered kind, then `-key=value` options among that kind's (and every kind's: keys, libs,
// device, model, tag, from_device), each of its declared type: a string, a boolean (`-fast-math`
// alone is true), an integer, or a comma-separated array. An unknown kind or option, or a value
// of the wrong type, is a ValueError naming it (TVM: ValueError). str() is TVM's: the kind,
// ` -keys=` (the given keys, the -device, then the kind's defaults), then the options sorted by
// name.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace relaypass::passes {

enum class TargetAttrType { kString, kBool, kInteger, kStringArray };

struct TargetKindInfo {
  std::string name;
  int device_type;  // DLPack's code: 1 CPU, 2 CUDA, ...
  std::vector<std::string> default_keys;
  std::map<std::string, TargetAttrType> options;  // without the common ones
};

class Target {
 public:
  /// Parses TVM's target string (`llvm -mcpu=skylake-avx512 -mattr=+avx2,+fma`); throws
  /// ValueError as described above.
  explicit Target(const std::string& spec);

  /// The kind ("llvm", "c", "cuda", ...).
  const std::string& kind() const { return kind_; }
  int device_type() const;
  const std::vector<std::string>& keys() const { return keys_; }
  /// The value of option `key` as written in the string form ("mcpu" for `-mcpu=...`; a boolean
  /// is "1" or "0", an array comma-joined), or nullopt.
  std::optional<std::string> GetAttr(const std::string& key) const;
  /// The options given (not keys), by name, in their string form.
  const std::map<std::string, std::string>& attrs() const { return attrs_; }
  /// The declared type of option `key` of this target's kind.
  std::optional<TargetAttrType> AttrType(const std::string& key) const;
  /// TVM's string form.
  std::string str() const;

  /// The target of the innermost TargetScope on this thread, or nullopt outside any scope.
  static std::optional<Target> Current();
  /// The registered kinds, and one kind's options with their TVM type names.
  static std::vector<std::string> ListKinds();
  static std::map<std::string, std::string> ListKindOptions(const std::string& kind);

 private:
  std::string kind_;
  std::vector<std::string> keys_;
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
