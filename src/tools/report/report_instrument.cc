// Recording what each pass did (the data side of the pass explorer; report_page.cc renders it).
#include "relaypass/tools/report_instrument.h"

#include <cstdint>
#include <fstream>
#include <functional>
#include <unordered_map>

#include "relaypass/ir/visitor.h"
#include "relaypass/support/error.h"
#include "relaypass/text/printer.h"
#include "relaypass/tools/module_stats.h"
#include "relaypass/tools/op_count.h"
#include "relaypass/tools/text_diff.h"
#include "relaypass/tools/verify_instrument.h"
#include "relaypass/transform/pass_context.h"
#include "report_page.h"

namespace relaypass::tools {

using Clock = std::chrono::steady_clock;

namespace {

uint64_t Mix(uint64_t h, uint64_t v) {
  return (h ^ v) * 0x100000001b3ULL + (h << 6) + (h >> 2);
}

// A hash of what a node computes, from its kind, operator, attributes and its children's
// signatures (types ignored; variables by name, constants by their buffer): equal for a node and
// its re-typed copy, different for anything a pass really made. One post-order walk per function.
std::unordered_map<const ir::ExprNode*, uint64_t> NodeSignatures(const ir::IRModule& mod) {
  std::unordered_map<const ir::ExprNode*, uint64_t> sig;
  for (const auto& [gv, func] : mod.functions()) {
    ir::post_order_visit(func, [&](const ir::Expr& e) {
      uint64_t h = Mix(0xcbf29ce484222325ULL, static_cast<uint64_t>(e->kind));
      ir::ForEachChild(e.get(), [&](const ir::Expr& child) {
        auto it = sig.find(child.get());
        h = Mix(h, it == sig.end() ? 0 : it->second);
      });
      if (auto* var = e.as<ir::VarNode>()) h = Mix(h, std::hash<std::string>()(var->name_hint));
      if (auto* gv = e.as<ir::GlobalVarNode>()) h = Mix(h, std::hash<std::string>()(gv->name_hint));
      if (auto* op = e.as<ir::OpNode>()) h = Mix(h, std::hash<std::string>()(op->name));
      if (auto* c = e.as<ir::ConstantNode>()) {
        h = Mix(h, reinterpret_cast<uintptr_t>(c->data.raw_data()));
      }
      if (auto* call = e.as<ir::CallNode>()) h = Mix(h, ir::AttrsHash(call->attrs));
      if (auto* item = e.as<ir::TupleGetItemNode>()) h = Mix(h, static_cast<uint64_t>(item->index));
      if (auto* fn = e.as<ir::FunctionNode>()) {
        for (const ir::Var& p : fn->params) h = Mix(h, std::hash<std::string>()(p->name_hint));
        h = Mix(h, static_cast<uint64_t>(fn->is_primitive()));
      }
      sig.emplace(e.get(), h);
    });
  }
  return sig;
}

}  // namespace

struct ReportInstrument::State {
  ReportOptions options;
  std::vector<PassRecord> records;
  struct Open {
    size_t record;
    ir::IRModule input;
    Clock::time_point start;
    OpCounts ops_before;
  };
  std::vector<Open> open;
  std::optional<Clock::time_point> origin;
  std::optional<ir::IRModule> input_module;
  std::optional<ir::IRModule> last_module;
  std::string context;
  // The pass that first produced each node, by the node's signature (below): a node that a
  // later pass rebuilds unchanged (InferType copies nodes to type them) keeps its creator.
  std::unordered_map<uint64_t, std::string> creator;
  int64_t verify_slots = 0;  // outermost passes that changed the module so far
  // The text of the last module printed, reused as the next pass's "before".
  std::optional<ir::IRModule> text_module;
  std::string text;

  const std::string& TextOf(const ir::IRModule& mod) {
    if (!text_module || !text_module->same_as(mod)) {
      text = text::PrettyPrint(mod);
      text_module = mod;
    }
    return text;
  }

  void Attribute(const ir::IRModule& mod, const std::string& pass) {
    for (const auto& [node, signature] : NodeSignatures(mod)) creator.emplace(signature, pass);
  }

  // Whether every pass running around the innermost one only groups others.
  bool OutermostWork() const {
    for (size_t i = 0; i + 1 < open.size(); ++i) {
      if (!records[open[i].record].container) return false;
    }
    return true;
  }
};

namespace {

std::string DescribeContext(const transform::PassContext& ctx) {
  std::string out = "opt_level=" + std::to_string(ctx.opt_level());
  auto list = [](const std::vector<std::string>& names) {
    std::string s = "[";
    for (size_t i = 0; i < names.size(); ++i) s += (i ? ", " : "") + names[i];
    return s + "]";
  };
  out += ", required_pass=" + list(ctx.required_pass());
  out += ", disabled_pass=" + list(ctx.disabled_pass());
  std::string config;
  for (const auto& [key, value] : ctx.config()) {
    config += (config.empty() ? "" : ", ") + key + "=" + transform::OptionLiteral(value);
  }
  return out + ", config={" + config + "}";
}

std::map<std::string, int64_t> Delta(const OpCounts& before, const OpCounts& after) {
  std::map<std::string, int64_t> out;
  for (const auto& [op, n] : after.ops) out[op] += n;
  for (const auto& [op, n] : before.ops) out[op] -= n;
  std::erase_if(out, [](const auto& item) { return item.second == 0; });
  return out;
}

// The first `max_lines` lines of `diff`; *dropped gets how many more there were.
std::string Cut(const std::string& diff, int64_t max_lines, int64_t* dropped) {
  size_t pos = 0;
  for (int64_t line = 0; line < max_lines; ++line) {
    pos = diff.find('\n', pos);
    if (pos == std::string::npos) return diff;
    ++pos;
  }
  for (size_t p = pos; p < diff.size(); ++p) *dropped += diff[p] == '\n';
  return diff.substr(0, pos);
}

}  // namespace

ReportInstrument::ReportInstrument(ReportOptions options) : state_(std::make_unique<State>()) {
  state_->options = std::move(options);
}

ReportInstrument::~ReportInstrument() = default;

void ReportInstrument::SetVerify(std::shared_ptr<const VerifyInstrument> verify) {
  state_->options.verify = std::move(verify);
}

std::vector<PassRecord> ReportInstrument::records() const {
  std::vector<PassRecord> out = state_->records;
  if (!state_->options.verify) return out;
  const std::vector<VerifyCheck>& checks = state_->options.verify->checks();
  for (PassRecord& r : out) {
    if (r.verify_slot < 0 || r.verify_slot >= static_cast<int64_t>(checks.size())) continue;
    const VerifyCheck& check = checks[r.verify_slot];
    if (check.pass != r.name) continue;
    r.max_abs_diff = check.max_abs_diff;
    if (!check.passed) r.status = "failed (verify-each)";
  }
  return out;
}

void ReportInstrument::run_before_pass(const ir::IRModule& mod, const transform::PassInfo& info) {
  State& s = *state_;
  const Clock::time_point now = Clock::now();
  if (!s.origin) {
    s.origin = now;
    s.input_module = mod;
    s.context = DescribeContext(transform::PassContext::Current());
    s.Attribute(mod, "(input)");
  }
  PassRecord record;
  record.name = info.name;
  record.depth = static_cast<int>(s.open.size());
  record.start_us = std::chrono::duration<double, std::micro>(now - *s.origin).count();
  record.container = s.options.containers.count(info.name) > 0;
  s.records.push_back(std::move(record));
  s.open.push_back({s.records.size() - 1, mod, now, CountOps(mod)});
  s.records.back().nodes_before = static_cast<int64_t>(CountModuleNodes(mod));
  // Counting is not the pass's time: restart its clock.
  s.open.back().start = Clock::now();
}

void ReportInstrument::run_after_pass_status(const ir::IRModule& mod,
                                             const transform::PassInfo& info,
                                             transform::PassStatus status) {
  State& s = *state_;
  const Clock::time_point now = Clock::now();
  if (transform::IsSkipped(status)) {
    PassRecord record;
    record.name = info.name;
    record.depth = static_cast<int>(s.open.size());
    record.start_us =
        s.origin ? std::chrono::duration<double, std::micro>(now - *s.origin).count() : 0;
    record.status = transform::PassStatusName(status);
    record.nodes_before = record.nodes_after = static_cast<int64_t>(CountModuleNodes(mod));
    if (!s.origin) {
      s.origin = now;
      s.input_module = mod;
      s.context = DescribeContext(transform::PassContext::Current());
    }
    s.records.push_back(std::move(record));
    return;
  }
  if (s.open.empty()) return;
  State::Open open = std::move(s.open.back());
  PassRecord& record = s.records[open.record];
  record.duration_us = std::chrono::duration<double, std::micro>(now - open.start).count();
  record.status = transform::PassStatusName(status);
  const bool outermost = s.OutermostWork();
  s.open.pop_back();
  const ir::IRModule& result = status == transform::PassStatus::kOk ? mod : open.input;
  record.nodes_after = static_cast<int64_t>(CountModuleNodes(result));
  if (status == transform::PassStatus::kOk && !record.container) {
    record.changed = ModuleChanged(open.input, result);
    if (record.changed) {
      record.op_delta = Delta(open.ops_before, CountOps(result));
      const std::string before = s.TextOf(open.input);
      const std::string diff =
          UnifiedDiff(before, s.TextOf(result), "before " + info.name, "after " + info.name);
      const DiffLineCounts counts = CountDiffLines(diff);
      record.lines_added = counts.added;
      record.lines_removed = counts.removed;
      record.diff = Cut(diff, s.options.max_diff_lines, &record.diff_lines_dropped);
    }
    if (outermost) s.Attribute(result, info.name);
  }
  if (outermost && record.changed) record.verify_slot = s.verify_slots++;
  if (status == transform::PassStatus::kOk && outermost) s.last_module = result;
}

std::string ReportInstrument::RenderHtml() const {
  const State& s = *state_;
  ReportPageInput page;
  page.input = s.options.input;
  page.command_line = s.options.command_line;
  page.context = s.context;
  const std::vector<PassRecord> records = this->records();
  page.records = &records;
  ir::IRModule empty;
  page.input_module = s.input_module ? &*s.input_module : &empty;
  page.final_module = s.last_module ? &*s.last_module : page.input_module;
  const auto signatures = NodeSignatures(*page.final_module);
  page.creator = [&s, &signatures](const ir::ExprNode* node) -> std::string {
    auto sig = signatures.find(node);
    if (sig == signatures.end()) return "";
    auto it = s.creator.find(sig->second);
    return it == s.creator.end() ? "" : it->second;
  };
  return RenderReportPage(page);
}

void ReportInstrument::WriteFile(const std::string& path) const {
  const std::string html = RenderHtml();
  std::ofstream out(path, std::ios::binary);
  if (!out) throw Error("cannot write the report to '" + path + "'");
  out << html;
  if (!out.flush()) throw Error("cannot write the report to '" + path + "'");
}

}  // namespace relaypass::tools
