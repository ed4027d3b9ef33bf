#include "relaypass/support/allocator.h"

#include <malloc.h>

namespace relaypass::support {

void TuneAllocatorForLargeGraphs() {
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TOP_PAD, 64 << 20);
}

}  // namespace relaypass::support
