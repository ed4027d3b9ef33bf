// libFuzzer target: the ONNX importer on arbitrary bytes (the property is in
// onnx_import_property.h). Built and run by `make fuzz FUZZER=onnx_fuzzer` with clang; seeds are
// the one-op models of ONNX's backend tests. See docs/reliability.md.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "onnx_import_property.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string failure =
      relaypass::fuzz::CheckOnnxImport({reinterpret_cast<const char*>(data), size});
  if (!failure.empty()) {
    std::fprintf(stderr, "onnx import property failed: %s\n", failure.c_str());
    std::abort();
  }
  return 0;
}
