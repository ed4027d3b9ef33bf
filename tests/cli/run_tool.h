// Running the built relay-opt from tests: arguments in, exit code, stdout and stderr out.
#pragma once

#include <string>
#include <vector>

namespace relay_opt::testing {

struct ToolResult {
  int exit_code = -1;  // the exit status, or -1 if the tool did not exit normally
  std::string out;
  std::string err;
  // The first line of stderr (without its newline).
  std::string first_err_line() const;
};

// Runs RELAYPASS_BINARY_DIR/relay-opt with `args` (posix_spawn, no shell), feeding `stdin_text`
// on its standard input.
ToolResult RunTool(const std::vector<std::string>& args, const std::string& stdin_text = "");

// Runs a shell command line; `$RELAY_OPT` in it is the tool's path. For pipelines.
ToolResult RunShell(const std::string& command);

// The path of the tool.
std::string ToolPath();

// A fresh directory for the test's files (under $TMPDIR or /tmp), removed by the destructor.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string path(const std::string& name) const { return dir_ + "/" + name; }

 private:
  std::string dir_;
};

std::string ReadFile(const std::string& path);
void WriteFile(const std::string& path, const std::string& content);
// `text` without trailing spaces and newlines.
std::string TrimRight(std::string text);

}  // namespace relay_opt::testing
