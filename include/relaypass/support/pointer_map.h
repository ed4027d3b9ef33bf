// A flat open-addressing hash map keyed by pointer, for the per-node tables of graph traversals.
// std::unordered_map allocates one heap node per entry, which dominated traversal time on
// million-node graphs; this keeps each key next to its value in one array (linear probing, no
// erase), so that a probe into a table far larger than the caches costs one miss, not two, and
// large tables sit on huge pages (TableAllocator).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "relaypass/support/table_allocator.h"

namespace relaypass::support {

template <typename V>
class PointerMap {
 public:
  PointerMap() { Rehash(16); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  /// The value for `key`, or null.
  V* find(const void* key) {
    Entry& e = slots_[Slot(key)];
    return e.key == key ? &e.value : nullptr;
  }
  const V* find(const void* key) const { return const_cast<PointerMap*>(this)->find(key); }
  bool contains(const void* key) const { return find(key) != nullptr; }

  /// Inserts `value` if `key` is absent; returns the stored value and whether it was inserted.
  std::pair<V*, bool> emplace(const void* key, V value) {
    size_t i = Slot(key);
    if (slots_[i].key == key) return {&slots_[i].value, false};
    if ((size_ + 1) * 4 > slots_.size() * 3) {
      Rehash(slots_.size() * 2);
      i = Slot(key);
    }
    slots_[i].key = key;
    slots_[i].value = std::move(value);
    ++size_;
    return {&slots_[i].value, true};
  }
  V& operator[](const void* key) { return *emplace(key, V()).first; }
  V& at(const void* key) { return *find(key); }
  const V& at(const void* key) const { return *find(key); }

  void reserve(size_t n) {
    size_t want = 16;
    while (want * 3 < n * 4) want *= 2;
    if (want > slots_.size()) Rehash(want);
  }

 private:
  static size_t Hash(const void* key) {
    auto x = reinterpret_cast<uintptr_t>(key);
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return static_cast<size_t>(x);
  }
  /// The slot holding `key`, or the empty slot where it would go.
  size_t Slot(const void* key) const {
    size_t mask = slots_.size() - 1;
    size_t i = Hash(key) & mask;
    while (slots_[i].key != nullptr && slots_[i].key != key) i = (i + 1) & mask;
    return i;
  }
  void Rehash(size_t capacity) {
    std::vector<Entry, TableAllocator<Entry>> old(capacity);
    old.swap(slots_);
    for (Entry& e : old) {
      if (e.key == nullptr) continue;
      Entry& to = slots_[Slot(e.key)];
      to.key = e.key;
      to.value = std::move(e.value);
    }
  }

  struct Entry {
    const void* key = nullptr;
    V value{};
  };
  std::vector<Entry, TableAllocator<Entry>> slots_;
  size_t size_ = 0;
};

/// A set of pointers with the same layout.
class PointerSet {
 public:
  bool contains(const void* key) const { return map_.contains(key); }
  /// Returns true if `key` was not yet present.
  bool insert(const void* key) { return map_.emplace(key, 1).second; }
  size_t size() const { return map_.size(); }
  void reserve(size_t n) { map_.reserve(n); }

 private:
  PointerMap<uint8_t> map_;  // not bool: std::vector<bool> has no addressable elements
};

}  // namespace relaypass::support
