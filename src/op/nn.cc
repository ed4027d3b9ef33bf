#include "families.h"

namespace relaypass::op {

void RegisterNNOps(OpRegistry& registry) { (void)registry; }

}  // namespace relaypass::op
