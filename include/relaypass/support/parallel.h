// Data parallelism for the evaluator's kernels: ParallelFor splits a range of independent
// iterations over a small process-wide pool of worker threads and the calling thread.
//
// The pool's size is the evaluator's thread count: SetNumThreads(n), else the environment's
// RELAYPASS_NUM_THREADS, else one per core (TVM's runtime and ONNX Runtime default to every
// core too; a caller running the evaluator inside its own pool sets 1). A call made while the pool
// is busy with another caller's range (kernels evaluated from several threads at once) runs
// serially in its own thread: never a deadlock, never nested parallelism. GEMMs use these threads
// too: the evaluator keeps OpenBLAS at one thread and splits products itself
// (src/op/kernels/gemm.h). Between jobs the workers spin for up to 200 us before they sleep
// (src/support/parallel.cc says why).
#pragma once

#include <cstdint>
#include <functional>

namespace relaypass::support {

/// Sets the number of threads ParallelFor uses (1 = serial); n < 1 is taken as 1.
void SetNumThreads(int n);
int NumThreads();

/// Calls body(begin, end) on disjoint chunks covering [0, n), each at least `grain` iterations
/// (the chunks' sizes differ by one at most), possibly on several threads at once; returns when
/// all are done. An exception from body is rethrown in the caller (the first one; the other
/// chunks still finish).
void ParallelFor(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& body);

}  // namespace relaypass::support
