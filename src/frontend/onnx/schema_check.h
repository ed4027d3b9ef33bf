// A node's input types against its ONNX operator schema (the type constraints of ONNX's own
// op definitions, e.g. Conv's T in {float16, float, double}): a wrongly typed model is an error
// naming the input, not a Relay graph on values ONNX forbids. Only inputs are checked: exporters
// have long written outputs (an int64 Constant at opset 6) that ONNX's strict inference rejects
// and every runtime accepts.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "relaypass/ir/dtype.h"

namespace relaypass::frontend::onnx_import {

// "" when every known input type of `node` is one its schema at `opset` accepts (or there is no
// schema: the converter table decides then), otherwise what is wrong. `input_types[i]` is
// nullopt for an absent or non-tensor input.
std::string CheckInputTypes(const onnx::NodeProto& node, int64_t opset,
                            const std::vector<std::optional<ir::DataType>>& input_types);

}  // namespace relaypass::frontend::onnx_import
