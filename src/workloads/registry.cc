#include <charconv>
#include <cstdint>

#include "relaypass/support/error.h"
#include "relaypass/workloads/init.h"
#include "relaypass/workloads/mobilenet.h"
#include "relaypass/workloads/resnet.h"
#include "relaypass/workloads/workloads.h"

namespace relaypass::workloads {

namespace {

// The longest "chain-N" (workloads.h).
constexpr int64_t kMaxChainLength = 10'000'000;

// "<prefix>N" -> N, or -1 if `name` is not of that form.
int64_t NumberAfter(const std::string& name, const std::string& prefix) {
  if (name.rfind(prefix, 0) != 0) return -1;
  int64_t n = -1;
  const char* begin = name.data() + prefix.size();
  const char* end = name.data() + name.size();
  auto [ptr, ec] = std::from_chars(begin, end, n);
  // Out of int64's range is still "of that form": too large, not unknown.
  if (ec == std::errc::result_out_of_range && ptr == end) return INT64_MAX;
  if (ec != std::errc() || ptr != end || n < 0) return -1;
  return n;
}

}  // namespace

std::vector<std::string> WorkloadNames() {
  return {"example",   "chain-N",    "resnet-18",  "resnet-34",
          "resnet-50", "resnet-101", "resnet-152", "mobilenet"};
}

Workload GetWorkload(const std::string& name, const WorkloadOptions& options) {
  if (name == "example") return {ir::IRModule::FromExpr(Example()), {}};
  if (int64_t n = NumberAfter(name, "chain-"); n >= 0) {
    if (n > kMaxChainLength) {
      throw Error("workload '" + name + "': a chain has at most " +
                  std::to_string(kMaxChainLength) + " ops");
    }
    return {ir::IRModule::FromExpr(Chain(n)), {}};
  }
  if (int64_t n = NumberAfter(name, "resnet-"); n >= 0 && n <= 1000) {
    ResNetOptions resnet;
    resnet.num_layers = static_cast<int>(n);
    resnet.batch_size = options.batch_size;
    resnet.layout = options.layout;
    return CreateWorkload(ResNet(resnet));
  }
  if (name == "mobilenet") {
    MobileNetOptions mobilenet;
    mobilenet.batch_size = options.batch_size;
    mobilenet.layout = options.layout;
    return CreateWorkload(MobileNet(mobilenet));
  }
  std::string known;
  for (const std::string& w : WorkloadNames()) known += (known.empty() ? "" : ", ") + w;
  throw Error("unknown workload '" + name + "' (known: " + known + ")");
}

}  // namespace relaypass::workloads
