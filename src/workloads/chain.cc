#include "relaypass/relay.h"
#include "relaypass/workloads/workloads.h"

namespace relaypass::workloads {

ir::Function Chain(int64_t n) {
  relay::Var x = relay::var("x", {1, 16});
  relay::Expr y = x;
  for (int64_t i = 0; i < n; ++i) {
    y = i % 2 == 0 ? relay::add(y, relay::const_(1.0f)) : relay::nn::relu(y);
  }
  return relay::function({x}, y);
}

}  // namespace relaypass::workloads
