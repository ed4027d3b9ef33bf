// libFuzzer target: TVM parameter files and relaypass artifacts from arbitrary bytes (the
// property is in runtime_files_property.h). Built by `make fuzz FUZZER=runtime_files_fuzzer`
// with clang; see docs/artifact.md.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "runtime_files_property.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string failure =
      relaypass::fuzz::CheckRuntimeFiles({reinterpret_cast<const char*>(data), size});
  if (!failure.empty()) {
    std::fprintf(stderr, "runtime files property failed: %s\n", failure.c_str());
    std::abort();
  }
  return 0;
}
