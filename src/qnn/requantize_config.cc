// relay.qnn.op.requantize_config: a per-thread stack of configs; the default is TVM's for CPU.
#include <vector>

#include "relaypass/qnn/qnn.h"
#include "relaypass/support/error.h"

namespace relaypass::qnn {

namespace {

std::vector<RequantizeConfig>& Stack() {
  thread_local std::vector<RequantizeConfig> stack;
  return stack;
}

}  // namespace

const RequantizeConfig& CurrentRequantizeConfig() {
  static const RequantizeConfig kDefault;
  return Stack().empty() ? kDefault : Stack().back();
}

void EnterRequantizeConfig(RequantizeConfig config) {
  if (config.rounding != "UPWARD" && config.rounding != "TONEAREST") {
    throw ValueError("requantize_config: rounding must be UPWARD or TONEAREST, got \"" +
                     config.rounding + "\"");
  }
  if (config.compute_dtype != "int64" && config.compute_dtype != "float32" &&
      config.compute_dtype != "float64") {
    throw ValueError("requantize_config: compute_dtype must be int64, float32 or float64, got \"" +
                     config.compute_dtype + "\"");
  }
  Stack().push_back(std::move(config));
}

void ExitRequantizeConfig() {
  if (Stack().empty()) throw InternalError("requantize_config: exit without enter");
  Stack().pop_back();
}

}  // namespace relaypass::qnn
