// nn.dense with a constant float32 weight laid out once for the evaluator's own AVX-512 GEMM
// (as ONNX Runtime prepacks MatMul's constant B): the shape of every dense layer of an imported
// transformer, where FuseOps leaves nn.dense alone in its primitive function with the weight
// passed as a constant. The evaluator (src/eval/fused_dense.cc) prepacks the weight at the first
// call and reuses it in every later one. The result is the same at any thread count.
#pragma once

#include <memory>

#include "relaypass/ir/ndarray.h"

namespace relaypass::op {

struct PrepackedDenseWeight;  // opaque: src/op/kernels/dense_prepacked.cc

/// `weight` [units, k] laid out for the kernel; null where there is no such kernel (a processor
/// without AVX-512, or RELAYPASS_PACKED_SGEMM=0), the weight is not a float32 matrix, or it is
/// empty. Holds a copy of the weight's values, about its size.
std::shared_ptr<const PrepackedDenseWeight> PrepackDenseWeight(const ir::NDArray& weight);

/// nn.dense(data, weight) with out_dtype float32, for `weight` as PrepackDenseWeight laid it out:
/// out[.., n] = sum_k data[.., k] * weight[n, k]. Fails (relaypass::Error) on data that is not
/// float32 or whose last axis is not the weight's k.
ir::NDArray DenseWithPrepackedWeight(const ir::NDArray& data, const PrepackedDenseWeight& weight);

}  // namespace relaypass::op
