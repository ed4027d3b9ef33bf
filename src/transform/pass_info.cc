#include "relaypass/transform/pass_info.h"

#include <sstream>

namespace relaypass::transform {

std::string PassInfo::ToString() const {
  // TVM's ReprPrinter for PassInfoNode, newlines included.
  std::ostringstream os;
  os << "The meta data of the pass - pass name: " << name << ", opt_level: " << opt_level;
  if (required.empty()) {
    os << ", required passes: []\n";
  } else {
    os << ", required passes: [\n";
    for (const std::string& r : required) os << r << ", ";
    os << "]\n";
  }
  return os.str();
}

std::ostream& operator<<(std::ostream& os, const PassInfo& info) {
  return os << info.ToString();
}

}  // namespace relaypass::transform
