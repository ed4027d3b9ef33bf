#include "relaypass/tools/op_count.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "relaypass/ir/visitor.h"
#include "relaypass/support/error.h"

namespace relaypass::tools {

int64_t OpCounts::total_ops() const {
  int64_t total = 0;
  for (const auto& [name, count] : ops) total += count;
  return total;
}

OpCounts CountOps(const ir::IRModule& mod) {
  OpCounts counts;
  for (const auto& [gv, func] : mod.functions()) {
    ir::post_order_visit(func, [&](const ir::Expr& e) {
      switch (e->kind) {
        case ir::ExprKind::kCall:
          if (const ir::OpNode* op = e.as<ir::CallNode>()->op_node()) ++counts.ops[op->name];
          break;
        case ir::ExprKind::kFunction:
          if (e.as<ir::FunctionNode>()->is_primitive()) ++counts.fused_functions;
          break;
        case ir::ExprKind::kConstant:
          ++counts.constants;
          break;
        default:
          break;
      }
    });
  }
  return counts;
}

std::string RenderOpCountTable(const OpCounts& before, const OpCounts& after) {
  std::vector<std::string> names;
  for (const auto& [name, count] : before.ops) names.push_back(name);
  for (const auto& [name, count] : after.ops) {
    if (!before.ops.count(name)) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  size_t width = std::string("fused functions").size();
  for (const std::string& name : names) width = std::max(width, name.size());
  auto count_of = [](const OpCounts& c, const std::string& name) -> int64_t {
    auto it = c.ops.find(name);
    return it == c.ops.end() ? 0 : it->second;
  };
  std::string out;
  auto row = [&](const std::string& label, const std::string& a, const std::string& b) {
    char buf[64];
    std::snprintf(buf, sizeof(buf), "  %8s  %8s\n", a.c_str(), b.c_str());
    out += label + std::string(width - std::min(width, label.size()), ' ') + buf;
  };
  row("operator", "before", "after");
  for (const std::string& name : names) {
    row(name, std::to_string(count_of(before, name)), std::to_string(count_of(after, name)));
  }
  out += std::string(width + 20, '-') + "\n";
  row("total", std::to_string(before.total_ops()), std::to_string(after.total_ops()));
  row("fused functions", std::to_string(before.fused_functions),
      std::to_string(after.fused_functions));
  row("constants", std::to_string(before.constants), std::to_string(after.constants));
  return out;
}

OpCounts OpCountInstrument::before() const {
  if (!first_input_ || !last_output_) throw InternalError("OpCountInstrument: no pass has run");
  return CountOps(*first_input_);
}

OpCounts OpCountInstrument::after() const {
  if (!last_output_) throw InternalError("OpCountInstrument: no pass has run");
  return CountOps(*last_output_);
}

std::string OpCountInstrument::Render() const {
  return RenderOpCountTable(before(), after());
}

void OpCountInstrument::run_before_pass(const ir::IRModule& mod, const transform::PassInfo&) {
  if (depth_++ == 0 && !first_input_) first_input_ = mod;
}

void OpCountInstrument::run_after_pass_status(const ir::IRModule& mod, const transform::PassInfo&,
                                              transform::PassStatus status) {
  if (transform::IsSkipped(status)) return;
  if (depth_ > 0) --depth_;
  if (depth_ == 0 && status == transform::PassStatus::kOk) last_output_ = mod;
}

}  // namespace relaypass::tools
