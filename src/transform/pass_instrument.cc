#include "relaypass/transform/pass_instrument.h"

#include <typeinfo>

#include "relaypass/transform/pass.h"

namespace relaypass::transform {

const char* PassStatusName(PassStatus status) {
  switch (status) {
    case PassStatus::kOk:
      return "ok";
    case PassStatus::kFailed:
      return "failed";
    case PassStatus::kSkippedByInstrument:
      return "skipped (should_run)";
    case PassStatus::kSkippedDisabled:
      return "skipped (disabled)";
    case PassStatus::kSkippedOptLevel:
      return "skipped (opt_level)";
  }
  return "?";
}

std::string PassInstrument::name() const {
  return detail::ShortTypeName(typeid(*this));
}

}  // namespace relaypass::transform
