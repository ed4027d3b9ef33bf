// Counters of the BLAS calls the operators' kernels make (GEMM for nn.dense and nn.conv2d), for
// measuring the share of evaluation time spent in BLAS. Timing is off by default (then no clock is
// read); the counters are process-wide.
#pragma once

#include <cstdint>

namespace relaypass::op {

struct BlasStats {
  uint64_t calls = 0;
  double seconds = 0;      // wall time inside BLAS calls, summed over the calls, which may run
                           // on several of the evaluator's threads (only while timing is enabled)
  double cpu_seconds = 0;  // CPU time of the calling threads inside BLAS (ditto): the BLAS work,
                           // OpenBLAS running on the calling thread (src/op/kernels/gemm.h)
  double flops = 0;        // 2*M*N*K summed over the calls
};

void SetBlasTiming(bool enabled);
BlasStats GetBlasStats();
/// CPU time consumed so far by the calling thread, in seconds (for computing shares).
double ThreadCpuSeconds();
void ResetBlasStats();

}  // namespace relaypass::op
