// The registry of PassContext config options: each option has a name, a type and a default
// (TVM's TVM_REGISTER_PASS_CONFIG_OPTION). A context accepts only registered keys.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "relaypass/transform/option_value.h"

namespace relaypass::transform {

struct PassConfigOption {
  std::string name;  // e.g. "relay.FuseOps.max_depth"
  OptionType type;
  OptionValue default_value;
  std::string doc = {};  // one line
};

class PassConfigRegistry {
 public:
  /// The process-wide registry, made on first use and filled by the installers (the library's
  /// options: passes::RegisterAllConfigOptions, installed by src/builtins).
  static PassConfigRegistry& Global();
  /// Adds a function that registers options into Global() (support/registry_installers.h).
  static void AddInstaller(void (*install)(PassConfigRegistry&));

  /// Adds an option; PassError if the name is taken or the default does not fit the type.
  void Register(PassConfigOption option);
  /// The option named `name`, or null.
  const PassConfigOption* Find(const std::string& name) const;
  /// All option names, sorted.
  std::vector<std::string> Names() const;
  /// `value` converted to the type of option `name`; PassError naming the valid options for an
  /// unknown name, or the expected type for a value that does not fit.
  OptionValue Validate(const std::string& name, const OptionValue& value) const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, PassConfigOption> options_;
};

}  // namespace relaypass::transform
