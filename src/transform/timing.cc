#include "relaypass/transform/timing.h"

#include <iomanip>
#include <iostream>
#include <mutex>
#include <sstream>
#include <tuple>
#include <vector>

#include "relaypass/support/error.h"

namespace relaypass::transform {

namespace {

using Micros = std::chrono::duration<double, std::micro>;

// One pass invocation; children are indices into the record list, in execution order.
struct Record {
  std::string name;
  std::chrono::steady_clock::time_point start;
  Micros duration{0};
  std::vector<size_t> children;
};

}  // namespace

struct PassTimingInstrument::Impl {
  Clock clock;
  mutable std::mutex mutex;
  std::vector<Record> records;
  std::vector<size_t> top_level;
  std::vector<size_t> open;  // the invocations running now, innermost last
};

PassTimingInstrument::PassTimingInstrument(Clock clock) : impl_(std::make_unique<Impl>()) {
  impl_->clock = clock ? std::move(clock) : Clock([] { return std::chrono::steady_clock::now(); });
}

PassTimingInstrument::~PassTimingInstrument() = default;

void PassTimingInstrument::exit_pass_ctx() {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->records.clear();
  impl_->top_level.clear();
  impl_->open.clear();
}

void PassTimingInstrument::run_before_pass(const ir::IRModule&, const PassInfo& info) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  const size_t index = impl_->records.size();
  impl_->records.push_back(Record{info.name, impl_->clock(), Micros(0), {}});
  if (impl_->open.empty()) {
    impl_->top_level.push_back(index);
  } else {
    impl_->records[impl_->open.back()].children.push_back(index);
  }
  impl_->open.push_back(index);
}

void PassTimingInstrument::run_after_pass_status(const ir::IRModule&, const PassInfo&,
                                                 PassStatus status) {
  if (IsSkipped(status)) return;  // no run_before_pass was called for it
  std::lock_guard<std::mutex> lock(impl_->mutex);
  if (impl_->open.empty()) return;  // the context was left while the pass ran
  Record& record = impl_->records[impl_->open.back()];
  record.duration = std::chrono::duration_cast<Micros>(impl_->clock() - record.start);
  impl_->open.pop_back();
}

std::string PassTimingInstrument::render() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  if (!impl_->open.empty()) throw PassError("cannot render the pass profile while a pass runs");
  if (impl_->top_level.empty()) {
    std::cerr << "Warning: no passes have been profiled, did you enable pass profiling?\n";
    return "";
  }
  const std::vector<Record>& records = impl_->records;
  Micros top_total(0);
  for (size_t index : impl_->top_level) top_total += records[index].duration;
  // TVM's RenderPassProfiles: an explicit stack of (depth, parent total, record).
  std::vector<std::tuple<size_t, Micros, size_t>> stack;
  for (auto it = impl_->top_level.rbegin(); it != impl_->top_level.rend(); ++it) {
    stack.emplace_back(0, top_total, *it);
  }
  std::ostringstream os;
  os << std::fixed;
  while (!stack.empty()) {
    auto [depth, parent_total, index] = stack.back();
    stack.pop_back();
    const Record& record = records[index];
    Micros self = record.duration;
    for (auto it = record.children.rbegin(); it != record.children.rend(); ++it) {
      self -= records[*it].duration;
      stack.emplace_back(depth + 1, record.duration, *it);
    }
    const double pct_parent = record.duration.count() / parent_total.count() * 100.0;
    const double pct_total = record.duration.count() / top_total.count() * 100.0;
    os << std::string(depth, '\t') << record.name << ": " << std::setprecision(0)
       << record.duration.count() << "us [" << self.count() << "us] " << std::setprecision(2) << "("
       << pct_total << "%; " << pct_parent << "%)\n";
  }
  return os.str();
}

}  // namespace relaypass::transform
