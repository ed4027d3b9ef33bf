// Every input the parser fuzzer (fuzz/parser_fuzzer.cc) found to crash or to break the
// print -> parse round trip, kept in tests/bad_input/fuzz_crashes/ and replayed here under the
// fuzzer's own property: a relaypass::Error, or a module that round-trips.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "../../fuzz/parse_roundtrip.h"
#include "tool.h"

namespace relaypass::bad_input {
namespace {

TEST(FuzzRegressionTest, EveryFoundInputHoldsTheFuzzProperty) {
  const std::filesystem::path dir =
      std::filesystem::path(RELAYPASS_TEST_DATA).parent_path() / "bad_input" / "fuzz_crashes";
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (!entry.is_regular_file() || entry.path().filename() == "README.md") continue;
    SCOPED_TRACE(entry.path().filename().string());
    EXPECT_EQ(fuzz::CheckParseRoundTrip(ReadFile(entry.path().string())), "");
    ++count;
  }
  EXPECT_GT(count, 0);
}

}  // namespace
}  // namespace relaypass::bad_input
