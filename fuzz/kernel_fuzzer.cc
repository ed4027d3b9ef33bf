// libFuzzer target: every registered operator with a kernel, with fuzzed attributes and small
// fuzzed argument shapes and dtypes, through type inference and the evaluator (the property is
// in kernel_call_property.h). Built by `make fuzz FUZZER=kernel_fuzzer` with clang; see
// docs/reliability.md.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>

#include "kernel_call_property.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    relaypass::fuzz::CheckKernelCall(data, size);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kernel fuzzer: an exception that is not a relaypass::Error: %s\n",
                 e.what());
    std::abort();
  }
  return 0;
}
