#include "test_util.h"

#include <fstream>
#include <sstream>

#include "relaypass/ir/visitor.h"
#include "relaypass/passes/alter_op_layout.h"
#include "relaypass/passes/canonicalize_ops.h"
#include "relaypass/passes/convert_layout.h"
#include "relaypass/text/parser.h"
#include "relaypass/transform/pass_context.h"
#include "relaypass/transform/registry.h"
#include "relaypass/transform/sequential.h"

namespace relaypass::layout_testing {

OpCounts CountOps(const ir::IRModule& mod) {
  OpCounts counts;
  ir::post_order_visit(mod.Lookup("main"), [&](const ir::Expr& e) {
    if (auto* call = e.as<ir::CallNode>()) {
      if (auto* op = call->op_node()) ++counts[op->name];
    }
  });
  return counts;
}

void CallNodeDiffer::run_before_pass(const ir::IRModule& mod, const transform::PassInfo& info) {
  stack_.emplace_back(info.name, CountOps(mod));
}

void CallNodeDiffer::run_after_pass(const ir::IRModule& mod, const transform::PassInfo& info) {
  OpCounts before = std::move(stack_.back().second);
  stack_.pop_back();
  OpCounts after = CountOps(mod);
  OpCounts diff;
  for (const auto& [name, n] : after) {
    int d = n - (before.count(name) ? before.at(name) : 0);
    if (d != 0) diff[name] = d;
  }
  for (const auto& [name, n] : before) {
    if (!after.count(name)) diff[name] = -n;
  }
  if (!diff.empty()) diffs_.emplace_back(static_cast<int>(stack_.size()), info.name, diff);
}

void EnsureLayoutPassesRegistered() {
  transform::PassRegistry& registry = transform::PassRegistry::Global();
  if (!registry.Find("CanonicalizeOps")) passes::RegisterCanonicalizeOps(registry);
  if (!registry.Find("ConvertLayout")) passes::RegisterConvertLayout(registry);
  if (!registry.Find("AlterOpLayout")) passes::RegisterAlterOpLayout(registry);
}

ir::IRModule RunAtLevel3(const transform::Pass& pass, const ir::IRModule& mod) {
  EnsureLayoutPassesRegistered();
  transform::PassContextScope scope(transform::PassContext({.opt_level = 3}));
  return transform::Sequential({pass})(mod);
}

std::string ReadTestData(const std::string& name) {
  std::ifstream in(std::string(RELAYPASS_TEST_DATA) + "/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

ir::IRModule ParseExpected(const std::string& text, const std::vector<ir::Constant>& constants) {
  text::ParseOptions options;
  options.constants = constants;
  return text::ParseModule(text, options);
}

std::vector<ir::Constant> ConstantsOf(const ir::Expr& expr) {
  std::vector<ir::Constant> out;
  ir::post_order_visit(expr, [&](const ir::Expr& e) {
    if (auto* c = e.as<ir::ConstantNode>()) out.emplace_back(c);
  });
  return out;
}

}  // namespace relaypass::layout_testing
