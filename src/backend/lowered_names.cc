#include "lowered_names.h"

#include <cstdio>
#include <functional>

#include "relaypass/ir/post_order_index.h"
#include "relaypass/ir/structural.h"

namespace relaypass::backend {

namespace {

constexpr size_t kMaxFuncNameLength = 80;

std::string Truncated(const std::string& name) {
  if (name.size() <= kMaxFuncNameLength) return name;
  char hash[2 * sizeof(size_t) + 1];
  std::snprintf(hash, sizeof(hash), "%zx", std::hash<std::string>{}(name));
  return name.substr(0, kMaxFuncNameLength) + "_" + hash + "_";
}

}  // namespace

std::string ReadableFusedName(const ir::Function& func) {
  std::string name = "fused";
  ir::PostOrderIndex index;
  index.Add(func->body, [](const ir::ExprNode* e) { return e->kind != ir::ExprKind::kFunction; });
  for (ir::PostOrderIndex::Id id : index.post_order()) {
    const ir::ExprNode* node = index.node(id);
    if (node->kind != ir::ExprKind::kCall) continue;
    if (const auto* op = static_cast<const ir::CallNode*>(node)->op.as<ir::OpNode>()) {
      name += "_" + op->name;
    }
  }
  return name;
}

std::string LoweredNames::NameOf(const ir::Function& func) {
  std::vector<std::pair<ir::Function, std::string>>& bucket = cache_[ir::StructuralHash(func)];
  for (const auto& [known, name] : bucket) {
    if (ir::StructuralEqual(known, func)) return name;
  }
  std::string name = "tvmgen_" + mod_name_ + "_" + Truncated(ReadableFusedName(func));
  for (char& c : name) {
    if (c == '.') c = '_';
  }
  for (;;) {
    auto it = used_.find(name);
    if (it == used_.end()) break;
    name += "_" + std::to_string(it->second++);
  }
  used_[name] = 1;
  bucket.emplace_back(func, name);
  return name;
}

}  // namespace relaypass::backend
