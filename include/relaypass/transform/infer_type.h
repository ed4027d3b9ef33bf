// InferType as a pass (the pass form of ir::InferTypes).
#pragma once

#include "relaypass/transform/pass.h"

namespace relaypass::transform {

/// A module pass named "InferType", opt_level 0, no required passes: returns
/// ir::InferTypes(mod). Throws TypeError on an ill-typed module.
Pass InferType();

}  // namespace relaypass::transform
