#include "torch_input.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "relaypass/ir/bind.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/runtime/param_dict.h"
#include "relaypass/support/error.h"

extern char** environ;

namespace relay_opt {

namespace {

namespace fs = std::filesystem;

bool EndsWith(const std::string& s, const std::string& end) {
  return s.size() > end.size() && s.compare(s.size() - end.size(), end.size(), end) == 0;
}

// A temporary folder removed when this goes out of scope.
struct TempDir {
  std::string path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "relay-opt-torch-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw relaypass::Error("cannot make a temporary folder");
    path = tmpl;
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

// The folder holding the relaypass package in a build tree (BUILD/python next to BUILD/relay-opt),
// or "" when relay-opt runs from elsewhere.
std::string PackageDir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return "";
  const fs::path dir = exe.parent_path() / "python";
  return fs::exists(dir / "relaypass" / "__init__.py", ec) ? dir.string() : "";
}

// Runs the frontend (no shell: the arguments go to the interpreter as they are) with its stderr
// in `stderr_path`; returns its exit status.
int RunFrontend(const std::vector<std::string>& args, const std::string& stderr_path) {
  std::vector<std::string> env;
  const std::string package = PackageDir();
  for (char** e = environ; *e; ++e) {
    const std::string entry = *e;
    if (entry.rfind("PYTHONPATH=", 0) == 0) continue;
    env.push_back(entry);
  }
  const char* old_path = std::getenv("PYTHONPATH");
  std::string python_path = package;
  if (old_path && *old_path)
    python_path += (python_path.empty() ? "" : ":") + std::string(old_path);
  if (!python_path.empty()) env.push_back("PYTHONPATH=" + python_path);
  std::vector<char*> argv, envp;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (const std::string& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, stderr_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    throw relaypass::Error("cannot run " + args[0] +
                           " for the PyTorch frontend: " + std::strerror(spawned) +
                           " (set RELAYPASS_PYTHON to a python3 with torch)");
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw relaypass::Error("waiting for the PyTorch frontend failed");
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

bool IsTorchInput(const Options& o) {
  if (o.input_format != "auto") return o.input_format == "torch";
  return EndsWith(o.input, ".pt") || EndsWith(o.input, ".pth");
}

LoadedModule LoadTorch(const Options& o) {
  if (o.input == "-") throw relaypass::Error("a TorchScript model is read from a file, not stdin");
  if (o.input_shapes.empty()) {
    throw relaypass::Error(o.input +
                           ": a TorchScript model needs --input-shape NAME=D1,D2,... "
                           "for each of its inputs, in order");
  }
  TempDir dir;
  const char* python = std::getenv("RELAYPASS_PYTHON");
  std::vector<std::string> args = {python && *python ? python : "/usr/bin/python3", "-m",
                                   "relaypass.relay.frontend.pytorch.file_export", o.input,
                                   dir.path};
  args.insert(args.end(), o.input_shapes.begin(), o.input_shapes.end());
  const std::string errors_path = dir.path + "/stderr.txt";
  const int status = RunFrontend(args, errors_path);
  if (status != 0) {
    std::string errors = ReadText(errors_path, {.max_bytes = 1 << 20, .text = true});
    // The frontend's last line is its one-line error (a traceback's last line otherwise).
    while (!errors.empty() && errors.back() == '\n') errors.pop_back();
    const size_t start = errors.rfind('\n');
    throw relaypass::Error(o.input + ": the PyTorch frontend failed: " +
                           (start == std::string::npos ? errors : errors.substr(start + 1)));
  }
  const std::string text = ReadText(dir.path + "/model.relay", {.max_bytes = o.max_input_size});
  LoadedModule loaded{
      ParseModuleText(text, o.input),
      relaypass::runtime::LoadParamDict(
          ReadText(dir.path + "/model.params", {.max_bytes = UINT64_MAX >> 1, .text = false}),
          o.input)};
  if (!o.bind_params || loaded.params.empty()) return loaded;
  relaypass::ir::IRModule mod = loaded.mod;
  mod.Add("main", relaypass::ir::BindParamsByName(mod.Lookup("main"), loaded.params));
  return {relaypass::ir::InferTypes(mod), {}};  // typed as parsed: the constants get types too
}

}  // namespace relay_opt
