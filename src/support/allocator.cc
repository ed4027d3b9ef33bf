#include "relaypass/support/allocator.h"

#include <malloc.h>

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

}  // namespace relaypass::support
