// The command line's common checks (tools/relay-opt/arguments.h, docs/cli.md "Option values"):
// empty values, options given twice, exact numbers, empty paths, a failed write to stdout. Each
// is one `relay-opt: error:` line, exit status 1, nothing on stdout. The expected messages are
// the ones the option layer writes; the expected behaviour is docs/cli.md's.
#include "cli_test_util.h"

namespace relay_opt::testing {
namespace {

const char* kModule = "def @main(%x: Tensor[(1, 4), float32]) {\n  add(%x, %x)\n}\n";

TEST(CliOptionValuesTest, EmptyListValueIsTheEmptyListAndTakesNothingAfterIt) {
  TempDir dir;
  const std::string file = dir.path("m.relay");
  WriteFile(file, kModule);
  const ToolResult plain = RunTool({file});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  for (const char* option :
       {"--print-ir-before=", "--print-ir-after=", "--disabled-pass=", "--required-pass=",
        "--filter-print-funcs=", "--pipeline=", "--passes="}) {
    // The argument after it is still the input, and no warning about a pass named ''.
    const ToolResult r = RunTool({option, file});
    EXPECT_EQ(r.exit_code, 0) << option << ": " << r.err;
    EXPECT_EQ(r.out, plain.out) << option;
    EXPECT_EQ(r.err, "") << option;
    // The same as the separate form with an empty argument.
    const std::string name = std::string(option).substr(0, std::string(option).size() - 1);
    const ToolResult separate = RunTool({name, "", file});
    EXPECT_EQ(separate.exit_code, 0) << name << ": " << separate.err;
    EXPECT_EQ(separate.out, plain.out) << name;
  }
}

TEST(CliOptionValuesTest, EmptyValueOfAnyOtherOptionIsAnError) {
  TempDir dir;
  const std::string file = dir.path("m.relay");
  WriteFile(file, kModule);
  for (const char* option :
       {"--seed=", "--emit=", "--workload=", "--time-trace=", "--report=", "--dot=",
        "--reproducer=", "--config=", "--input=", "--input-shape=", "--verify-tolerance=",
        "--opt-level=", "--opt-bisect-limit=", "--batch-size=", "--layout=", "--input-format=",
        "--load-pass-plugin=", "--max-input-size=", "--reduce-check="}) {
    const std::string name = std::string(option).substr(0, std::string(option).size() - 1);
    ExpectError(RunTool({option, file}), "relay-opt: error: " + name + ": empty value");
    ExpectError(RunTool({name, "", file}), "relay-opt: error: " + name + ": empty value");
  }
  // Short options: -o= and -o "" (no file named '=' is written).
  ExpectError(RunTool({"-o=", file}), "relay-opt: error: -o: empty value");
  ExpectError(RunTool({"-o", "", file}), "relay-opt: error: -o: empty value");
  ExpectError(RunTool({"-O", "", file}), "relay-opt: error: -O: empty value");
  // A flag written with an empty value.
  ExpectError(RunTool({"--run=", file}), "relay-opt: error: --run: empty value");
  ExpectError(RunTool({"--print-changed=", file}),
              "relay-opt: error: --print-changed: empty value");
}

TEST(CliOptionValuesTest, EmptyInputPathIsAnErrorNotTheBuiltInExample) {
  ExpectError(RunTool({""}), "relay-opt: error: INPUT: empty file name");
  ExpectError(RunTool({"--emit=none", ""}), "relay-opt: error: INPUT: empty file name");
  ExpectError(RunTool({"--", ""}), "relay-opt: error: INPUT: empty file name");
}

TEST(CliOptionValuesTest, SingleValueOptionGivenTwiceIsAnError) {
  ExpectError(RunTool({"--seed=1", "--seed=2"}),
              "relay-opt: error: --seed: given twice ('1', then '2')");
  ExpectError(RunTool({"--emit=text", "--emit", "none"}),
              "relay-opt: error: --emit: given twice ('text', then 'none')");
  // -O and --opt-level are one option.
  ExpectError(RunTool({"-O3", "--opt-level=2"}),
              "relay-opt: error: --opt-level: given twice ('3', then '2')");
  ExpectError(RunTool({"-o", "a.relay", "-o=b.relay"}),
              "relay-opt: error: -o: given twice ('a.relay', then 'b.relay')");
  ExpectError(RunTool({"a.relay", "b.relay"}),
              "relay-opt: error: INPUT: given twice ('a.relay' and 'b.relay')");
}

TEST(CliOptionValuesTest, RepeatedKeyOfARepeatableOptionIsAnError) {
  ExpectError(RunTool({"--run", "--input=x=a.npy", "--input=x=b.npy"}),
              "relay-opt: error: --input: parameter 'x' given twice");
  ExpectError(
      RunTool({"--config=relay.FuseOps.max_depth=3", "--config", "relay.FuseOps.max_depth=4"}),
      "relay-opt: error: --config: config option 'relay.FuseOps.max_depth' given twice");
  ExpectError(RunTool({"m.onnx", "--input-shape=x=1,2", "--input-shape=x=3"}),
              "relay-opt: error: --input-shape: input 'x' given twice");
}

TEST(CliOptionValuesTest, NumbersAreReadExactlyIntoTheirType) {
  ExpectError(RunTool({"--seed=18446744073709551616", "--emit=none"}),
              "relay-opt: error: --seed: '18446744073709551616' is out of range (0 to "
              "18446744073709551615)");
  ExpectError(RunTool({"--seed=-1", "--emit=none"}),
              "relay-opt: error: --seed: expected an integer (0 to 18446744073709551615), got "
              "'-1'");
  ExpectError(RunTool({"--seed=12abc", "--emit=none"}), "relay-opt: error: --seed: expected");
  ExpectError(RunTool({"--seed=1e3", "--emit=none"}), "relay-opt: error: --seed: expected");
  ExpectError(RunTool({"--opt-bisect-limit=99999999999999999999", "--emit=none"}),
              "relay-opt: error: --opt-bisect-limit: '99999999999999999999' is out of range");
  ExpectError(RunTool({"--batch-size=4294967297", "--emit=none"}),
              "relay-opt: error: --batch-size: '4294967297' is out of range");
  ExpectError(RunTool({"-O4294967298"}), "relay-opt: error: --opt-level: '4294967298' is out");
  ExpectError(RunTool({"--reduce-max-checks=9223372036854775808"}),
              "relay-opt: error: --reduce-max-checks: '9223372036854775808' is out of range");
  ExpectError(RunTool({"--batch-size=0"}),
              "relay-opt: error: --batch-size: '0' is out of range (1 to 2147483647)");
  ExpectError(RunTool({"--reduce-max-checks=0"}),
              "relay-opt: error: --reduce-max-checks: '0' is out of range (1 to "
              "9223372036854775807)");
  // Floating-point values: finite, non-negative.
  for (const char* tolerance : {"1e999", "nan", "inf", "1,inf", "-0.5"}) {
    ExpectError(RunTool({"--verify-each", std::string("--verify-tolerance=") + tolerance}),
                "relay-opt: error: --verify-tolerance: expected RTOL[,ATOL] with non-negative "
                "finite numbers");
  }
  ExpectError(RunTool({"--max-input-size=4294967296"}),
              "relay-opt: error: --max-input-size: 4294967296 is over the largest input");
  // The largest values are accepted.
  const ToolResult max_seed = RunTool({"--seed=18446744073709551615", "--emit=none"});
  EXPECT_EQ(max_seed.exit_code, 0) << max_seed.err;
  const ToolResult negative_limit = RunTool({"--opt-bisect-limit=-1", "--emit=none"});
  EXPECT_EQ(negative_limit.exit_code, 0) << negative_limit.err;
}

TEST(CliOptionValuesTest, FailedWriteToStdoutIsAnError) {
  const ToolResult r = RunShell("\"$RELAY_OPT\" > /dev/full");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.first_err_line(), "relay-opt: error: cannot write to stdout: No space left on device")
      << r.err;
  const ToolResult list = RunShell("\"$RELAY_OPT\" --list-passes > /dev/full");
  EXPECT_EQ(list.exit_code, 1) << list.err;
  EXPECT_EQ(list.first_err_line().rfind("relay-opt: error: cannot write to stdout", 0), 0u)
      << list.err;
  const ToolResult file = RunShell("\"$RELAY_OPT\" -o /dev/full");
  EXPECT_EQ(file.exit_code, 1) << file.err;
  EXPECT_EQ(file.first_err_line(), "relay-opt: error: cannot write output file '/dev/full'")
      << file.err;
}

}  // namespace
}  // namespace relay_opt::testing
