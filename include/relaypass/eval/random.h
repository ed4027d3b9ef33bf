// Deterministic pseudo-random inputs, for running graphs before and after a pass on the same data.
// The stream is SplitMix64, so values are identical across platforms and standard libraries.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "relaypass/eval/value.h"
#include "relaypass/ir/expr.h"
#include "relaypass/ir/ndarray.h"

namespace relaypass::eval {

/// A tensor of `shape` and `dtype` drawn from `seed`: floats uniform in [-1, 1) (half precision
/// rounded from float32), signed integers in [-8, 8], unsigned in [0, 16], bool 0 or 1.
ir::NDArray RandomTensor(const ir::Shape& shape, ir::DataType dtype, uint64_t seed);

/// One value per parameter of `func`, by its type (the annotation, else the checked type):
/// tensors as RandomTensor with a seed derived from `seed` and the parameter's position, tuples
/// field by field. Float tensor parameters are named as TVM's relay.testing names a network's
/// parameters, and get values by TVM's rules for those names, so that an unbound network (the
/// built-in workloads without --bind-params) computes finite, informative results rather than
/// NaN: batch-norm statistics the value BatchNormParamValue gives (a variance of 1, not a
/// negative one), and a weight of rank >= 2 (name ending in `weight`) its random values scaled
/// to TVM's Xavier bound sqrt(3 / ((fan_in + fan_out) / 2)) (the kernel area for `depthwise`
/// ones), so that activations keep their scale through deep networks. Throws relaypass::Error for
/// a parameter whose type is unknown or has `?` dims.
std::vector<Value> RandomInputs(const ir::Function& func, uint64_t seed = 0);

/// The value TVM's relay.testing initializer (python/tvm/relay/testing/init.py, Initializer)
/// gives a parameter by the end of its name: `moving_var` and `gamma` 1, `moving_mean` and `beta`
/// 0; nullopt for any other name.
std::optional<float> BatchNormParamValue(const std::string& name);

}  // namespace relaypass::eval
