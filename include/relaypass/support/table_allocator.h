// An allocator for large, randomly probed tables (the pointer-keyed maps of graph traversals).
//
// A probe into a table of tens of megabytes misses the TLB as well as the caches when the table
// sits on 4 KiB pages. Tables of 4 MiB and more are mapped on their own, 2 MiB aligned, and
// marked for transparent huge pages (MADV_HUGEPAGE: honoured when the kernel's THP mode is
// "madvise" or "always", a no-op otherwise). Smaller ones come from operator new.
#pragma once

#include <cstddef>
#include <new>

namespace relaypass::support {

void* AllocateTable(size_t bytes);
void FreeTable(void* p, size_t bytes);

/// Marks the 2 MiB pages inside [p, p + bytes) of memory not yet touched (a large buffer just
/// reserved) for transparent huge pages, so writing it costs a fault per 2 MiB instead of one per
/// 4 KiB. Does nothing for ranges under 4 MiB.
void AdviseHugePages(void* p, size_t bytes);

template <typename T>
struct TableAllocator {
  using value_type = T;
  TableAllocator() = default;
  template <typename U>
  TableAllocator(const TableAllocator<U>&) {}  // NOLINT(google-explicit-constructor)
  T* allocate(size_t n) { return static_cast<T*>(AllocateTable(n * sizeof(T))); }
  void deallocate(T* p, size_t n) { FreeTable(p, n * sizeof(T)); }
  friend bool operator==(const TableAllocator&, const TableAllocator&) { return true; }
};

}  // namespace relaypass::support
