#include "relaypass/tools/reproducer.h"

#include <fcntl.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <fstream>
#include <sstream>

#include "relaypass/support/error.h"
#include "relaypass/text/printer.h"

namespace relaypass::tools {

namespace {

constexpr const char* kTitle =
    "// relay-opt reproducer: `relay-opt --run-reproducer FILE` runs it again\n";

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

// What the handler writes, rendered before any pass runs. Set and read only on the main thread;
// the handler reads it without locks (it never changes while passes run).
struct CrashState {
  std::string path;
  std::string text;
  std::string messages[sizeof(kSignals) / sizeof(kSignals[0])];  // header line per signal
  std::string notes[sizeof(kSignals) / sizeof(kSignals[0])];     // stderr line per signal
  bool installed = false;
};
CrashState& State() {
  static CrashState* state = new CrashState();  // never destroyed: a handler may run at exit
  return *state;
}

void WriteAll(int fd, const std::string& data) {
  const char* p = data.data();
  size_t left = data.size();
  while (left > 0) {
    const ssize_t n = write(fd, p, left);
    if (n <= 0) return;
    p += n;
    left -= static_cast<size_t>(n);
  }
}

void OnCrash(int signal) {
  const CrashState& state = State();
  size_t index = 0;
  while (index < std::size(kSignals) && kSignals[index] != signal) ++index;
  if (index < std::size(kSignals)) {
    const int fd = open(state.path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) {
      WriteAll(fd, kTitle);
      WriteAll(fd, state.messages[index]);
      WriteAll(fd, state.text);
      close(fd);
      WriteAll(STDERR_FILENO, state.notes[index]);
    }
  }
  // SA_RESETHAND restored the default action: the signal now does what it would have done.
  raise(signal);
}

std::string SignalName(int signal) {
  switch (signal) {
    case SIGSEGV:
      return "SIGSEGV";
    case SIGBUS:
      return "SIGBUS";
    case SIGFPE:
      return "SIGFPE";
    case SIGILL:
      return "SIGILL";
    case SIGABRT:
      return "SIGABRT";
    default:
      return std::to_string(signal);
  }
}

}  // namespace

std::string RenderReproducer(const ir::IRModule& mod, const std::vector<std::string>& args,
                             const std::string& reason) {
  std::string out;
  if (!reason.empty()) {
    std::istringstream lines(reason);
    std::string line;
    while (std::getline(lines, line)) out += "// reason: " + line + "\n";
  }
  for (const std::string& arg : args) out += kReproducerArgPrefix + arg + "\n";
  return out + text::AsText(mod);
}

std::vector<std::string> ReproducerArgs(const std::string& text, const std::string& source_name) {
  std::vector<std::string> args;
  bool titled = false;
  std::istringstream lines(text);
  std::string line;
  const std::string prefix = kReproducerArgPrefix;
  while (std::getline(lines, line)) {
    if (line.rfind("//", 0) != 0) break;  // the header ends at the module
    if (line.rfind(prefix, 0) == 0) args.push_back(line.substr(prefix.size()));
    if (line.rfind("// relay-opt reproducer", 0) == 0) titled = true;
  }
  if (args.empty() && !titled) {
    throw Error(source_name + " is not a relay-opt reproducer (no '" + prefix +
                "' lines before the module)");
  }
  return args;
}

void WriteReproducer(const std::string& path, const std::string& text) {
  std::ofstream file(path, std::ios::binary);
  if (!file) throw Error("cannot open reproducer file '" + path + "'");
  file << kTitle << text;
  if (!file.flush()) throw Error("cannot write reproducer file '" + path + "'");
}

void InstallCrashReproducer(const std::string& path, const std::string& text,
                            const std::string& program) {
  CrashState& state = State();
  if (path.empty()) {
    if (state.installed) {
      for (int signal : kSignals) std::signal(signal, SIG_DFL);
    }
    state.installed = false;
    return;
  }
  state.path = path;
  state.text = text;
  for (size_t i = 0; i < std::size(kSignals); ++i) {
    state.messages[i] = "// reason: crashed with signal " + SignalName(kSignals[i]) + "\n";
    state.notes[i] = program + ": crashed with signal " + SignalName(kSignals[i]) +
                     "; reproducer written to " + path + "\n";
  }
  if (state.installed) return;
  struct sigaction action;
  std::memset(&action, 0, sizeof(action));
  action.sa_handler = OnCrash;
  action.sa_flags = SA_RESETHAND | SA_NODEFER;
  sigemptyset(&action.sa_mask);
  for (int signal : kSignals) sigaction(signal, &action, nullptr);
  state.installed = true;
}

}  // namespace relaypass::tools
