// libFuzzer target: the Relay text parser with type inference and the print -> parse round trip
// (the property is in parse_roundtrip.h). Built by `make fuzz` with clang; see
// docs/reliability.md.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "parse_roundtrip.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string failure =
      relaypass::fuzz::CheckParseRoundTrip({reinterpret_cast<const char*>(data), size});
  if (!failure.empty()) {
    std::fprintf(stderr, "round-trip failure: %s\n", failure.c_str());
    std::abort();
  }
  return 0;
}
