#include "relaypass/transform/pass_config.h"

#include "names.h"
#include "relaypass/support/error.h"
#include "relaypass/support/registry_installers.h"

namespace relaypass::transform {

namespace {
support::RegistryInstallers<PassConfigRegistry>& ConfigInstallers() {
  static auto* installers =
      new support::RegistryInstallers<PassConfigRegistry>();  // never destroyed
  return *installers;
}
}  // namespace

PassConfigRegistry& PassConfigRegistry::Global() {
  static PassConfigRegistry* registry = [] {
    auto* r = new PassConfigRegistry();  // never destroyed: usable from any static destructor
    ConfigInstallers().InstallInto(*r);
    return r;
  }();
  return *registry;
}

void PassConfigRegistry::AddInstaller(void (*install)(PassConfigRegistry&)) {
  ConfigInstallers().Add(install);
}

void PassConfigRegistry::Register(PassConfigOption option) {
  if (!OptionValueFits(option.default_value, option.type)) {
    throw PassError("config option \"" + option.name + "\" has a default of type " +
                    ir::AttrKindName(option.default_value.kind()) + ", not " +
                    OptionTypeName(option.type));
  }
  option.default_value = ConvertOptionValue(option.default_value, option.type);
  std::lock_guard<std::mutex> lock(mutex_);
  std::string name = option.name;
  if (!options_.emplace(name, std::move(option)).second) {
    throw PassError("config option \"" + name + "\" is registered twice");
  }
}

const PassConfigOption* PassConfigRegistry::Find(const std::string& name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = options_.find(name);
  return it == options_.end() ? nullptr : &it->second;
}

std::vector<std::string> PassConfigRegistry::Names() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::string> names;
  for (const auto& entry : options_) names.push_back(entry.first);
  return names;
}

OptionValue PassConfigRegistry::Validate(const std::string& name, const OptionValue& value) const {
  const PassConfigOption* option = Find(name);
  if (!option) {
    std::vector<std::string> names = Names();
    throw PassError("unknown PassContext config option \"" + name + "\"" +
                    detail::DidYouMean(name, names) +
                    "; valid options: " + detail::JoinNames(names));
  }
  if (!OptionValueFits(value, option->type)) {
    throw PassError("PassContext config option \"" + name + "\" expects " +
                    OptionTypeName(option->type) + ", got " + ir::AttrKindName(value.kind()) + " " +
                    OptionLiteral(value));
  }
  return ConvertOptionValue(value, option->type);
}

}  // namespace relaypass::transform
