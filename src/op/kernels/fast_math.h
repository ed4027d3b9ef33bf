// The kernels of the fast-math operators (src/op/fast_math.cc): TVM's TOPI approximations
// (include/tvm/topi/elemwise.h: fast_exp, fast_tanh, fast_erf; topi.nn.fast_softmax), computed in
// float32 with TVM's constants. Other float dtypes fall back to the exact function, as TOPI does.
#pragma once

#include "kernels.h"

namespace relaypass::op::kernels {

KernelFn FastExp, FastTanh, FastErf, FastSoftmax;

// The scalar approximations (exposed for tests).
float FastExpFloat32(float x);
float FastTanhFloat32(float x);
float FastErfFloat32(float x);

}  // namespace relaypass::op::kernels
