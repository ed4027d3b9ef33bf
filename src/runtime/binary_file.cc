#include "relaypass/runtime/binary_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "relaypass/support/error.h"
#include "relaypass/support/memory_budget.h"

namespace relaypass::runtime {

namespace {

[[noreturn]] void Fail(const std::string& what, const std::string& path, int err) {
  throw Error(what + " '" + path + "': " + std::strerror(err));
}

// Closes a descriptor on every path out of a function.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  // close(2)'s result, for writers that must know the data reached the file.
  int Close() {
    const int rc = ::close(fd_);
    fd_ = -1;
    return rc;
  }

 private:
  int fd_;
};

}  // namespace

std::string ReadBinaryFile(const std::string& path, uint64_t max_bytes) {
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) Fail("cannot open", path, errno);
  struct stat st;
  if (::fstat(fd.get(), &st) != 0) Fail("cannot stat", path, errno);
  if (S_ISDIR(st.st_mode)) throw Error("cannot read '" + path + "': it is a directory");
  if (S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) > max_bytes) {
    throw Error("'" + path + "' is " + support::BytesText(static_cast<uint64_t>(st.st_size)) +
                ", over the limit of " + support::BytesText(max_bytes));
  }
  std::string out;
  if (S_ISREG(st.st_mode)) out.reserve(static_cast<size_t>(st.st_size));
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR) continue;
      Fail("cannot read", path, errno);
    }
    if (n == 0) break;
    if (out.size() + static_cast<uint64_t>(n) > max_bytes) {
      throw Error("'" + path + "' is longer than the limit of " + support::BytesText(max_bytes));
    }
    out.append(buffer, static_cast<size_t>(n));
  }
  return out;
}

void WriteBinaryFileAtomically(const std::string& path, std::string_view bytes) {
  // A name no other writer in this process (counter) or another one (pid) picks; O_EXCL makes
  // sure, and the mode 0666 lets the umask decide the permissions as for any new file.
  static std::atomic<uint64_t> counter{0};
  std::string temp;
  int raw = -1;
  for (int attempt = 0; raw < 0; ++attempt) {
    temp = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
    raw = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (raw < 0 && (errno != EEXIST || attempt >= 100)) Fail("cannot create", temp, errno);
  }
  Fd fd(raw);
  auto fail = [&temp](const char* what, int err) {
    ::unlink(temp.c_str());
    Fail(what, temp, err);
  };
  size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(fd.get(), bytes.data() + written, bytes.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("cannot write", errno);
    }
    written += static_cast<size_t>(n);
  }
  if (::fsync(fd.get()) != 0) fail("cannot sync", errno);
  if (fd.Close() != 0) fail("cannot close", errno);
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(temp.c_str());
    Fail("cannot rename '" + temp + "' to", path, err);
  }
}

}  // namespace relaypass::runtime
