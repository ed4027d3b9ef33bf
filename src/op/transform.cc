#include "families.h"

namespace relaypass::op {

void RegisterTransformOps(OpRegistry& registry) { (void)registry; }

}  // namespace relaypass::op
