#include "relaypass/passes/legalize.h"

#include <map>
#include <mutex>
#include <utility>

#include "relaypass/ir/op_registry.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/op/registry.h"
#include "relaypass/support/error.h"

namespace relaypass::passes {

namespace {

struct Registration {
  uint64_t id;
  int level;
  LegalizeFunc hook;
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

class Legalizer : public ir::ExprMutator {
 protected:
  ir::Expr RewriteCall(const ir::CallNode* pre, const ir::Expr& post) override {
    auto* op = pre->op_node();
    if (op == nullptr) return post;
    LegalizeFunc hook = GetLegalize(op->name);
    if (!hook) return post;
    auto* call = post.as<ir::CallNode>();
    std::vector<ir::Type> types;
    for (const ir::Expr& arg : pre->args) types.push_back(arg->checked_type);
    types.push_back(pre->checked_type);
    ir::Expr legalized = hook(call->attrs, call->args, types);
    if (!legalized) return post;
    if (!legalized.as<ir::CallNode>()) {
      throw PassError("Legalize: the hook of " + op->name +
                      " can only replace the original operator with another call node");
    }
    return legalized;
  }
};

}  // namespace

LegalizeHook::LegalizeHook(LegalizeHook&& other) noexcept : id_(std::exchange(other.id_, 0)) {}

LegalizeHook& LegalizeHook::operator=(LegalizeHook&& other) noexcept {
  if (this != &other) {
    Unregister();
    id_ = std::exchange(other.id_, 0);
  }
  return *this;
}

void LegalizeHook::Unregister() {
  if (id_ == 0) return;
  HookTable& table = Table();
  std::lock_guard<std::mutex> lock(table.mutex);
  for (auto& [name, registrations] : table.by_op) {
    std::erase_if(registrations, [&](const Registration& r) { return r.id == id_; });
  }
  id_ = 0;
}

LegalizeHook RegisterLegalize(const std::string& op_name, LegalizeFunc hook, int level) {
  if (ir::OpRegistry::Global().Find(op_name) == nullptr) {
    throw InternalError("RegisterLegalize: unknown operator \"" + op_name + "\"");
  }
  if (!hook) throw InternalError("RegisterLegalize: empty hook for " + op_name);
  HookTable& table = Table();
  std::lock_guard<std::mutex> lock(table.mutex);
  std::vector<Registration>& registrations = table.by_op[op_name];
  for (const Registration& r : registrations) {
    if (r.level == level) {
      throw InternalError("Attribute FTVMLegalize of " + op_name +
                          " is already registered with same plevel=" + std::to_string(level));
    }
  }
  const uint64_t id = table.next_id++;
  registrations.push_back({id, level, std::move(hook)});
  return LegalizeHook(id);
}

LegalizeFunc GetLegalize(const std::string& op_name) {
  HookTable& table = Table();
  std::lock_guard<std::mutex> lock(table.mutex);
  auto it = table.by_op.find(op_name);
  if (it == table.by_op.end() || it->second.empty()) return {};
  const Registration* best = &it->second.front();
  for (const Registration& r : it->second) {
    if (r.level > best->level) best = &r;
  }
  return best->hook;
}

transform::Pass Legalize() {
  return transform::CreateFunctionPass(
      [](const ir::Function& func, const ir::IRModule& mod, const transform::PassContext&) {
        // The hooks read the original arguments' types.
        ir::Function typed =
            func->checked_type ? func : ir::InferExprTypes(func, mod).downcast<ir::FunctionNode>();
        return Legalizer().Mutate(typed).downcast<ir::FunctionNode>();
      },
      1, "Legalize", {"InferType"});
}

void RegisterLegalize(transform::PassRegistry& registry) {
  registry.Register({"Legalize",
                     {},
                     [](const transform::PassOptions&) { return Legalize(); },
                     "replaces operators through their registered legalize hooks"});
}

}  // namespace relaypass::passes
