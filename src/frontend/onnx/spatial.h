// auto_pad for Conv and the pools: the explicit pads ONNX's SAME_UPPER / SAME_LOWER / VALID
// imply for static input shapes.
#pragma once

#include "context.h"

namespace relaypass::frontend::onnx_import {

// The pads (begin values then end values, ONNX's order) for the node's auto_pad, or its `pads`
// attribute when auto_pad is NOTSET (or absent); `spatial` are the input's spatial dims.
Ints ResolvePads(const NodeContext& ctx, const Ints& spatial, const Ints& kernel,
                 const Ints& strides, const Ints& dilations);
// True when auto_pad is SAME_UPPER or SAME_LOWER.
bool IsSamePad(const NodeContext& ctx);

// AveragePool / GlobalAveragePool of `data`, shaped as the node's input 0, with the node's
// attributes (pooling.cc; QLinearAveragePool pools its dequantized input with them).
ir::Expr AveragePoolOf(const NodeContext& ctx, const ir::Expr& data);
ir::Expr GlobalAveragePoolOf(const NodeContext& ctx, const ir::Expr& data);

}  // namespace relaypass::frontend::onnx_import
