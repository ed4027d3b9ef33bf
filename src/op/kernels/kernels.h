// The CPU kernels of the built-in operators (op::Kernel), one declaration per op; each family file
// sets them in the op's registration. Every kernel computes its output shape from its inputs and
// attrs (the result type is only a hint for half-precision results), takes float32 first, the
// integer and bool dtypes where the op is defined for them, and float16/bfloat16 by widening.
#pragma once

#include <vector>

#include "relaypass/ir/attrs.h"
#include "relaypass/ir/ndarray.h"
#include "relaypass/ir/type.h"
#include "relaypass/op/layout.h"

namespace relaypass::op::kernels {

using KernelFn = std::vector<ir::NDArray>(const std::vector<ir::NDArray>& inputs,
                                          const ir::Attrs& attrs, const ir::Type& out_type);

// elementwise.cc: numpy-style broadcasting binary ops, comparisons (bool result), unary math.
KernelFn Add, Subtract, Multiply, Divide, Maximum, Minimum, Power;
KernelFn Less, Greater, Equal, NotEqual, LessEqual, GreaterEqual;
KernelFn Negative, Sqrt, Rsqrt, Exp, Log, Tanh, Sigmoid, Relu, Clip, Abs, Floor, Ceil, Round, Trunc,
    Sin, Cos, Erf, LeakyRelu;
KernelFn BiasAdd;

// conv2d.cc: any data/kernel/out layout convertible to NCHW/OIHW; groups, depthwise; im2col and
// BLAS sgemm/dgemm for float types.
KernelFn Conv2D;

// pool.cc: any layout with unsplit H and W (NCHW, NHWC, NCHW16c, ...).
KernelFn MaxPool2D, AvgPool2D, GlobalAvgPool2D, GlobalMaxPool2D;

// dense.cc: data [.., K] x weight [N, K]^T via BLAS.
KernelFn Dense;

// norm.cc: inference batch_norm (as SimplifyInference computes it), softmax, dropout (identity).
KernelFn BatchNorm, Softmax, LogSoftmax, Dropout, Identity;

// transform.cc: data movement.
KernelFn BatchFlatten, Pad, ExpandDims, Squeeze, Reshape, Transpose, Concatenate, Split, Repeat,
    Cast, LayoutTransform;

// reduce.cc
KernelFn Sum, Mean, Prod, Max, Min;

// layout.cc: `x` in layout `src` rearranged into layout `dst` (same primal axes); the result's
// shape is BijectiveLayout's, as in the type relation.
ir::NDArray TransformLayout(const ir::NDArray& x, const Layout& src, const Layout& dst);
// Axes permuted: output axis i is input axis perm[i].
ir::NDArray Permute(const ir::NDArray& x, const std::vector<int>& perm);

}  // namespace relaypass::op::kernels
