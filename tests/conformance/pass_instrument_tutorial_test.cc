// The instrument tutorial's "Exception Handling" part: examples/pass_instrument_tutorial must
// print exactly what the tutorial prints for it (kept in tests/data/pass_instrument_tutorial/).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The stdout of `command`; the exit status goes to *status.
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

TEST(PassInstrumentTutorialTest, ExceptionHandlingPrintsWhatTheTutorialPrints) {
  const std::string expected =
      ReadFile(RELAYPASS_TEST_DATA "/pass_instrument_tutorial/exception_handling.txt");
  ASSERT_FALSE(expected.empty());
  int status = -1;
  const std::string out =
      RunCommand(RELAYPASS_BINARY_DIR "/examples/pass_instrument_tutorial 2>/dev/null", &status);
  EXPECT_EQ(status, 0);
  // The section appears as one block of the program's output.
  EXPECT_NE(out.find(expected), std::string::npos) << "output was:\n" << out;
}

}  // namespace
