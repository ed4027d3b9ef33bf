// get_source of a build's library module (TVM's lib.get_source("asm")). relaypass generates no
// code for a module: its operators run on the evaluator's precompiled kernels. The one part that
// depends on the target is the int8 GEMM (op/int8_kernels.h), whose variant relay.build picks
// from -mcpu/-mattr; the assembly of the kernel functions a build's operators call is what there
// is to show.
#pragma once

#include <string>

#include "relaypass/backend/build.h"

namespace relaypass::backend {

/// get_source("asm"): a comment naming the build's int8 products (operator, operand dtypes,
/// kernel) and the instruction set, then the assembly of each kernel function they call, once
/// each, as g++ compiled it for this library. A build without int8 products gets a comment
/// saying that its operators run on the evaluator and no code is generated for it.
std::string KernelAssemblySource(const BuiltModule& built);

}  // namespace relaypass::backend
