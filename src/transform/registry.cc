#include "relaypass/transform/registry.h"

#include <algorithm>
#include <cctype>

#include "names.h"
#include "relaypass/support/error.h"
#include "relaypass/support/registry_installers.h"
#include "relaypass/transform/sequential.h"

namespace relaypass::transform {

namespace {

using NamedValues = std::vector<std::pair<std::string, OptionValue>>;

bool IsIdentifier(const std::string& name) {
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_')) {
    return false;
  }
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

std::vector<std::string> OptionNames(const PassRegistration& reg) {
  std::vector<std::string> names;
  for (const PassOption& option : reg.options) names.push_back(option.name);
  return names;
}

const PassOption* FindOption(const PassRegistration& reg, const std::string& name) {
  for (const PassOption& option : reg.options) {
    if (option.name == name) return &option;
  }
  return nullptr;
}

// The "empty" value of a type: False, 0, 0.0, "", [], {}.
OptionValue EmptyValue(OptionType type) {
  switch (type) {
    case OptionType::kBool:
      return OptionValue::Bool(false);
    case OptionType::kInt:
      return OptionValue::Int(0);
    case OptionType::kFloat:
      return OptionValue::Double(0);
    case OptionType::kString:
      return OptionValue::Str("");
    case OptionType::kList:
      return OptionValue::Array({});
    case OptionType::kDict:
      return OptionValue::Map({});
  }
  return OptionValue();
}

}  // namespace

const OptionValue& PassOptions::Get(const std::string& name) const {
  for (const auto& [key, value] : values_) {
    if (key == name) return value;
  }
  throw InternalError("the pass has no option \"" + name + "\"");
}

namespace {
support::RegistryInstallers<PassRegistry>& PassInstallers() {
  static auto* installers = new support::RegistryInstallers<PassRegistry>();  // never destroyed
  return *installers;
}
}  // namespace

PassRegistry& PassRegistry::Global() {
  static PassRegistry* registry = [] {
    auto* r = new PassRegistry();  // never destroyed: usable from any static destructor
    PassInstallers().InstallInto(*r);
    return r;
  }();
  return *registry;
}

void PassRegistry::AddInstaller(void (*install)(PassRegistry&)) {
  PassInstallers().Add(install);
}

void PassRegistry::Register(PassRegistration reg) {
  if (!IsIdentifier(reg.name)) {
    throw PassError("cannot register pass \"" + reg.name + "\": a pass name is an identifier");
  }
  if (!reg.create) throw PassError("cannot register pass \"" + reg.name + "\" without a factory");
  for (size_t i = 0; i < reg.options.size(); ++i) {
    PassOption& option = reg.options[i];
    if (!IsIdentifier(option.name)) {
      throw PassError("pass \"" + reg.name + "\": bad option name \"" + option.name + "\"");
    }
    for (size_t j = 0; j < i; ++j) {
      if (reg.options[j].name == option.name) {
        throw PassError("pass \"" + reg.name + "\" declares option \"" + option.name + "\" twice");
      }
    }
    if (option.default_value) {
      if (!OptionValueFits(*option.default_value, option.type)) {
        throw PassError("pass \"" + reg.name + "\": the default of option \"" + option.name +
                        "\" is not of type " + OptionTypeName(option.type));
      }
      option.default_value = ConvertOptionValue(*option.default_value, option.type);
    }
  }
  std::lock_guard<std::mutex> lock(mutex_);
  std::string name = reg.name;
  if (!passes_.emplace(name, std::move(reg)).second) {
    throw PassError("pass \"" + name + "\" is registered twice");
  }
}

const PassRegistration* PassRegistry::Find(const std::string& name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = passes_.find(name);
  return it == passes_.end() ? nullptr : &it->second;
}

std::vector<std::string> PassRegistry::Names() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::string> names;
  for (const auto& entry : passes_) names.push_back(entry.first);
  return names;
}

Pass PassRegistry::Create(const std::string& name, const NamedValues& given) const {
  const PassRegistration* reg = Find(name);
  if (!reg) {
    std::vector<std::string> names = Names();
    throw PassError("unknown pass \"" + name + "\"" + detail::DidYouMean(name, names) +
                    "; registered passes: " + detail::JoinNames(names));
  }
  const std::vector<std::string> option_names = OptionNames(*reg);
  for (size_t i = 0; i < given.size(); ++i) {
    const auto& [key, value] = given[i];
    const PassOption* option = FindOption(*reg, key);
    if (!option) {
      throw PassError("pass \"" + name + "\" has no option \"" + key + "\"" +
                      detail::DidYouMean(key, option_names) +
                      (option_names.empty() ? "; it takes no options"
                                            : "; its options: " + detail::JoinNames(option_names)));
    }
    for (size_t j = 0; j < i; ++j) {
      if (given[j].first == key) {
        throw PassError("option \"" + key + "\" of pass \"" + name + "\" is given twice");
      }
    }
    if (!OptionValueFits(value, option->type)) {
      throw PassError("option \"" + key + "\" of pass \"" + name + "\" expects " +
                      OptionTypeName(option->type) + ", got " + ir::AttrKindName(value.kind()) +
                      " " + OptionLiteral(value));
    }
  }
  NamedValues resolved;
  for (const PassOption& option : reg->options) {
    auto it = std::find_if(given.begin(), given.end(),
                           [&](const auto& entry) { return entry.first == option.name; });
    if (it != given.end()) {
      resolved.emplace_back(option.name, ConvertOptionValue(it->second, option.type));
    } else if (option.default_value) {
      resolved.emplace_back(option.name, *option.default_value);
    } else {
      throw PassError("pass \"" + name + "\" needs option \"" + option.name + "\" (" +
                      OptionTypeName(option.type) + ")");
    }
  }
  Pass pass = reg->create(PassOptions(std::move(resolved)));
  if (!pass.defined() || pass.info().name != name) {
    throw InternalError("the factory of pass \"" + name + "\" made a pass with another name");
  }
  return pass.WithSpec(WritePassText({name, given, 0}));
}

std::vector<std::string> LintPassRegistry(const PassRegistry& registry) {
  std::vector<std::string> problems;
  std::map<std::string, std::string> lowered;
  for (const std::string& name : registry.Names()) {
    if (!IsIdentifier(name)) problems.push_back("\"" + name + "\" is not a trimmed identifier");
    std::string lower = name;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](char c) { return static_cast<char>(std::tolower(c)); });
    auto [it, inserted] = lowered.emplace(lower, name);
    if (!inserted) {
      problems.push_back("\"" + it->second + "\" and \"" + name + "\" differ only in case");
    }
    const PassRegistration* reg = registry.Find(name);
    // A pass whose options all have defaults must be creatable with them; otherwise try empty
    // values of the option types, to learn its required passes if the factory accepts them.
    NamedValues placeholders;
    bool all_defaults = true;
    for (const PassOption& option : reg->options) {
      if (option.default_value) continue;
      all_defaults = false;
      placeholders.emplace_back(option.name, EmptyValue(option.type));
    }
    Pass pass;
    try {
      pass = registry.Create(name, placeholders);
    } catch (const std::exception& e) {
      if (all_defaults) problems.push_back(name + ": cannot be created with defaults: " + e.what());
      continue;
    }
    for (const std::string& required : pass.info().required) {
      try {
        registry.Create(required);
      } catch (const std::exception& e) {
        problems.push_back(name + " requires \"" + required +
                           "\", which cannot be created with default options: " + e.what());
      }
    }
  }
  return problems;
}

}  // namespace relaypass::transform
