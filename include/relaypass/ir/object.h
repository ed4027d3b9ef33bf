// Intrusive reference counting for immutable IR nodes.
//
// Every IR node derives from Object and is held through Ref<T>. Nodes are immutable once shared,
// so a Ref<T> only gives const access. Destruction is iterative: releasing the last reference to
// the head of a 1,000,000-node chain must not recurse once per node (see ReleaseObject).
#pragma once

#include <atomic>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace relaypass::ir {

class Object {
 public:
  Object() = default;
  Object(const Object&) : ref_count_(0) {}  // a copy is a new object with no owners yet
  Object& operator=(const Object&) = delete;
  virtual ~Object() = default;

  int32_t use_count() const { return ref_count_.load(std::memory_order_relaxed); }
  /// True if this object has exactly one reference. A node reached by a graph walk through an
  /// edge is then reachable through that edge only (its one reference), so the walk will not meet
  /// it again and need not remember it: walks over chains skip their per-node tables this way.
  /// (Other threads can only add references to a node through one they hold, so a node shared
  /// with another thread never reads as uniquely referenced.)
  bool uniquely_referenced() const { return use_count() == 1; }

 private:
  template <typename T>
  friend class Ref;
  friend void ReleaseObject(const Object* obj);

  void IncRef() const { ref_count_.fetch_add(1, std::memory_order_relaxed); }
  /// Returns true when this was the last reference.
  bool DecRef() const { return ref_count_.fetch_sub(1, std::memory_order_acq_rel) == 1; }

  mutable std::atomic<int32_t> ref_count_{0};
};

/// Deletes `obj` (whose count just reached zero) without recursing on graph depth: objects freed
/// while a deletion is running are queued and freed by the outermost call.
void ReleaseObject(const Object* obj);

/// A shared, const, possibly null reference to a node of type T (T derives from Object).
template <typename T>
class Ref {
 public:
  using element_type = T;

  Ref() = default;
  Ref(std::nullptr_t) {}  // NOLINT(google-explicit-constructor)
  explicit Ref(const T* ptr) : ptr_(ptr) {
    if (ptr_) ptr_->IncRef();
  }
  Ref(const Ref& other) : ptr_(other.ptr_) {
    if (ptr_) ptr_->IncRef();
  }
  Ref(Ref&& other) noexcept : ptr_(std::exchange(other.ptr_, nullptr)) {}
  template <typename U, typename = std::enable_if_t<std::is_base_of_v<T, U>>>
  Ref(const Ref<U>& other) : Ref(static_cast<const T*>(other.get())) {}  // NOLINT
  template <typename U, typename = std::enable_if_t<std::is_base_of_v<T, U>>>
  Ref(Ref<U>&& other) noexcept  // NOLINT
      : ptr_(static_cast<const T*>(other.release())) {}
  ~Ref() { reset(); }

  Ref& operator=(Ref other) noexcept {
    std::swap(ptr_, other.ptr_);
    return *this;
  }

  void reset() {
    if (ptr_ && ptr_->DecRef()) ReleaseObject(ptr_);
    ptr_ = nullptr;
  }
  /// Gives up ownership without decrementing (used by converting moves).
  const T* release() { return std::exchange(ptr_, nullptr); }

  const T* get() const { return ptr_; }
  const T* operator->() const { return ptr_; }
  const T& operator*() const { return *ptr_; }
  explicit operator bool() const { return ptr_ != nullptr; }
  bool defined() const { return ptr_ != nullptr; }
  bool same_as(const Ref& other) const { return ptr_ == other.ptr_; }

  /// The node as a U, or null if it is not one. Node families with a `kind` tag (expressions,
  /// types) are checked by tag, others by dynamic_cast.
  template <typename U>
  const U* as() const {
    if constexpr (requires { U::kKind; }) {
      return ptr_ && ptr_->kind == U::kKind ? static_cast<const U*>(ptr_) : nullptr;
    } else {
      return dynamic_cast<const U*>(ptr_);
    }
  }
  /// Like as(), but returns a new reference.
  template <typename U>
  Ref<U> downcast() const {
    return Ref<U>(as<U>());
  }

  friend bool operator==(const Ref& a, const Ref& b) { return a.ptr_ == b.ptr_; }
  friend bool operator!=(const Ref& a, const Ref& b) { return a.ptr_ != b.ptr_; }
  friend bool operator==(const Ref& a, std::nullptr_t) { return a.ptr_ == nullptr; }
  friend bool operator!=(const Ref& a, std::nullptr_t) { return a.ptr_ != nullptr; }

 private:
  const T* ptr_ = nullptr;
};

/// Allocates a node and returns the first reference to it.
template <typename T, typename... Args>
Ref<T> make_ref(Args&&... args) {
  return Ref<T>(new T(std::forward<Args>(args)...));
}

/// Hash/equality by identity, for containers keyed by node.
struct RefHash {
  template <typename T>
  size_t operator()(const Ref<T>& r) const {
    return std::hash<const void*>()(r.get());
  }
};

}  // namespace relaypass::ir
