#include "input.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <utility>
#include <vector>

#include "relaypass/frontend/onnx.h"
#include "relaypass/ir/bind.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/runtime/module_file.h"
#include "relaypass/support/error.h"
#include "relaypass/text/parser.h"
#include "relaypass/workloads/workloads.h"
#include "torch_input.h"

namespace relay_opt {

namespace ir = relaypass::ir;

namespace {

// Closes a file descriptor this file opened.
struct FdCloser {
  int fd;
  ~FdCloser() {
    if (fd > STDIN_FILENO) close(fd);
  }
};

// Grows `text` to `size` bytes (its first `filled` bytes kept). A new buffer of 2 MiB or more
// asks for transparent huge pages first: on a virtual machine a 4 KiB page fault costs about
// 15 us, so zero-filling 1 GiB in small pages takes seconds (measured: 4.0 s against 0.8 s).
void GrowText(std::string& text, size_t filled, size_t size) {
  constexpr size_t kHuge = size_t{2} << 20;
  if (size > text.capacity() && size >= kHuge) {
    std::string bigger;
    bigger.reserve(size);
    const auto begin = reinterpret_cast<uintptr_t>(bigger.data());
    const uintptr_t aligned = (begin + kHuge - 1) & ~uintptr_t{kHuge - 1};
    const uintptr_t end = (begin + size) & ~uintptr_t{kHuge - 1};
    if (end > aligned) madvise(reinterpret_cast<void*>(aligned), end - aligned, MADV_HUGEPAGE);
    bigger.append(text.data(), filled);
    text.swap(bigger);
  }
  text.resize(size);
}

}  // namespace

std::string ReadInput(int fd, const std::string& what, const ReadLimits& limits,
                      size_t* nul_offset) {
  constexpr size_t kPiece = size_t{1} << 20;
  std::string text;
  // A regular file says its size: one allocation, and a file over the limit fails at once.
  struct stat st {};
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    if (static_cast<uint64_t>(st.st_size) > limits.max_bytes) {
      throw relaypass::Error(what + " is " + std::to_string(st.st_size) +
                             " bytes, over the input size limit of " +
                             std::to_string(limits.max_bytes) + " bytes (--max-input-size)");
    }
    GrowText(text, 0, static_cast<size_t>(st.st_size) + kPiece);
  }
  // `filled` bytes of `text` hold input; the rest is room for the next read. The room grows
  // geometrically (up to just past the limit), so that a pipe's small reads (64 KiB) do not
  // each zero-fill a new piece.
  size_t filled = 0;
  for (;;) {
    if (filled > limits.max_bytes) {
      throw relaypass::Error(what + " is longer than the input size limit of " +
                             std::to_string(limits.max_bytes) + " bytes (--max-input-size)");
    }
    if (text.size() - filled < kPiece) {
      GrowText(text, filled,
               std::max(filled + kPiece, std::min(2 * filled, limits.max_bytes + kPiece)));
    }
    const size_t want = text.size() - filled;
    ssize_t got;
    do {
      got = read(fd, text.data() + filled, want);
    } while (got < 0 && errno == EINTR);
    if (got < 0) {
      const int error = errno;
      throw relaypass::Error("cannot read " + what + ": " + std::strerror(error));
    }
    if (got == 0) break;
    const size_t old_size = filled;
    filled += static_cast<size_t>(got);
    if (limits.text) {
      const void* nul = std::memchr(text.data() + old_size, '\0', static_cast<size_t>(got));
      if (nul) {
        const size_t offset = static_cast<const char*>(nul) - text.data();
        if (!nul_offset) {
          throw relaypass::Error(what + " is not Relay text: byte 0x00 at offset " +
                                 std::to_string(offset));
        }
        text.resize(offset + 1);  // the text up to its first impossible byte, no further
        *nul_offset = offset;
        return text;
      }
    }
  }
  text.resize(filled);
  if (text.size() > limits.max_bytes) {
    throw relaypass::Error(what + " is longer than the input size limit of " +
                           std::to_string(limits.max_bytes) + " bytes (--max-input-size)");
  }
  return text;
}

std::string ReadText(const std::string& path, const ReadLimits& limits, size_t* nul_offset) {
  if (path == "-") return ReadInput(STDIN_FILENO, "stdin", limits, nul_offset);
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw relaypass::Error("cannot read input file '" + path + "': it is a directory");
  }
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int error = errno;
    throw relaypass::Error("cannot open input file '" + path + "': " + std::strerror(error));
  }
  FdCloser closer{fd};
  return ReadInput(fd, "input file '" + path + "'", limits, nul_offset);
}

ir::IRModule ParseModuleText(const std::string& text, const std::string& source_name) {
  relaypass::text::ParseOptions parse;
  parse.source_name = source_name;
  return relaypass::text::ParseModule(text, parse);
}

namespace {

// Relay text read up to its first NUL byte (`nul`, npos if none): the parser's error on that
// text names the first impossible byte (the NUL itself, or one before it, such as an ELF
// header's 0x7F); a NUL it would accept (in a comment) is an error all the same.
ir::IRModule ParseReadText(const std::string& text, const std::string& name, size_t nul) {
  if (nul == std::string::npos) return ParseModuleText(text, name);
  int line = 1;
  int column = 1;
  for (size_t i = 0; i < nul; ++i) {
    column = text[i] == '\n' ? 1 : column + 1;
    line += text[i] == '\n';
  }
  try {
    ParseModuleText(text, name);
  } catch (const relaypass::ParseError& e) {
    const bool before_nul =
        e.span().line < line || (e.span().line == line && e.span().column <= column);
    if (before_nul) throw;
  } catch (const relaypass::Error&) {
  }
  throw relaypass::Error(name + ":" + std::to_string(line) + ":" + std::to_string(column) +
                         ": unexpected character byte 0x00 (Relay text has no NUL bytes)");
}

// "NAME=D1,D2,..." (a scalar is "NAME=").
std::pair<std::string, std::vector<int64_t>> ParseInputShape(const std::string& spec) {
  const size_t eq = spec.rfind('=');
  if (eq == std::string::npos || eq == 0) {
    throw relaypass::Error("--input-shape: expected NAME=D1,D2,..., got '" + spec + "'");
  }
  std::vector<int64_t> dims;
  std::stringstream ss(spec.substr(eq + 1));
  std::string item;
  while (std::getline(ss, item, ',')) {
    try {
      size_t used = 0;
      const long long d = std::stoll(item, &used);
      if (used != item.size() || d < 0) throw std::invalid_argument(item);
      dims.push_back(d);
    } catch (const std::exception&) {
      throw relaypass::Error("--input-shape: '" + item + "' in '" + spec +
                             "' is not a non-negative dimension");
    }
  }
  return {spec.substr(0, eq), dims};
}

LoadedModule FromOnnx(relaypass::frontend::OnnxModel model) {
  return {std::move(model.mod), std::move(model.params)};
}

LoadedModule LoadOnnx(const Options& o) {
  relaypass::frontend::OnnxOptions options;
  for (const std::string& spec : o.input_shapes) options.shape.insert(ParseInputShape(spec));
  options.freeze_params = o.bind_params;
  // A regular file within the limit is read by the importer, which finds external tensor data
  // next to it; anything else (stdin, a pipe, a device, a file over the limit) is read here in
  // checked pieces first.
  struct stat st {};
  if (o.input != "-" && stat(o.input.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
      static_cast<uint64_t>(st.st_size) <= o.max_input_size) {
    return FromOnnx(relaypass::frontend::FromOnnxFile(o.input, options));
  }
  const ReadLimits limits{.max_bytes = o.max_input_size, .text = false};
  return FromOnnx(relaypass::frontend::FromOnnxBytes(ReadText(o.input, limits), options,
                                                     o.input == "-" ? "<stdin>" : o.input));
}

}  // namespace

LoadedModule LoadModule(const Options& o) {
  if (!o.input.empty() && IsTorchInput(o)) return LoadTorch(o);
  if (!o.input.empty() && IsOnnxInput(o)) return LoadOnnx(o);
  // A file export_library (or --export-library) wrote: its optimized module, constants included.
  if (!o.input.empty() && o.input != "-" && relaypass::runtime::IsArtifactFile(o.input)) {
    return {relaypass::runtime::LoadBuiltModule(o.input).mod, {}};
  }
  const ReadLimits limits{.max_bytes = o.max_input_size, .text = true};
  if (!o.input.empty()) {
    size_t nul = std::string::npos;
    const std::string text = ReadText(o.input, limits, &nul);
    return {ParseReadText(text, o.input == "-" ? "<stdin>" : o.input, nul), {}};
  }
  // `cat model.relay | relay-opt`, as opt reads a pipe.
  if (!o.workload_given && !o.bind_params && !isatty(STDIN_FILENO)) {
    size_t nul = std::string::npos;
    const std::string text = ReadInput(STDIN_FILENO, "stdin", limits, &nul);
    if (!text.empty()) return {ParseReadText(text, "<stdin>", nul), {}};
  }
  relaypass::workloads::WorkloadOptions options;
  options.layout = o.layout;
  options.batch_size = o.batch_size;
  relaypass::workloads::Workload workload = relaypass::workloads::GetWorkload(o.workload, options);
  if (!o.bind_params || workload.params.empty()) return {workload.mod, workload.params};
  const ir::Function main = workload.mod.Lookup("main");
  ir::IRModule mod = workload.mod;
  mod.Add("main", ir::BindParamsByName(main, workload.params));
  // A typed workload stays typed: the new constants get their types too.
  return {main->checked_type ? ir::InferTypes(mod) : mod, {}};
}

}  // namespace relay_opt
