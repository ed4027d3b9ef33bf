#include "families.h"

namespace relaypass::op {

void RegisterReduceOps(OpRegistry& registry) { (void)registry; }

}  // namespace relaypass::op
