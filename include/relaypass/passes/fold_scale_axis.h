// FoldScaleAxis (TVM v0.13, relay_semantics.md 3.5): folds a per-channel `multiply` by a
// constant scale into the weights of the nn.conv2d / nn.dense next to it.
//
// Backward folding pushes a scale that multiplies a conv2d/dense result (conv -> BN) down into
// the weight, through relu, add/subtract and bias_add; forward folding pulls a scale that
// multiplies a conv2d/dense input (BN -> relu -> conv) up into the weight, through relu and
// add/subtract. FoldConstant then folds `weight * scale` when the weights are constants.
#pragma once

#include "relaypass/ir/expr.h"
#include "relaypass/transform/pass.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {

/// Function pass "BackwardFoldScaleAxis", opt_level 3, requires InferType.
transform::Pass BackwardFoldScaleAxis();
/// Function pass "ForwardFoldScaleAxis", opt_level 3, requires InferType.
transform::Pass ForwardFoldScaleAxis();
/// Sequential "FoldScaleAxis" (opt_level 0) of BackwardFoldScaleAxis, ForwardFoldScaleAxis and
/// FoldConstant: under the default opt_level 2 only its FoldConstant step runs.
transform::Pass FoldScaleAxis();

/// The folding of one typed function (checked types on every node, as InferType leaves them),
/// without type inference afterwards. The input is not changed.
ir::Function BackwardFoldScaleAxisFunction(const ir::Function& func);
ir::Function ForwardFoldScaleAxisFunction(const ir::Function& func);

/// Registers FoldScaleAxis, BackwardFoldScaleAxis and ForwardFoldScaleAxis.
void RegisterFoldScaleAxis(transform::PassRegistry& registry);

}  // namespace relaypass::passes
