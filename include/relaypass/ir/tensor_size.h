// Checked element and byte counts of tensor shapes. Shapes read from text may hold any int64
// dimensions, so every count of elements or bytes (allocation, FoldConstant's size limit, random
// inputs) goes through these instead of multiplying dimensions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "relaypass/ir/dtype.h"

namespace relaypass::ir {

/// The element count of `shape` (dimensions >= 0), or nullopt if it overflows int64.
std::optional<int64_t> ElementCount(const std::vector<int64_t>& shape);
/// The byte count of a `dtype` tensor of `shape`, or nullopt if it overflows int64.
std::optional<int64_t> ByteCount(const std::vector<int64_t>& shape, DataType dtype);
/// "tensor of shape (2, 3) float32", for messages.
std::string TensorText(const std::vector<int64_t>& shape, DataType dtype);

}  // namespace relaypass::ir
