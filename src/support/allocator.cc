#include "relaypass/support/allocator.h"

#include <malloc.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include <cstdint>
#include <cstdlib>

namespace relaypass::support {

void TuneAllocatorForLargeGraphs() {
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TOP_PAD, 64 << 20);
  // No fastbins: freeing a million-node graph left a million small chunks there, and the next
  // large request made malloc_consolidate walk them all, a cache miss each; and nodes allocated
  // from them landed scattered. Without, a pass over a 1M-node chain took 35-55 % less time
  // (docs/performance.md). tcache still serves the small, hot allocations.
  mallopt(M_MXFAST, 0);
}

namespace {

void AdviseHugePagesForFreshHeap() {
  // Not under an address-space limit (the limits tests run relay-opt under one): the heap is
  // grown here by kHeap of address space, most of it never touched.
  constexpr size_t kHeap = size_t{256} << 20, kHugePage = size_t{2} << 20;
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur != RLIM_INFINITY) return;
  // Below M_MMAP_THRESHOLD this comes from the heap (brk) and, freed, stays there (below
  // M_TRIM_THRESHOLD): what the evaluator allocates next is carved from this advised range.
  void* block = std::malloc(kHeap);
  if (!block) return;
  const auto begin = reinterpret_cast<uintptr_t>(block);
  const uintptr_t first = (begin + kHugePage - 1) / kHugePage * kHugePage;
  const uintptr_t last = (begin + kHeap) / kHugePage * kHugePage;
  if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
  std::free(block);
}

}  // namespace

void AdviseHeapHugePages() {
  static const bool advised = [] {
    AdviseHugePagesForFreshHeap();
    return true;
  }();
  (void)advised;
}

}  // namespace relaypass::support
