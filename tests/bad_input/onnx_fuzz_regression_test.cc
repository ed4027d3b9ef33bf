// Every input the ONNX importer fuzzer (fuzz/onnx_fuzzer.cc) found to break its property, kept in
// tests/bad_input/onnx_fuzz_crashes/ and replayed here under the fuzzer's own property: a
// relaypass::Error, or a typed module whose text reads back.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "../../fuzz/onnx_import_property.h"
#include "tool.h"

namespace relaypass::bad_input {
namespace {

TEST(OnnxFuzzRegressionTest, EveryFoundInputHoldsTheFuzzProperty) {
  const std::filesystem::path dir =
      std::filesystem::path(RELAYPASS_TEST_DATA).parent_path() / "bad_input" / "onnx_fuzz_crashes";
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".onnx") continue;
    SCOPED_TRACE(entry.path().filename().string());
    EXPECT_EQ(fuzz::CheckOnnxImport(ReadFile(entry.path().string())), "");
    ++count;
  }
  EXPECT_GT(count, 0);
}

}  // namespace
}  // namespace relaypass::bad_input
