// The library's own FTVMQnnLegalize hooks (target_legalize.cc), registered at level 10 by the
// hook table when it is first used (legalize.cc).
#pragma once

#include <functional>
#include <string>

#include "relaypass/passes/legalize.h"

namespace relaypass::qnn {

// Calls `add(op_name, hook)` for each of the library's target legalizations.
void RegisterTargetLegalizations(
    const std::function<void(const std::string&, passes::LegalizeFunc)>& add);

}  // namespace relaypass::qnn
