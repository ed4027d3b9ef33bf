// How a process-wide registry owned by a low layer gets the entries of the layers above it
// without naming them: those layers add an installer (a function that registers their entries),
// and the registry runs every installer once, when it is made on first use. An installer added
// after that runs at once on the existing registry, so the order of static initialisation does
// not matter. (The library's own operators, passes and config options are installed by
// src/builtins/builtin_registrations.cc.)
#pragma once

#include <mutex>
#include <vector>

namespace relaypass::support {

template <typename Registry>
class RegistryInstallers {
 public:
  using Installer = void (*)(Registry&);

  /// Adds `install`; runs it now on the registry if that was already made.
  void Add(Installer install) {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    installers_.push_back(install);
    if (registry_ != nullptr) install(*registry_);
  }

  /// Runs every installer on `registry`, the process-wide one, and remembers it for later ones.
  void InstallInto(Registry& registry) {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    registry_ = &registry;
    for (Installer install : installers_) install(registry);
  }

 private:
  std::recursive_mutex mutex_;
  std::vector<Installer> installers_;
  Registry* registry_ = nullptr;
};

}  // namespace relaypass::support
