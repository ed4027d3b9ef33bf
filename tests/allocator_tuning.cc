// Linked into every test executable: the allocator tuning relay-opt uses, so the tests on
// million-node graphs do not spend their time in page faults.
#include "relaypass/support/allocator.h"

namespace {

const bool kTuned = [] {
  relaypass::support::TuneAllocatorForLargeGraphs();
  return true;
}();

}  // namespace
