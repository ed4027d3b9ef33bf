// Issue 5's acceptance: examples/pass_infra_tutorial prints what "How to Use TVM Pass Infra"
// prints (its printed output is kept in tests/data/pass_infra_tutorial/), line for line; blank
// lines are not significant (Python's print adds them around PassInfo and modules).
#include <gtest/gtest.h>

#include "example_runner.h"

#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::vector<std::string> NonBlankLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    while (!line.empty() && line.back() == ' ') line.pop_back();
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

TEST(PassInfraTutorialTest, PrintsWhatTheTutorialPrints) {
  std::vector<std::string> expected = NonBlankLines(relaypass::conformance::ReadFile(
      RELAYPASS_TEST_DATA "/pass_infra_tutorial/expected_output.txt"));
  ASSERT_GT(expected.size(), 100u);
  int status = -1;
  std::vector<std::string> actual =
      NonBlankLines(relaypass::conformance::RunExample("pass_infra_tutorial", &status));
  EXPECT_EQ(status, 0);
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(actual[i], expected[i]) << "line " << i + 1;
  }
}

}  // namespace
