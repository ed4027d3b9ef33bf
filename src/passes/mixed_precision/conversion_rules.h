// The registry of operators' mixed precision rules (TVM's FTVMMixedPrecisionConversionType
// attribute), with TVM's default lists registered on first use.
#pragma once

#include <optional>
#include <string>

#include "relaypass/passes/to_mixed_precision.h"

namespace relaypass::passes::mixed_precision {

// The rule registered for `op_name`, or nullopt (the pass then treats the op as FOLLOW).
std::optional<MixedPrecisionRule> FindRule(const std::string& op_name);

}  // namespace relaypass::passes::mixed_precision
