// Per-operator hooks with priority levels: TVM keeps them as op attributes registered with a
// plevel (FTVMLegalize, FTVMAlterOpLayout), and the registration with the highest level is the
// one used. This is their one owner: OpHookTable<Func>, one table per kind of hook, and OpHook,
// the handle that owns one registration (Legalize's and AlterOpLayout's hooks are both OpHooks).
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "relaypass/ir/op_registry.h"
#include "relaypass/support/error.h"

namespace relaypass::passes {

namespace detail {
/// What an OpHook needs of its table: removing its registration.
class OpHookTableBase {
 public:
  virtual void Remove(uint64_t id) = 0;

 protected:
  ~OpHookTableBase() = default;
};
}  // namespace detail

/// Owns one hook registration and removes it when destroyed (or on Unregister()); movable, not
/// copyable. Release() keeps the hook for the rest of the process.
class OpHook {
 public:
  OpHook() = default;
  OpHook(OpHook&& other) noexcept
      : table_(std::exchange(other.table_, nullptr)), id_(std::exchange(other.id_, 0)) {}
  OpHook& operator=(OpHook&& other) noexcept {
    if (this != &other) {
      Unregister();
      table_ = std::exchange(other.table_, nullptr);
      id_ = std::exchange(other.id_, 0);
    }
    return *this;
  }
  OpHook(const OpHook&) = delete;
  OpHook& operator=(const OpHook&) = delete;
  ~OpHook() { Unregister(); }

  bool registered() const { return id_ != 0; }
  void Unregister() {
    if (id_ != 0) table_->Remove(id_);
    id_ = 0;
  }
  void Release() { id_ = 0; }

 private:
  template <typename Func>
  friend class OpHookTable;
  OpHook(detail::OpHookTableBase* table, uint64_t id) : table_(table), id_(id) {}
  detail::OpHookTableBase* table_ = nullptr;  // a table lives for the whole process
  uint64_t id_ = 0;
};

/// The hooks of one kind, by operator name; thread-safe. Meant to be a function-local static.
template <typename Func>
class OpHookTable final : public detail::OpHookTableBase {
 public:
  /// `registrar` names the registering function in messages ("RegisterLegalize"), `attribute`
  /// TVM's op attribute ("FTVMLegalize").
  OpHookTable(std::string registrar, std::string attribute)
      : registrar_(std::move(registrar)), attribute_(std::move(attribute)) {}

  /// Registers `hook` for `op_name` at `level`. InternalError for an unknown operator, an empty
  /// hook, or a level an active hook of this op already has (TVM: "already registered with
  /// same plevel").
  [[nodiscard]] OpHook Register(const std::string& op_name, Func hook, int level) {
    if (ir::OpRegistry::Global().Find(op_name) == nullptr) {
      throw InternalError(registrar_ + ": unknown operator \"" + op_name + "\"");
    }
    if (!hook) throw InternalError(registrar_ + ": empty hook for " + op_name);
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<Registration>& registrations = by_op_[op_name];
    for (const Registration& r : registrations) {
      if (r.level == level) {
        throw InternalError("Attribute " + attribute_ + " of " + op_name +
                            " is already registered with same plevel=" + std::to_string(level));
      }
    }
    const uint64_t id = next_id_++;
    registrations.push_back({id, level, std::move(hook)});
    return OpHook(this, id);
  }

  /// The hook of `op_name` with the highest level, or an empty function.
  Func Get(const std::string& op_name) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = by_op_.find(op_name);
    if (it == by_op_.end()) return {};
    const Registration* best = nullptr;
    for (const Registration& r : it->second) {
      if (best == nullptr || r.level > best->level) best = &r;
    }
    return best ? best->hook : Func();
  }

  void Remove(uint64_t id) override {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& [name, registrations] : by_op_) {
      std::erase_if(registrations, [&](const Registration& r) { return r.id == id; });
    }
  }

 private:
  struct Registration {
    uint64_t id;
    int level;
    Func hook;
  };
  const std::string registrar_;
  const std::string attribute_;
  mutable std::mutex mutex_;
  uint64_t next_id_ = 1;
  std::map<std::string, std::vector<Registration>> by_op_;
};

}  // namespace relaypass::passes
