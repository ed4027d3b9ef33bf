// Allocator settings for programs that build and drop large graphs.
#pragma once

namespace relaypass::support {

// glibc returns freed memory to the OS after large frees and hands out big blocks through mmap;
// a pass over a million-node graph then pays a page fault (~17us on this kind of machine) for
// most of what it allocates. This keeps freed memory in the process instead, and turns off the
// fastbins (see allocator.cc). Call it once at the start of a program (relay-opt, benchmarks,
// tests), before building graphs; it only tunes, never changes results.
void TuneAllocatorForLargeGraphs();

}  // namespace relaypass::support
