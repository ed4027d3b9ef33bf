// Running the built relay-opt from the bad-input tests (popen, stderr to a file) and checking its
// failures: exit status 1, nothing on stdout, and one `relay-opt: error: ...` diagnostic.
#pragma once

#include <gtest/gtest.h>

#include <string>

namespace relaypass::bad_input {

struct ToolRun {
  int exit_code = -1;  // -1 if the tool did not exit normally (a crash)
  std::string out;
  std::string err;
  std::string first_err_line() const { return err.substr(0, err.find('\n')); }
};

// A fresh directory under $TMPDIR (or /tmp), removed with its files by the destructor.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  std::string path(const std::string& name) const { return dir_ + "/" + name; }

 private:
  std::string dir_;
};

void WriteFile(const std::string& path, const std::string& content);
std::string ReadFile(const std::string& path);

// `text` in single quotes for /bin/sh.
std::string ShellQuote(const std::string& text);

// Runs `RELAYPASS_BINARY_DIR/relay-opt ARGS` through popen; `args` is shell text (quote each
// argument with ShellQuote). Stdin is /dev/null unless `args` redirects it.
ToolRun RunRelayOpt(const std::string& args);

// A failed run: exit status 1, empty stdout, and a first stderr line that starts with
// "relay-opt: error: " + `prefix`.
void ExpectToolError(const ToolRun& run, const std::string& prefix);

}  // namespace relaypass::bad_input
