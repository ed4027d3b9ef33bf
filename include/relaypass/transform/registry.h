// The pass registry: every pass registered once by name with its typed options, so a pass can
// be made from text (`FuseOps(fuse_opt_level=2)`), a pipeline can be written as text
// (`FoldConstant,EliminateCommonSubexpr,FuseOps(fuse_opt_level=2)`), and a Sequential can create
// the passes a pass requires.
//
// Registration is explicit: a pass file defines `void RegisterXxx(transform::PassRegistry&)` and
// adds one line to passes::RegisterAllPasses in src/passes/registered_passes.cc. The transform
// layer names no pass: the layers above add installers to the registry (AddInstaller), and the
// library installs its list from src/builtins.
#pragma once

#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "relaypass/transform/option_value.h"
#include "relaypass/transform/pass.h"
#include "relaypass/transform/pipeline_text.h"  // CreatePass, ParsePipeline, PrintPipeline

namespace relaypass::transform {

struct PassOption {
  std::string name;
  OptionType type;
  std::optional<OptionValue> default_value = {};  // nullopt: the option must be given
  std::string doc = {};                           // one line
};

/// The options a pass is created with: every registered option, given or defaulted.
class PassOptions {
 public:
  PassOptions() = default;
  explicit PassOptions(std::vector<std::pair<std::string, OptionValue>> values)
      : values_(std::move(values)) {}
  /// The value of option `name`; InternalError if the pass has no such option.
  const OptionValue& Get(const std::string& name) const;
  int64_t GetInt(const std::string& name) const { return Get(name).as_int(); }
  bool GetBool(const std::string& name) const { return Get(name).as_bool(); }
  double GetFloat(const std::string& name) const { return Get(name).as_double(); }
  const std::string& GetString(const std::string& name) const { return Get(name).as_string(); }
  const std::vector<std::pair<std::string, OptionValue>>& values() const { return values_; }

 private:
  std::vector<std::pair<std::string, OptionValue>> values_;
};

struct PassRegistration {
  std::string name;                 // the name the pass's info() carries
  std::vector<PassOption> options;  // in the order of the factory's parameters
  /// Makes the pass; may throw PassError for option values it cannot use.
  std::function<Pass(const PassOptions&)> create;
  std::string doc = {};  // one line, for --list-passes
};

class PassRegistry {
 public:
  /// The process-wide registry, made on first use and filled by the installers.
  static PassRegistry& Global();
  /// Adds a function that registers passes into Global() (support/registry_installers.h).
  static void AddInstaller(void (*install)(PassRegistry&));

  /// Adds a pass. PassError if the name is empty, untrimmed, not an identifier or taken, or an
  /// option is duplicated or has a default that does not fit its type.
  void Register(PassRegistration registration);
  /// The registration named `name`, or null.
  const PassRegistration* Find(const std::string& name) const;
  /// All registered names, sorted.
  std::vector<std::string> Names() const;

  /// Creates pass `name` with the given options (others take their defaults). PassError naming
  /// the pass (with a suggestion and the registered names) if it is unknown, and naming the
  /// option and the valid ones for an unknown, repeated, missing or ill-typed option.
  Pass Create(const std::string& name,
              const std::vector<std::pair<std::string, OptionValue>>& options = {}) const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, PassRegistration> passes_;
};

/// Checks the registry: names unique (also ignoring case), trimmed identifiers; each pass whose
/// options all have defaults can be created with them and carries its registered name; every
/// `required` name is registered and creatable with default options. Returns one message per
/// problem (empty when all is well).
std::vector<std::string> LintPassRegistry(const PassRegistry& registry);

}  // namespace relaypass::transform
