// Issue 6's acceptance: examples/pass_instrument_tutorial prints what "How to Use TVM Pass
// Instrument" prints (its printed output is kept in tests/data/pass_instrument_tutorial/): every
// line exactly, except the timing-profile lines, which are compared by pass name and nesting
// (times differ by machine). Blank lines are not significant.
#include <gtest/gtest.h>

#include "example_runner.h"

#include <cstdio>
#include <fstream>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

// A timing line becomes "<depth>:<name>"; other lines stay as they are.
std::vector<std::string> Normalize(const std::string& text) {
  static const std::regex kTiming(
      R"(^(\t*| *)([^\s:]+): \d+us \[-?\d+us\] \(\d+\.\d\d%; \d+\.\d\d%\)$)");
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
    if (line.empty()) continue;
    std::smatch m;
    if (std::regex_match(line, m, kTiming)) {
      std::string indent = m[1];
      size_t tabs = std::count(indent.begin(), indent.end(), '\t');
      size_t depth = tabs + (indent.size() - tabs) / 8;
      line = "timing " + std::to_string(depth) + ":" + m[2].str();
    }
    lines.push_back(line);
  }
  return lines;
}

TEST(PassInstrumentTutorialTest, PrintsWhatTheTutorialPrints) {
  std::vector<std::string> expected = Normalize(relaypass::conformance::ReadFile(
      RELAYPASS_TEST_DATA "/pass_instrument_tutorial/expected_output.txt"));
  ASSERT_GT(expected.size(), 150u);
  int status = -1;
  std::vector<std::string> actual =
      Normalize(relaypass::conformance::RunExample("pass_instrument_tutorial", &status));
  EXPECT_EQ(status, 0);
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(actual[i], expected[i]) << "line " << i + 1;
  }
}

TEST(PassInstrumentTutorialTest, ExceptionHandlingIsOneBlockOfTheOutput) {
  const std::string expected = relaypass::conformance::ReadFile(
      RELAYPASS_TEST_DATA "/pass_instrument_tutorial/exception_handling.txt");
  ASSERT_FALSE(expected.empty());
  int status = -1;
  const std::string out = relaypass::conformance::RunExample("pass_instrument_tutorial", &status);
  EXPECT_EQ(status, 0);
  EXPECT_NE(out.find(expected), std::string::npos) << "output was:\n" << out;
}

}  // namespace
