// Issue 5's acceptance: examples/pass_infra_tutorial prints what "How to Use TVM Pass Infra"
// prints (its printed output is kept in tests/data/pass_infra_tutorial/), line for line; blank
// lines are not significant (Python's print adds them around PassInfo and modules).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string RunCommand(const std::string& command, int* status) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  std::string out;
  if (!pipe) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), pipe.get())) > 0) out.append(buf, n);
  *status = pclose(pipe.release());
  return out;
}

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
  std::vector<std::string> expected =
      NonBlankLines(ReadFile(RELAYPASS_TEST_DATA "/pass_infra_tutorial/expected_output.txt"));
  ASSERT_GT(expected.size(), 100u);
  int status = -1;
  std::vector<std::string> actual = NonBlankLines(
      RunCommand(RELAYPASS_BINARY_DIR "/examples/pass_infra_tutorial 2>/dev/null", &status));
  EXPECT_EQ(status, 0);
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(actual[i], expected[i]) << "line " << i + 1;
  }
}

}  // namespace
