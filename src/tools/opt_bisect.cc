#include "relaypass/tools/opt_bisect.h"

#include <ostream>

namespace relaypass::tools {

OptBisectInstrument::OptBisectInstrument(OptBisectOptions options) : options_(std::move(options)) {}

bool OptBisectInstrument::should_run(const ir::IRModule& /*mod*/, const transform::PassInfo& info) {
  if (options_.containers.count(info.name)) return true;
  names_.push_back(info.name);
  const int64_t number = count();
  const bool run = options_.limit < 0 || number <= options_.limit;
  if (options_.out) {
    *options_.out << "BISECT: " << (run ? "running" : "NOT running") << " pass (" << number << ") "
                  << info.name << " on module\n";
    options_.out->flush();
  }
  return run;
}

}  // namespace relaypass::tools
