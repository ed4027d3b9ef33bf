// PassInfo: the name, optimization level and required passes of a pass (TVM's PassInfoNode).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace relaypass::transform {

struct PassInfo {
  /// The lowest PassContext opt_level at which a Sequential runs this pass. A direct call
  /// (`pass(mod)`) ignores it.
  int opt_level = 0;
  /// The pass name; also what `required_pass` / `disabled_pass` and the registry refer to.
  std::string name = {};
  /// Names of registered passes a Sequential runs (from the registry, with default options)
  /// right before this pass, every time it runs this pass.
  std::vector<std::string> required = {};

  /// TVM's printed form, including its trailing newline:
  /// "The meta data of the pass - pass name: FoldConstant, opt_level: 2, required passes: []\n"
  /// or, with required passes, "... required passes: [\nInferType, ]\n".
  std::string ToString() const;
};

/// Writes info.ToString().
std::ostream& operator<<(std::ostream& os, const PassInfo& info);

}  // namespace relaypass::transform
