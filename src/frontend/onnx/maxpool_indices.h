// MaxPool's optional second output, Indices, which TVM's converter does not produce.
#pragma once

#include "context.h"
#include "relaypass/relay.h"

namespace relaypass::frontend::onnx_import {

// For each output of a 2-D max pool over `data` (NCHW, static `shape`), the index of the first
// maximum of its window (the window scanned row by row, as ONNX's reference and ONNX Runtime
// scan it) into the whole input tensor, flattened row-major; with storage_order=1 the spatial
// part is counted column-major (w * H + h). int64, the shape of the pooled output. Built from
// existing ops, so every pass and the evaluator handle it.
ir::Expr MaxPoolIndices(const NodeContext& ctx, const ir::Expr& data, const Ints& shape,
                        const relay::nn::Pool2DArgs& args, bool column_major);

}  // namespace relaypass::frontend::onnx_import
