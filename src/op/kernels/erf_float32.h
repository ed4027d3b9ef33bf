// erf over float32 arrays in vector registers. glibc's erff is a scalar call (GELU's erf was 4.5 %
// of BERT-base's run); this is Eigen's rational approximation on [-4, 4] (the one TOPI's fast_erf
// uses, clamped: erf(+-4) rounds to +-1 in float32) evaluated in double and rounded once, within
// 2 ulp of glibc's erff on every normal float32 (tests/eval/erf_float32_test.cc); eight at a
// time with AVX-512 where the processor has it. The same bits on every processor: no fused
// multiply-adds.
#pragma once

#include <cstdint>

namespace relaypass::op::kernels {

float ErfFloat32(float x);
// y[i] = ErfFloat32(x[i]) for i in [0, n).
void ErfFloat32(const float* x, float* y, int64_t n);

}  // namespace relaypass::op::kernels
