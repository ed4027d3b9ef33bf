// Which let-bound values of a module are pure (TVM's PurityVisitor in dead_code.cc): evaluating a
// pure value neither reads nor writes state, so it may be dropped when unused or moved to its
// single use.
#pragma once

#include <cstdint>

#include "relaypass/ir/module.h"
#include "relaypass/support/pointer_map.h"

namespace relaypass::passes::dce {

// For every let-bound variable (and parameter) of the module's functions other than primitive
// and extern ones: 1 if its value is definitely pure, else 0.
//  - constants, ops, functions are pure values; a call is pure if its callee and arguments are
//    and calling the callee is pure (ops unless stateful; global functions by analysis, with
//    recursion assumed pure; extern functions impure);
//  - higher-order values taken from tuples or parameters are assumed impure to call;
//  - calls nested more than 25 deep are assumed impure.
support::PointerMap<uint8_t> AnalyzePurity(const ir::IRModule& mod);

}  // namespace relaypass::passes::dce
