#include "relaypass/tools/plugin.h"

#include <dlfcn.h>

#include <algorithm>
#include <set>

#include "relaypass/support/error.h"

namespace relaypass::tools {

namespace {

template <typename F>
F Symbol(void* handle, const char* name) {
  dlerror();
  void* symbol = dlsym(handle, name);
  return dlerror() == nullptr ? reinterpret_cast<F>(symbol) : nullptr;
}

}  // namespace

LoadedPlugin LoadPassPlugin(const std::string& path, transform::PassRegistry& registry) {
  const std::string what = "pass plugin '" + path + "'";
  // dlopen searches the library path for a bare name, as opt does; "./lib.so" loads that file.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!handle) {
    const char* reason = dlerror();
    throw Error("cannot load " + what + ": " + (reason ? reason : "unknown error"));
  }
  using VersionFn = int (*)();
  using RegisterFn = void (*)(transform::PassRegistry&);
  using InstrumentsFn = void (*)(PluginInstruments&);
  const auto version = Symbol<VersionFn>(handle, "relaypass_plugin_abi_version");
  const auto register_passes = Symbol<RegisterFn>(handle, "relaypass_register_plugin");
  if (!version || !register_passes) {
    throw Error(what + " is not a relaypass plugin: it does not define " +
                (version ? "relaypass_register_plugin" : "relaypass_plugin_abi_version") +
                " (extern \"C\", see relaypass/tools/plugin.h)");
  }
  if (version() != RELAYPASS_PLUGIN_ABI_VERSION) {
    throw Error(what + " was built for plugin ABI version " + std::to_string(version()) +
                "; this relaypass has version " + std::to_string(RELAYPASS_PLUGIN_ABI_VERSION));
  }
  LoadedPlugin loaded;
  loaded.path = path;
  const std::vector<std::string> before = registry.Names();
  try {
    register_passes(registry);
    if (const auto instruments =
            Symbol<InstrumentsFn>(handle, "relaypass_register_plugin_instruments")) {
      PluginInstruments out;
      instruments(out);
      loaded.instruments = std::move(out.instruments);
    }
  } catch (const Error& e) {
    throw PassError(what + ": " + e.message());
  }
  const std::set<std::string> old(before.begin(), before.end());
  for (const std::string& name : registry.Names()) {
    if (!old.count(name)) loaded.passes.push_back(name);
  }
  return loaded;
}

}  // namespace relaypass::tools
