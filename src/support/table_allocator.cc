#include "relaypass/support/table_allocator.h"

#include <sys/mman.h>

#include <cstdint>

namespace relaypass::support {

namespace {

constexpr size_t kHugePage = size_t{2} << 20;
constexpr size_t kMappedFrom = size_t{4} << 20;

size_t MappedSize(size_t bytes) {
  return (bytes + kHugePage - 1) / kHugePage * kHugePage;
}

}  // namespace

void* AllocateTable(size_t bytes) {
  if (bytes < kMappedFrom) return ::operator new(bytes);
  // Over-map by one huge page so the table can start on a 2 MiB boundary.
  const size_t size = MappedSize(bytes);
  void* raw =
      mmap(nullptr, size + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  auto begin = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = (begin + kHugePage - 1) / kHugePage * kHugePage;
  // Give back the unaligned head and the tail beyond the table.
  if (aligned > begin) munmap(raw, aligned - begin);
  const uintptr_t end = begin + size + kHugePage;
  if (end > aligned + size) munmap(reinterpret_cast<void*>(aligned + size), end - aligned - size);
  madvise(reinterpret_cast<void*>(aligned), size, MADV_HUGEPAGE);
  return reinterpret_cast<void*>(aligned);
}

void FreeTable(void* p, size_t bytes) {
  if (bytes < kMappedFrom) {
    ::operator delete(p);
    return;
  }
  munmap(p, MappedSize(bytes));
}

void AdviseHugePages(void* p, size_t bytes) {
  if (bytes < kMappedFrom) return;
  const auto begin = reinterpret_cast<uintptr_t>(p);
  const uintptr_t first = (begin + kHugePage - 1) / kHugePage * kHugePage;
  const uintptr_t last = (begin + bytes) / kHugePage * kHugePage;
  if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
}

}  // namespace relaypass::support
