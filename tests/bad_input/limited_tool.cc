#include "limited_tool.h"

#include <sys/wait.h>

#include <cstdio>

namespace relaypass::bad_input {

namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
// The sanitizers reserve terabytes of address space for their shadow memory, and run slower.
constexpr const char* kLimits = "exec timeout 120 ";
#else
constexpr const char* kLimits = "ulimit -v 8000000; exec timeout 20 ";
#endif

}  // namespace

ToolRun RunLimited(const std::string& text, const std::string& args) {
  ScratchDir dir;
  const std::string input = dir.path("input.relay");
  WriteFile(input, text);
  const std::string err_path = dir.path("stderr");
  const std::string command =
      kLimits + ShellQuote(std::string(RELAYPASS_BINARY_DIR) + "/relay-opt") + " " +
      ShellQuote(input) + " " + args + " </dev/null 2>" + ShellQuote(err_path);
  ToolRun run;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) {
    run.err = "popen failed";
    return run;
  }
  char buffer[4096];
  size_t n = 0;
  while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0) run.out.append(buffer, n);
  const int status = pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.err = ReadFile(err_path);
  return run;
}

}  // namespace relaypass::bad_input
