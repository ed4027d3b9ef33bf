// A flat open-addressing hash map keyed by pointer, for the per-node tables of graph traversals.
// std::unordered_map allocates one heap node per entry, which dominated traversal time on
// million-node graphs; this keeps keys and values in two arrays (linear probing, no erase).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace relaypass::support {

template <typename V>
class PointerMap {
 public:
  PointerMap() { Rehash(16); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  // The value for `key`, or null.
  V* find(const void* key) {
    size_t i = Slot(key);
    return keys_[i] == key ? &values_[i] : nullptr;
  }
  const V* find(const void* key) const { return const_cast<PointerMap*>(this)->find(key); }
  bool contains(const void* key) const { return find(key) != nullptr; }

  // Inserts `value` if `key` is absent; returns the stored value and whether it was inserted.
  std::pair<V*, bool> emplace(const void* key, V value) {
    size_t i = Slot(key);
    if (keys_[i] == key) return {&values_[i], false};
    if ((size_ + 1) * 4 > keys_.size() * 3) {
      Rehash(keys_.size() * 2);
      i = Slot(key);
    }
    keys_[i] = key;
    values_[i] = std::move(value);
    ++size_;
    return {&values_[i], true};
  }
  V& operator[](const void* key) { return *emplace(key, V()).first; }
  V& at(const void* key) { return *find(key); }
  const V& at(const void* key) const { return *find(key); }

  void reserve(size_t n) {
    size_t want = 16;
    while (want * 3 < n * 4) want *= 2;
    if (want > keys_.size()) Rehash(want);
  }

 private:
  static size_t Hash(const void* key) {
    auto x = reinterpret_cast<uintptr_t>(key);
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return static_cast<size_t>(x);
  }
  // The slot holding `key`, or the empty slot where it would go.
  size_t Slot(const void* key) const {
    size_t mask = keys_.size() - 1;
    size_t i = Hash(key) & mask;
    while (keys_[i] != nullptr && keys_[i] != key) i = (i + 1) & mask;
    return i;
  }
  void Rehash(size_t capacity) {
    std::vector<const void*> old_keys(capacity, nullptr);
    std::vector<V> old_values(capacity);
    old_keys.swap(keys_);
    old_values.swap(values_);
    for (size_t i = 0; i < old_keys.size(); ++i) {
      if (old_keys[i] == nullptr) continue;
      size_t j = Slot(old_keys[i]);
      keys_[j] = old_keys[i];
      values_[j] = std::move(old_values[i]);
    }
  }

  std::vector<const void*> keys_;
  std::vector<V> values_;
  size_t size_ = 0;
};

// A set of pointers with the same layout.
class PointerSet {
 public:
  bool contains(const void* key) const { return map_.contains(key); }
  // Returns true if `key` was not yet present.
  bool insert(const void* key) { return map_.emplace(key, 1).second; }
  size_t size() const { return map_.size(); }
  void reserve(size_t n) { map_.reserve(n); }

 private:
  PointerMap<uint8_t> map_;  // not bool: std::vector<bool> has no addressable elements
};

}  // namespace relaypass::support
