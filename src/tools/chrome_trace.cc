#include "relaypass/tools/chrome_trace.h"

#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <utility>

#include "relaypass/ir/visitor.h"
#include "relaypass/support/error.h"
#include "relaypass/tools/module_stats.h"

namespace relaypass::tools {

namespace {

using transform::PassStatus;

void AppendJsonString(std::string* out, const std::string& text) {
  out->push_back('"');
  for (const char c : text) {
    switch (c) {
      case '"':
        *out += "\\\"";
        break;
      case '\\':
        *out += "\\\\";
        break;
      case '\n':
        *out += "\\n";
        break;
      case '\t':
        *out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", static_cast<unsigned>(c));
          *out += buf;
        } else {
          out->push_back(c);
        }
    }
  }
  out->push_back('"');
}

// Microseconds with three decimals, exactly (from integer nanoseconds): nested events stay
// nested after formatting.
std::string Micros(int64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%" PRId64 ".%03" PRId64, ns / 1000, ns % 1000);
  return buf;
}

const char* SkipReason(PassStatus status) {
  switch (status) {
    case PassStatus::kSkippedByInstrument:
      return "should_run";
    case PassStatus::kSkippedDisabled:
      return "disabled";
    case PassStatus::kSkippedOptLevel:
      return "opt_level";
    default:
      return "";
  }
}

}  // namespace

struct ChromeTraceInstrument::Impl {
  ChromeTraceOptions options;
  std::chrono::steady_clock::time_point origin;
  std::vector<Event> events;
  // Running invocations, innermost last: the event index and the input module.
  std::vector<std::pair<size_t, ir::IRModule>> open;
  // Node counts of the functions last counted (kept alive so their addresses stay theirs).
  std::vector<std::pair<ir::Function, size_t>> count_cache;

  int64_t Now() const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(options.clock() - origin).count();
  }

  size_t CountNodes(const ir::IRModule& mod) {
    if (options.count_nodes) return options.count_nodes(mod);
    std::vector<std::pair<ir::Function, size_t>> counted;
    size_t total = 0;
    for (const auto& [gv, func] : mod.functions()) {
      size_t count = 0;
      bool cached = false;
      for (const auto& [old, old_count] : count_cache) {
        if (old.same_as(func)) {
          count = old_count;
          cached = true;
          break;
        }
      }
      if (!cached) count = ir::CountNodes(func);
      counted.emplace_back(func, count);
      total += count;
    }
    count_cache = std::move(counted);
    return total;
  }

  bool Changed(const ir::IRModule& before, const ir::IRModule& after) const {
    return options.module_changed ? options.module_changed(before, after)
                                  : ModuleChanged(before, after);
  }

  int Depth() const { return static_cast<int>(open.size()); }
};

ChromeTraceInstrument::ChromeTraceInstrument(ChromeTraceOptions options)
    : impl_(std::make_unique<Impl>()) {
  impl_->options = std::move(options);
  if (!impl_->options.clock) impl_->options.clock = [] { return std::chrono::steady_clock::now(); };
  impl_->origin = impl_->options.clock();
}

ChromeTraceInstrument::~ChromeTraceInstrument() = default;

const std::vector<ChromeTraceInstrument::Event>& ChromeTraceInstrument::events() const {
  return impl_->events;
}

void ChromeTraceInstrument::run_before_pass(const ir::IRModule& mod,
                                            const transform::PassInfo& info) {
  Event event;
  event.name = info.name;
  event.opt_level = info.opt_level;
  event.depth = impl_->Depth();
  if (impl_->options.node_counts) event.nodes_before = impl_->CountNodes(mod);
  event.start_ns = impl_->Now();  // after counting: the event times the pass, not the count
  impl_->open.emplace_back(impl_->events.size(), mod);
  impl_->events.push_back(std::move(event));
}

void ChromeTraceInstrument::run_after_pass_status(const ir::IRModule& mod,
                                                  const transform::PassInfo& info,
                                                  PassStatus status) {
  const int64_t now = impl_->Now();
  if (transform::IsSkipped(status)) {
    Event event;
    event.name = info.name;
    event.opt_level = info.opt_level;
    event.depth = impl_->Depth();
    event.start_ns = now;
    event.status = status;
    if (impl_->options.node_counts) event.nodes_before = impl_->CountNodes(mod);
    impl_->events.push_back(std::move(event));
    return;
  }
  if (impl_->open.empty()) return;
  auto [index, input] = std::move(impl_->open.back());
  impl_->open.pop_back();
  Event& event = impl_->events[index];
  event.duration_ns = now - event.start_ns;
  event.status = status;
  if (status != PassStatus::kOk) return;
  if (impl_->options.node_counts) event.nodes_after = impl_->CountNodes(mod);
  if (impl_->options.changed) event.changed = impl_->Changed(input, mod);
}

std::string ChromeTraceInstrument::ToJson() const {
  std::string out = "{\"traceEvents\": [\n";
  out +=
      "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": 1, \"args\": {\"name\": ";
  AppendJsonString(&out, impl_->options.process_name);
  out += "}},\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": 1, ";
  out += "\"args\": {\"name\": \"passes\"}}";
  for (const Event& event : impl_->events) {
    out += ",\n{\"name\": ";
    AppendJsonString(&out, event.name);
    out += ", \"cat\": \"pass\", \"ph\": \"X\", \"ts\": " + Micros(event.start_ns) +
           ", \"dur\": " + Micros(event.duration_ns) + ", \"pid\": 1, \"tid\": 1, \"args\": {";
    out += "\"status\": ";
    AppendJsonString(&out, transform::PassStatusName(event.status));
    if (transform::IsSkipped(event.status)) {
      out += ", \"skip_reason\": ";
      AppendJsonString(&out, SkipReason(event.status));
    }
    out += ", \"opt_level\": " + std::to_string(event.opt_level);
    out += ", \"depth\": " + std::to_string(event.depth);
    if (event.nodes_before) out += ", \"nodes_before\": " + std::to_string(*event.nodes_before);
    if (event.nodes_after) out += ", \"nodes_after\": " + std::to_string(*event.nodes_after);
    if (event.changed) out += std::string(", \"changed\": ") + (*event.changed ? "true" : "false");
    out += "}}";
  }
  out += "\n], \"displayTimeUnit\": \"ms\"}\n";
  return out;
}

void ChromeTraceInstrument::WriteFile(const std::string& path) const {
  std::ofstream file(path, std::ios::binary);
  if (!file) throw Error("cannot open trace file '" + path + "' for writing");
  file << ToJson();
  if (!file.flush()) throw Error("cannot write trace file '" + path + "'");
}

}  // namespace relaypass::tools
