// Work without bound from the command line (docs/reliability.md, "Work without bound"): an
// endless or binary input is rejected while it is read, at its first impossible byte or at the
// size limit; a read error is an error, not the end of the file; sizes on the command line are
// checked before any work. Each case runs under a 20-second timeout and an 8 GB address-space
// limit, as the acceptance does, and must give one `relay-opt: error:` line, exit 1.
#include "cli_test_util.h"

namespace relay_opt::testing {
namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
// The sanitizers reserve terabytes of address space for their shadow memory, and run slower.
constexpr const char* kAddressLimit = "";
constexpr const char* kTimeout = "timeout 120 ";
#else
constexpr const char* kAddressLimit = "ulimit -v 8000000; ";
constexpr const char* kTimeout = "timeout 20 ";
#endif

// The tool with `args` (shell words) under `ulimit -v 8000000` and `timeout 20` (no address
// limit and a longer time in sanitizer builds), reading the output of the shell command `feed`
// on stdin when given.
ToolResult Bounded(const std::string& args, const std::string& feed = "") {
  return RunShell(std::string(kAddressLimit) + (feed.empty() ? "" : "{ " + feed + "; } | ") +
                  kTimeout + "\"$RELAY_OPT\" " + args);
}

TEST(CliInputLimitsTest, EndlessZerosAreRejectedAtTheFirstByte) {
  // The parser names the byte, as for any file (reading stops at the first NUL).
  ExpectError(Bounded("/dev/zero"),
              "relay-opt: error: /dev/zero:1:1: unexpected character byte 0x00");
  ExpectError(Bounded("- < /dev/zero"),
              "relay-opt: error: <stdin>:1:1: unexpected character byte 0x00");
  ExpectError(Bounded("< /dev/zero"),
              "relay-opt: error: <stdin>:1:1: unexpected character byte 0x00");
  // Text, then endless zeros: the first zero is the error.
  ExpectError(Bounded("-", "printf 'def @main() {\\n  ()'; cat /dev/zero"),
              "relay-opt: error: <stdin>:2:5: unexpected character byte 0x00");
  // A NUL the lexer would skip (in a comment) is still not Relay text.
  ExpectError(Bounded("-", "printf 'def @main() { () } // '; cat /dev/zero"),
              "relay-opt: error: <stdin>:1:23: unexpected character byte 0x00 (Relay text has no "
              "NUL bytes)");
  ExpectError(Bounded("--split-input-file /dev/zero"),
              "relay-opt: error: input file '/dev/zero' is not Relay text");
  ExpectError(Bounded("--run-reproducer /dev/zero"),
              "relay-opt: error: input file '/dev/zero' is not Relay text");
}

TEST(CliInputLimitsTest, RandomBytesAreRejectedWhileReading) {
  ExpectError(Bounded("/dev/urandom"), "relay-opt: error: /dev/urandom:");
}

TEST(CliInputLimitsTest, EndlessTextStopsAtTheSizeLimit) {
  ExpectError(Bounded("- --max-input-size=10000000", "yes"),
              "relay-opt: error: stdin is longer than the input size limit of 10000000 bytes "
              "(--max-input-size)");
  // The default limit (1 GiB) is reached too, within the time and memory limits.
  ExpectError(Bounded("-", "yes"),
              "relay-opt: error: stdin is longer than the input size limit of 1073741824 bytes");
}

TEST(CliInputLimitsTest, RegularFileOverTheLimitFailsBeforeReading) {
  TempDir dir;
  const std::string file = dir.path("big.relay");
  WriteFile(file, "def @main(%x: Tensor[(1, 4), float32]) {\n  add(%x, %x)\n}\n");
  ExpectError(RunTool({file, "--max-input-size=10"}),
              "relay-opt: error: input file '" + file +
                  "' is 57 bytes, over the input size limit of 10 bytes (--max-input-size)");
  const ToolResult fits = RunTool({file, "--max-input-size=57"});
  EXPECT_EQ(fits.exit_code, 0) << fits.err;
  // An ONNX model read from a file has the same limit (a binary: NUL bytes are fine).
  ExpectError(RunTool({file, "--input-format=onnx", "--max-input-size=10"}),
              "relay-opt: error: input file '" + file + "' is 57 bytes, over the input size");
}

TEST(CliInputLimitsTest, ReadErrorIsNotTheEndOfTheFile) {
  // Reading a directory through stdin fails with EISDIR.
  ExpectError(RunShell("\"$RELAY_OPT\" - < /"),
              "relay-opt: error: cannot read stdin: Is a directory");
  ExpectError(RunShell("\"$RELAY_OPT\" < /"),
              "relay-opt: error: cannot read stdin: Is a directory");
}

TEST(CliInputLimitsTest, WorkloadSizesAreCheckedBeforeBuilding) {
  ExpectError(Bounded("--workload=chain-99999999999"),
              "relay-opt: error: workload 'chain-99999999999': a chain has at most 10000000 ops");
  ExpectError(Bounded("--workload=chain-10000001 --emit=none"),
              "relay-opt: error: workload 'chain-10000001': a chain has at most");
  // Beyond int64: still a chain, still too long (not "unknown workload").
  ExpectError(Bounded("--workload=chain-99999999999999999999999"),
              "relay-opt: error: workload 'chain-99999999999999999999999': a chain has at most");
  const ToolResult ok = RunTool({"--workload=chain-1000", "--emit=none"});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
}

}  // namespace
}  // namespace relay_opt::testing
