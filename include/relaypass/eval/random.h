// Deterministic pseudo-random inputs, for running graphs before and after a pass on the same data.
// The stream is SplitMix64, so values are identical across platforms and standard libraries.
#pragma once

#include <cstdint>
#include <vector>

#include "relaypass/eval/value.h"
#include "relaypass/ir/expr.h"
#include "relaypass/ir/ndarray.h"

namespace relaypass::eval {

// A tensor of `shape` and `dtype` drawn from `seed`: floats uniform in [-1, 1) (half precision
// rounded from float32), signed integers in [-8, 8], unsigned in [0, 16], bool 0 or 1.
ir::NDArray RandomTensor(const ir::Shape& shape, ir::DataType dtype, uint64_t seed);

// One value per parameter of `func`, by its type (the annotation, else the checked type):
// tensors as RandomTensor with a seed derived from `seed` and the parameter's position, tuples
// field by field. Throws relaypass::Error for a parameter whose type is unknown or has `?` dims.
std::vector<Value> RandomInputs(const ir::Function& func, uint64_t seed = 0);

}  // namespace relaypass::eval
