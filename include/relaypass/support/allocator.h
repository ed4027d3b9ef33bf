// Allocator settings for programs that build and drop large graphs.
#pragma once

namespace relaypass::support {

/// glibc returns freed memory to the OS after large frees and hands out big blocks through mmap;
/// a pass over a million-node graph then pays a page fault (~17us on this kind of machine) for
/// most of what it allocates. This keeps freed memory in the process instead, and turns off the
/// fastbins (see allocator.cc). Call it once at the start of a program (relay-opt, benchmarks,
/// tests), before building graphs; it only tunes, never changes results.
void TuneAllocatorForLargeGraphs();

/// For programs about to run a network on the evaluator (relay-opt --run, eval_bench): grows the
/// heap by 256 MiB of address space and advises transparent huge pages for it (what
/// GLIBC_TUNABLES=glibc.malloc.hugetlb=1 does for the whole heap), so that the evaluator's tensors
/// and packed weights below 4 MiB, allocated there, cost a TLB entry and a fault per 2 MiB rather
/// than per 4 KiB: resnet-50's mean inference time fell from 80 to 62 ms on an AMD EPYC VM. Not
/// part of TuneAllocatorForLargeGraphs: graph nodes allocated there made passes over
/// million-node chains 1.3x-2x slower (docs/performance.md). Once per process; skipped under an
/// address-space limit.
void AdviseHeapHugePages();

}  // namespace relaypass::support
