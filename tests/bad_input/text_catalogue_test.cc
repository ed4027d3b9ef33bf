// The catalogue of malformed and ill-typed Relay text (issue 9). For every case the library
// throws the typed exception (ParseError or TypeError) at `line:col` with a one-line first line
// followed by the source line and a caret, and relay-opt, given the text as a file, exits 1 with
// `relay-opt: error: FILE:LINE:COL: message` on stderr and nothing on stdout.
//
// tests/text/parser_test.cc checks the parser's messages one by one; this file checks the same
// classes of input end to end (parser, type inference, relay-opt), plus whole-file damage:
// truncation at every point of a real module, binary garbage and 100 MB lines.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "../depth_scale.h"
#include "relaypass/support/error.h"
#include "relaypass/text/parser.h"
#include "tool.h"

namespace relaypass::bad_input {
namespace {

enum class Kind { kParse, kType };

struct TextCase {
  std::string name;  // a C identifier: the test's and the file's name
  std::string text;
  Kind kind;
  int line;
  int column;
  std::string message;  // what the message (without the location) starts with
};

std::ostream& operator<<(std::ostream& os, const TextCase& c) {
  return os << c.name;
}

const std::string kHead = "def @main(%x: Tensor[(1, 4), float32]) {\n";
const std::string kConvHead = "def @main(%x: Tensor[(1, 3, 8, 8), float32], %w) {\n";

std::vector<TextCase> Catalogue() {
  return {
      // Truncated files.
      {"truncated_in_call", kHead + "  %0 = add(%x, %x);\n  nn.relu(%0", Kind::kParse, 3, 13,
       "expected ')' but found end of input"},
      {"truncated_in_signature", "#[version = \"0.0.5\"]\ndef @main(", Kind::kParse, 2, 11,
       "expected a parameter but found end of input"},
      {"truncated_in_type", "def @main(%x: Tensor[(1, 4), floa", Kind::kParse, 1, 30,
       "expected a dtype such as float32 but found 'floa'"},
      {"truncated_in_string", kConvHead + "  nn.conv2d(%x, %w, data_layout=\"NC", Kind::kParse, 2,
       33, "unterminated string literal"},
      {"truncated_in_body", kHead + "  %0 = add(%x, %x);\n", Kind::kParse, 3, 1,
       "expected an expression but found end of input"},
      {"truncated_in_metadata",
       "def @main(%x: Tensor[(2), float32]) {\n  add(%x, meta[relay.Constant][0])\n}\n"
       "#[metadata]\n{\"relay.Constant\": [{\"dtype\": \"float32\", \"shape\": [2], \"da",
       Kind::kParse, 4, 1, "malformed metadata section: "},
      {"metadata_shape_overflow",
       "def @main() {\n  meta[relay.Constant][0]\n}\n#[metadata]\n{\"relay.Constant\": "
       "[{\"dtype\": \"float32\", \"shape\": [4000000000, 4000000000, 4000000000], "
       "\"data\": \"\"}]}\n",
       Kind::kParse, 4, 1,
       "malformed metadata section: metadata: the constant's shape is too large"},
      // Unbalanced brackets.
      {"extra_closing_brace", kHead + "  %x\n}\n}\n", Kind::kParse, 4, 1,
       "expected 'def' but found '}'"},
      {"missing_closing_paren", kHead + "  %0 = add(%x, %x;\n  %0\n}\n", Kind::kParse, 2, 18,
       "expected ')' but found ';'"},
      {"bracket_closes_paren", kHead + "  (%x, %x]\n}\n", Kind::kParse, 2, 10,
       "expected ')' but found ']'"},
      {"extra_paren_in_type", "def @main(%x: Tensor[(1, 4)), float32]) {\n  %x\n}\n", Kind::kParse,
       1, 28, "expected ',' but found ')'"},
      {"unclosed_tuple", kHead + "  (%x, (%x, %x)\n}\n", Kind::kParse, 3, 1,
       "expected ')' but found '}'"},
      // Bad numbers.
      {"hex_number", kHead + "  add(%x, 0x10)\n}\n", Kind::kParse, 2, 11,
       "invalid number literal '0x10'"},
      {"exponent_without_digits", kHead + "  add(%x, 1e)\n}\n", Kind::kParse, 2, 11,
       "invalid number literal '1e'"},
      {"float64_out_of_range", kHead + "  add(%x, 1e400f64)\n}\n", Kind::kParse, 2, 11,
       "float literal '1e400' is out of range"},
      {"int64_out_of_range", kHead + "  add(%x, 9223372036854775808i64)\n}\n", Kind::kParse, 2, 11,
       "integer literal '9223372036854775808i64' is out of range for int64"},
      {"negative_dimension", "def @main(%x: Tensor[(-1, 4), float32]) {\n  %x\n}\n", Kind::kParse,
       1, 23, "negative dimension -1"},
      // Unknown operators and attributes.
      {"unknown_op", kHead + "  nn.conv4d(%x, %x)\n}\n", Kind::kParse, 2, 3,
       "unknown operator nn.conv4d"},
      {"unknown_attr", kConvHead + "  nn.conv2d(%x, %w, stride=[2, 2])\n}\n", Kind::kParse, 2, 21,
       "unknown attribute 'stride' for nn.conv2d (valid: strides, padding,"},
      {"missing_attr", kHead + "  reshape(%x)\n}\n", Kind::kParse, 2, 3,
       "reshape: attribute 'newshape' of relay.attrs.ReshapeAttrs is required"},
      {"wrong_attr_type_string", kConvHead + "  nn.conv2d(%x, %w, strides=\"2\")\n}\n",
       Kind::kParse, 2, 29,
       "nn.conv2d: attribute 'strides' expects an array of integers, got str \"2\""},
      {"wrong_attr_type_float", kConvHead + "  nn.conv2d(%x, %w, channels=1.5f)\n}\n", Kind::kParse,
       2, 30, "nn.conv2d: attribute 'channels' expects an integer or None, got float 1.5f"},
      // Undefined and duplicate names.
      {"undefined_graph_var", kHead + "  %0 = nn.relu(%x);\n  add(%0, %7)\n}\n", Kind::kParse, 3,
       11, "use of undefined %7"},
      {"duplicate_graph_var", kHead + "  %0 = nn.relu(%x);\n  %0 = nn.relu(%0);\n  %0\n}\n",
       Kind::kParse, 3, 3, "redefinition of %0 (first defined at 2:3)"},
      {"duplicate_function", kHead + "  %x\n}\n" + kHead + "  %x\n}\n", Kind::kParse, 4, 5,
       "redefinition of @main"},
      {"duplicate_parameter", "def @main(%x: float32, %y: float32, %x: float32) {\n  %x\n}\n",
       Kind::kParse, 1, 37, "duplicate parameter %x"},
      // Version headers.
      {"old_version", "#[version = \"0.0.4\"]\n" + kHead + "  %x\n}\n", Kind::kParse, 1, 1,
       "unsupported text format version \"0.0.4\" (expected \"0.0.5\")"},
      {"version_not_first", kHead + "  %x\n}\n#[version = \"0.0.5\"]\n", Kind::kParse, 4, 1,
       "the version header must be the first line"},
      {"misspelled_version", "#[verison = \"0.0.5\"]\n" + kHead + "  %x\n}\n", Kind::kParse, 1, 1,
       "malformed attribute"},
      // Binary garbage.
      {"elf_header",
       std::string("\x7f"
                   "ELF\x02\x01\x01\0\0\0\0\0",
                   12),
       Kind::kParse, 1, 1, "unexpected character byte 0x7F"},
      {"nul_bytes", std::string(64, '\0'), Kind::kParse, 1, 1, "unexpected character byte 0x00"},
      {"byte_order_mark", "\xef\xbb\xbf" + kHead + "  %x\n}\n", Kind::kParse, 1, 1,
       "unexpected character byte 0xEF"},
      {"garbage_in_body", kHead + "  add(%x, \x80\xff)\n}\n", Kind::kParse, 2, 11,
       "unexpected character byte 0x80"},
      // Type errors.
      {"broadcast_mismatch",
       "def @main(%x: Tensor[(1, 3), float32], %y: Tensor[(1, 4), float32]) {\n  add(%x, %y)\n}\n",
       Kind::kType, 2, 3,
       "add: Incompatible broadcast type Tensor[(1, 3), float32] and Tensor[(1, 4), float32]"},
      {"conv_channel_mismatch",
       "def @main(%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 5, 3, 3), float32]) {\n"
       "  nn.conv2d(%x, %w, channels=4, kernel_size=[3, 3])\n}\n",
       Kind::kType, 2, 3, "nn.conv2d: conv2d: weight shape (4, 5, 3, 3) does not match"},
      {"tuple_index_out_of_range",
       "def @main(%t: (Tensor[(1, 3), float32], float32)) {\n  %t.5\n}\n", Kind::kType, 2, 5,
       "tuple index 5 out of range for a 2-field tuple"},
      {"shape_product_overflow",
       "def @main(%x: Tensor[(99999999999, 99999999999, 999999999), float32]) {\n"
       "  nn.batch_flatten(%x)\n}\n",
       Kind::kType, 2, 3, "nn.batch_flatten: shape arithmetic overflows int64"},
      {"pool_stride_zero",  // was a division by zero (SIGFPE)
       "def @main(%x: Tensor[(1, 3, 8, 8), float32]) {\n"
       "  nn.max_pool2d(%x, pool_size=[1, 1], strides=[0, 0])\n}\n",
       Kind::kType, 2, 3, "nn.max_pool2d: attribute 'strides' must have 2 positive values"},
      {"negative_output_dimension",
       "def @main(%x: Tensor[(1, 3, 8, 8), float32]) {\n"
       "  nn.avg_pool2d(%x, pool_size=[1, 1], padding=[-10, 0, 0, 0])\n}\n",
       Kind::kType, 2, 3, "nn.avg_pool2d: the operator computes a negative dimension"},
      {"dense_shape_mismatch",
       "def @main(%x: Tensor[(1, 4), float32], %w: Tensor[(8, 5), float32]) {\n"
       "  %0 = nn.relu(%x);\n  nn.dense(%0, %w, units=8)\n}\n",
       Kind::kType, 3, 3, "nn.dense"},
  };
}

// The first line of `text`.
std::string FirstLine(const std::string& text) {
  return text.substr(0, text.find('\n'));
}

// Parses `text` as file `name` (with type inference, as relay-opt does) and checks the error.
void ExpectLibraryError(const std::string& name, const std::string& text, Kind kind, int line,
                        int column, const std::string& message) {
  text::ParseOptions options;
  options.source_name = name;
  try {
    text::ParseModule(text, options);
    ADD_FAILURE() << "no error";
    return;
  } catch (const ParseError& e) {
    EXPECT_EQ(kind, Kind::kParse) << "got a ParseError: " << FirstLine(e.what());
    EXPECT_EQ(e.span().line, line) << FirstLine(e.what());
    EXPECT_EQ(e.span().column, column) << FirstLine(e.what());
    EXPECT_EQ(e.message().substr(0, message.size()), message) << FirstLine(e.what());
    // "FILE:LINE:COL: message", then the source line and a caret line.
    const std::string what = e.what();
    EXPECT_EQ(what.rfind(e.span().ToString() + ": ", 0), 0u) << FirstLine(what);
    EXPECT_EQ(e.span().ToString(),
              name + ":" + std::to_string(line) + ":" + std::to_string(column));
    EXPECT_LT(FirstLine(what).size(), 1000u);
    EXPECT_EQ(what.back(), '^') << what.substr(0, 2000);
  } catch (const TypeError& e) {
    EXPECT_EQ(kind, Kind::kType) << "got a TypeError: " << FirstLine(e.what());
    EXPECT_EQ(e.span().line, line) << FirstLine(e.what());
    EXPECT_EQ(e.span().column, column) << FirstLine(e.what());
    EXPECT_EQ(e.message().substr(0, message.size()), message) << FirstLine(e.what());
    const std::string what = e.what();
    EXPECT_EQ(what.rfind(e.span().ToString() + ": ", 0), 0u) << FirstLine(what);
    EXPECT_LT(FirstLine(what).size(), 1000u);
    EXPECT_EQ(what.back(), '^') << what.substr(0, 2000);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not a ParseError or TypeError: " << e.what();
  }
}

// Runs relay-opt on `text` written to a file and checks its diagnostic.
void ExpectToolTextError(const std::string& name, const std::string& text, int line, int column,
                         const std::string& message) {
  ScratchDir dir;
  const std::string file = dir.path(name + ".relay");
  WriteFile(file, text);
  ExpectToolError(RunRelayOpt(ShellQuote(file)), file + ":" + std::to_string(line) + ":" +
                                                     std::to_string(column) + ": " + message);
}

class TextCatalogueTest : public ::testing::TestWithParam<TextCase> {};

TEST_P(TextCatalogueTest, LibraryThrowsTypedErrorAtLineAndColumn) {
  const TextCase& c = GetParam();
  ExpectLibraryError(c.name + ".relay", c.text, c.kind, c.line, c.column, c.message);
}

TEST_P(TextCatalogueTest, RelayOptExitsOneWithOneDiagnostic) {
  const TextCase& c = GetParam();
  ExpectToolTextError(c.name, c.text, c.line, c.column, c.message);
}

INSTANTIATE_TEST_SUITE_P(Catalogue, TextCatalogueTest, ::testing::ValuesIn(Catalogue()),
                         [](const ::testing::TestParamInfo<TextCase>& info) {
                           return info.param.name;
                         });

// ---------------------------------------------------------------------------------------------
// Whole-file damage

std::string ResNetText() {
  return ReadFile(std::string(RELAYPASS_TEST_DATA) + "/resnet18_nchw.relay");
}

// Every prefix of a real module (cut at 400 points, mid-token included) parses or fails with a
// located ParseError/TypeError; nothing else escapes.
TEST(WholeFileTest, EveryTruncationOfResNetFailsCleanly) {
  const std::string text = ResNetText();
  ASSERT_GT(text.size(), 1000u);
  int errors = 0;
  for (size_t i = 0; i < 400; ++i) {
    const size_t cut = text.size() * i / 400 + (i * 7919) % 97;
    if (cut >= text.size()) continue;
    text::ParseOptions options;
    options.source_name = "resnet.relay";
    try {
      text::ParseModule(text.substr(0, cut), options);
    } catch (const ParseError& e) {
      EXPECT_TRUE(e.span().defined()) << e.what();
      ++errors;
    } catch (const TypeError& e) {
      ++errors;
    } catch (const std::exception& e) {
      ADD_FAILURE() << "cut at " << cut << ": " << e.what();
    }
  }
  EXPECT_GT(errors, 350);
  // The tool on one truncated copy.
  ScratchDir dir;
  const std::string file = dir.path("truncated.relay");
  WriteFile(file, text.substr(0, text.size() / 2));
  ExpectToolError(RunRelayOpt(ShellQuote(file)), file + ":");
}

// Random bytes, and a real module with random bytes flipped: a ParseError or TypeError, or a
// module; never a crash or another exception.
TEST(WholeFileTest, RandomBytesAndBitFlipsFailCleanly) {
  const std::string text = ResNetText();
  uint64_t state = 0x9E3779B97F4A7C15ull;
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  for (int round = 0; round < 300; ++round) {
    std::string input;
    if (round % 2 == 0) {
      input.resize(next() % 4096);
      for (char& c : input) c = static_cast<char>(next());
    } else {
      input = text.substr(0, next() % text.size());
      for (int flips = 0; flips < 4; ++flips) {
        if (!input.empty()) input[next() % input.size()] = static_cast<char>(next());
      }
    }
    try {
      text::ParseModule(input);
    } catch (const ParseError& e) {
      EXPECT_TRUE(e.span().defined()) << e.what();
    } catch (const TypeError&) {
    } catch (const std::exception& e) {
      ADD_FAILURE() << "round " << round << ": " << e.what();
    }
  }
  ScratchDir dir;
  const std::string file = dir.path("random.bin");
  std::string garbage(1 << 16, '\0');
  for (char& c : garbage) c = static_cast<char>(next());
  WriteFile(file, garbage);
  ExpectToolError(RunRelayOpt(ShellQuote(file)), file + ":1:");
}

// A directory given as the input file used to read as an empty module (exit 0, no output).
TEST(WholeFileTest, ADirectoryIsNotAnInputFile) {
  ScratchDir dir;
  ExpectToolError(RunRelayOpt(ShellQuote(dir.path(""))),
                  "cannot read input file '" + dir.path("") + "': it is a directory");
}

// ---------------------------------------------------------------------------------------------
// 100 MB lines: the first line of the diagnostic stays short, the snippet shows a window around
// the column, and a valid 100 MB line parses. (10 MB under RELAYPASS_DEPTH_SCALE=0.1, in the
// sanitizer builds.)

const size_t kHugeLine =
    static_cast<size_t>(static_cast<double>(size_t{100} << 20) * relaypass::testing::DepthScale());

TEST(HugeLineTest, ErrorAfterA100MegabyteComment) {
  const std::string text = kHead + "  %x /* " + std::string(kHugeLine, 'c') + " */ $\n}\n";
  const int column = static_cast<int>(3 + 3 + 3 + kHugeLine + 4);
  ExpectLibraryError("huge_comment.relay", text, Kind::kParse, 2, column,
                     "unexpected character '$'");
  ExpectToolTextError("huge_comment", text, 2, column, "unexpected character '$'");
}

TEST(HugeLineTest, A100MegabyteNumberIsQuotedShortly) {
  const std::string text = kHead + "  add(%x, " + std::string(kHugeLine, '7') + "f)\n}\n";
  ExpectLibraryError("huge_number.relay", text, Kind::kParse, 2, 11, "float literal '7777");
  try {
    text::ParseModule(text);
  } catch (const ParseError& e) {
    // The message keeps its end: what is wrong with the literal.
    const std::string first = FirstLine(e.what());
    EXPECT_NE(first.find("..."), std::string::npos) << first;
    EXPECT_NE(first.find("out of range"), std::string::npos) << first;
  }
  ExpectToolTextError("huge_number", text, 2, 11, "float literal '7777");
}

TEST(HugeLineTest, A100MegabyteNameIsQuotedShortly) {
  const std::string text = kHead + "  nn." + std::string(kHugeLine, 'a') + "(%x)\n}\n";
  ExpectLibraryError("huge_name.relay", text, Kind::kParse, 2, 3, "unknown operator nn.aaaa");
  ExpectToolTextError("huge_name", text, 2, 3, "unknown operator nn.aaaa");
}

TEST(HugeLineTest, A100MegabyteStringAttributeIsQuotedShortly) {
  const std::string text =
      kConvHead + "  nn.conv2d(%x, %w, data_layout=\"" + std::string(kHugeLine, 'N') + "\")\n}\n";
  text::ParseOptions options;
  options.source_name = "huge_string.relay";
  try {
    text::ParseModule(text, options);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_TRUE(e.span().defined()) << FirstLine(e.what()).substr(0, 2000);
    EXPECT_LT(FirstLine(e.what()).size(), 1000u) << FirstLine(e.what()).substr(0, 2000);
  }
  ExpectToolTextError("huge_string", text, 2, 3, "nn.conv2d");
}

TEST(HugeLineTest, AValid100MegabyteLineParses) {
  const std::string text = "def @main(%x: Tensor[(1, 4), float32]) { /* " +
                           std::string(kHugeLine, ' ') + " */ add(%x, %x) }\n";
  ir::IRModule mod = text::ParseModule(text);
  EXPECT_TRUE(mod.Contains("main"));
  ScratchDir dir;
  const std::string file = dir.path("huge_valid.relay");
  WriteFile(file, text);
  const ToolRun run = RunRelayOpt(ShellQuote(file));
  EXPECT_EQ(run.exit_code, 0) << run.err.substr(0, 2000);
  EXPECT_EQ(run.err, "");
  EXPECT_NE(run.out.find("add(%x, %x)"), std::string::npos) << run.out.substr(0, 2000);
}

}  // namespace
}  // namespace relaypass::bad_input
