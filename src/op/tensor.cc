#include "families.h"

namespace relaypass::op {

void RegisterTensorOps(OpRegistry& registry) { (void)registry; }

}  // namespace relaypass::op
