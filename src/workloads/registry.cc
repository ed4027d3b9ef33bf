#include <charconv>

#include "relaypass/support/error.h"
#include "relaypass/workloads/workloads.h"

namespace relaypass::workloads {

namespace {

// "chain-N" -> N, or -1 if `name` is not of that form.
int64_t ChainLength(const std::string& name) {
  const std::string prefix = "chain-";
  if (name.rfind(prefix, 0) != 0) return -1;
  int64_t n = -1;
  const char* begin = name.data() + prefix.size();
  const char* end = name.data() + name.size();
  auto [ptr, ec] = std::from_chars(begin, end, n);
  if (ec != std::errc() || ptr != end || n < 0) return -1;
  return n;
}

}  // namespace

std::vector<std::string> WorkloadNames() {
  return {"example", "chain-N"};
}

Workload GetWorkload(const std::string& name, const WorkloadOptions& options) {
  if (name == "example") return {ir::IRModule::FromExpr(Example()), {}};
  if (int64_t n = ChainLength(name); n >= 0) return {ir::IRModule::FromExpr(Chain(n)), {}};
  std::string known;
  for (const std::string& w : WorkloadNames()) known += (known.empty() ? "" : ", ") + w;
  throw Error("unknown workload '" + name + "' (known: " + known + ")");
}

}  // namespace relaypass::workloads
