// The process-wide table of AlterOpLayout hooks (TVM keeps them as the op attribute
// FTVMAlterOpLayout, with a priority level per registration).
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "relaypass/ir/op_registry.h"
#include "relaypass/op/registry.h"
#include "relaypass/passes/alter_op_layout.h"
#include "relaypass/support/error.h"

namespace relaypass::passes {

namespace {

struct Registration {
  uint64_t id;
  int level;
  AlterOpLayoutFunc hook;
};

struct HookTable {
  std::mutex mutex;
  uint64_t next_id = 1;
  std::map<std::string, std::vector<Registration>> by_op;
};

HookTable& Table() {
  static HookTable table;
  return table;
}

}  // namespace

AlterOpLayoutHook::AlterOpLayoutHook(AlterOpLayoutHook&& other) noexcept
    : id_(std::exchange(other.id_, 0)) {}

AlterOpLayoutHook& AlterOpLayoutHook::operator=(AlterOpLayoutHook&& other) noexcept {
  if (this != &other) {
    Unregister();
    id_ = std::exchange(other.id_, 0);
  }
  return *this;
}

void AlterOpLayoutHook::Unregister() {
  if (id_ == 0) return;
  HookTable& table = Table();
  std::lock_guard<std::mutex> lock(table.mutex);
  for (auto& [name, registrations] : table.by_op) {
    std::erase_if(registrations, [&](const Registration& r) { return r.id == id_; });
  }
  id_ = 0;
}

AlterOpLayoutHook RegisterAlterOpLayout(const std::string& op_name, AlterOpLayoutFunc hook,
                                        int level) {
  if (ir::OpRegistry::Global().Find(op_name) == nullptr) {
    throw InternalError("RegisterAlterOpLayout: unknown operator \"" + op_name + "\"");
  }
  if (!hook) throw InternalError("RegisterAlterOpLayout: empty hook for " + op_name);
  HookTable& table = Table();
  std::lock_guard<std::mutex> lock(table.mutex);
  std::vector<Registration>& registrations = table.by_op[op_name];
  for (const Registration& r : registrations) {
    if (r.level == level) {
      throw InternalError("Attribute FTVMAlterOpLayout of " + op_name +
                          " is already registered with same plevel=" + std::to_string(level));
    }
  }
  uint64_t id = table.next_id++;
  registrations.push_back({id, level, std::move(hook)});
  return AlterOpLayoutHook(id);
}

AlterOpLayoutFunc GetAlterOpLayout(const std::string& op_name) {
  HookTable& table = Table();
  std::lock_guard<std::mutex> lock(table.mutex);
  auto it = table.by_op.find(op_name);
  if (it == table.by_op.end()) return {};
  const Registration* best = nullptr;
  for (const Registration& r : it->second) {
    if (best == nullptr || r.level > best->level) best = &r;
  }
  return best ? best->hook : AlterOpLayoutFunc();
}

}  // namespace relaypass::passes
