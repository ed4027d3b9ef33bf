#include "tool.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace relaypass::bad_input {

ScratchDir::ScratchDir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/relaypass-bad-input-XXXXXX";
  if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
  dir_ = pattern;
}

ScratchDir::~ScratchDir() {
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

void WriteFile(const std::string& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary);
  out << content;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string ShellQuote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

ToolRun RunRelayOpt(const std::string& args) {
  ScratchDir dir;
  const std::string err_path = dir.path("stderr");
  const std::string command = ShellQuote(std::string(RELAYPASS_BINARY_DIR) + "/relay-opt") + " " +
                              args + " </dev/null 2>" + ShellQuote(err_path);
  ToolRun run;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) {
    run.err = "popen failed";
    return run;
  }
  char buffer[65536];
  size_t n = 0;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) run.out.append(buffer, n);
  const int status = pclose(pipe);
  run.exit_code = status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.err = ReadFile(err_path);
  return run;
}

void ExpectToolError(const ToolRun& run, const std::string& prefix) {
  const std::string expected = "relay-opt: error: " + prefix;
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.first_err_line().substr(0, expected.size()), expected) << "stderr:\n"
                                                                       << run.err.substr(0, 2000);
  // One diagnostic: the first line is short enough to read, whatever the input.
  EXPECT_LT(run.first_err_line().size(), 1000u) << run.err.substr(0, 2000);
}

}  // namespace relaypass::bad_input
