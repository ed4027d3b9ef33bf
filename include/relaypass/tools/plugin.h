// Pass plugins: shared libraries that add passes (and instruments) to a running relaypass, as
// opt's -load-pass-plugin. relay-opt loads them with --load-pass-plugin=LIB.so.
//
// The ABI. A plugin is built against these headers (not linked with the library: the
// library's symbols come from the program that loads it, so there is one pass registry) and
// defines, with C linkage:
//
//   int relaypass_plugin_abi_version();          // required: return RELAYPASS_PLUGIN_ABI_VERSION
//   void relaypass_register_plugin(relaypass::transform::PassRegistry& registry);   // required
//   void relaypass_register_plugin_instruments(relaypass::tools::PluginInstruments& out);
//                                                 // optional: instruments for every pass context
//
// RELAYPASS_PLUGIN_ABI_VERSION changes whenever the classes a plugin sees change in a way that
// breaks a built plugin; a plugin built for another version is refused with both versions
// named. Registration errors (a name already taken) are relaypass::PassError naming the plugin.
// Plugins stay loaded until the process exits. The program loading a plugin must export the
// library's symbols (relay-opt is linked with the whole static library and -rdynamic).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "relaypass/transform/pass_instrument.h"
#include "relaypass/transform/registry.h"

#define RELAYPASS_PLUGIN_ABI_VERSION 1

namespace relaypass::tools {

/// What relaypass_register_plugin_instruments fills: instruments a tool adds to the pass
/// context it runs passes under.
struct PluginInstruments {
  std::vector<std::shared_ptr<transform::PassInstrument>> instruments;
};

struct LoadedPlugin {
  std::string path;
  std::vector<std::string> passes;  // the names it registered
  std::vector<std::shared_ptr<transform::PassInstrument>> instruments;
};

/// Loads the plugin at `path` (dlopen, RTLD_NOW | RTLD_GLOBAL), checks its ABI version and calls
/// its registration functions with `registry`. relaypass::Error naming the path for a library
/// that cannot be loaded (with dlerror()'s reason), lacks a required function, or was built for
/// another ABI version.
LoadedPlugin LoadPassPlugin(const std::string& path,
                            transform::PassRegistry& registry = transform::PassRegistry::Global());

}  // namespace relaypass::tools

/// The functions a plugin defines (see above).
extern "C" {
int relaypass_plugin_abi_version();
void relaypass_register_plugin(relaypass::transform::PassRegistry& registry);
void relaypass_register_plugin_instruments(relaypass::tools::PluginInstruments& out);
}
