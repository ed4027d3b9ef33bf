// AdviseHugePages only advises: memory it is given stays usable and keeps what is written to it,
// whatever the range's alignment and size (it marks only the whole 2 MiB pages inside the range).
#include <gtest/gtest.h>

#include <string>

#include "relaypass/support/table_allocator.h"

namespace relaypass::support {
namespace {

TEST(HugePagesTest, AdvisedMemoryKeepsItsContents) {
  for (size_t size : {size_t{0}, size_t{100}, (size_t{4} << 20) - 1, (size_t{9} << 20) + 13}) {
    std::string buffer;
    buffer.reserve(size + 7);
    AdviseHugePages(buffer.data() + 7, size);  // an unaligned start
    buffer.resize(size + 7);
    for (size_t i = 0; i < buffer.size(); i += 4093) buffer[i] = static_cast<char>(i % 251);
    for (size_t i = 0; i < buffer.size(); i += 4093) {
      ASSERT_EQ(buffer[i], static_cast<char>(i % 251)) << size << " at " << i;
    }
  }
}

}  // namespace
}  // namespace relaypass::support
