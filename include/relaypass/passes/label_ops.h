// LabelOps (TVM v0.13's src/relay/transforms/label_ops.cc): every function gets a "hash"
// attribute, its structural hash as 16 hex digits, and the string attributes whose name contains
// "layout" of the operator calls in its own body ("data_layout", "kernel_layout", ...; the first
// call's value where two differ). relay.build runs it last in relay.optimize; the graph JSON
// carries these string attributes on each tvm_op node.
//
// Where relaypass differs: the hash is relaypass's StructuralHash, not TVM's, so the digits differ
// from TVM's; and a function takes the layout attributes of its own body only (TVM's mutator also
// hands an enclosing function the attributes of the last nested function it visited).
#pragma once

#include "relaypass/transform/pass.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {

/// Function pass "LabelOps", opt_level 1.
transform::Pass LabelOps();
void RegisterLabelOps(transform::PassRegistry& registry);

}  // namespace relaypass::passes
