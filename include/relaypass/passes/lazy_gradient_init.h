// LazyGradientInit (TVM v0.13's src/relay/transforms/lazy_gradient_init.cc): tensors become
// GradCell values (TVM's gradient.rly: `type GradCell[T] { Raw(T), One(fn() -> T),
// Zero(fn() -> T) }`) so that the zeros and ones reverse-mode AD makes are not built until used:
// ones / zeros / ones_like / zeros_like become One / Zero of a function computing them, add and
// multiply of two same-typed operands call @AddGradCell / @MultiplyGradCell (which skip work on a
// Zero or One operand), every other operator reads its operands with @FromGradCell and wraps its
// result in Raw, as do constants. Each changed function keeps its type: it wraps its inputs in
// Raw, calls the rewritten function and reads the result back. Inputs and outputs are tensors
// and tuples of them (TVM's limit); tuple operands and results of operators (batch_norm's) are
// read and wrapped field by field, where TVM's pass fails to type-check. One deliberate difference: TVM builds zeros_like with the One
// constructor (multiply by it then returns the other operand); here it is Zero, which computes
// what the program says.
#pragma once

#include "relaypass/ir/module.h"
#include "relaypass/transform/pass.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {

/// TVM's IRModule::ImportFromStd("gradient.rly"): adds GradCell and @FromGradCell,
/// @AddGradCell, @MultiplyGradCell to `mod` (what it already has is kept).
void ImportGradCell(ir::IRModule& mod);

/// Pass "LazyGradientInit", opt_level 2: every function rewritten as above, then InferType (as
/// TVM's function passes). A module pass here because it adds GradCell's definitions to the
/// module it returns.
transform::Pass LazyGradientInit();
void RegisterLazyGradientInit(transform::PassRegistry& registry);

}  // namespace relaypass::passes
