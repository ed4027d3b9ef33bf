// PrintIR: a pass that shows the module it is given (tvm.transform.PrintIR). It lives with the
// printer it calls, above the pass infrastructure; its name stays transform::PrintIR, as TVM's.
#pragma once

#include "relaypass/transform/pass.h"

namespace relaypass::transform {

/// A module pass named "PrintIR", opt_level 0: writes text::PrettyPrint(mod) to stderr and
/// returns the module unchanged.
Pass PrintIR();

}  // namespace relaypass::transform
