// Issue 19, class 6: every error is one line of at most about 400 characters, with NUL,
// control and non-UTF-8 bytes escaped (support::OneLine, applied to every relaypass::Error's
// what()); attribute errors name the attribute; impossible attributes (non-positive pool_size,
// strides, dilation, kernel_size; a padding of 3 values) are type errors at the call, not wrong
// shapes. Expected texts are the escapes OneLine documents and TVM's attribute names.
#include <gtest/gtest.h>

#include <string>

#include "limited_tool.h"
#include "relaypass/support/error.h"
#include "relaypass/support/resource_error.h"
#include "relaypass/text/parser.h"

namespace relaypass::bad_input {
namespace {

TEST(MessagesTest, OneLineEscapes) {
  EXPECT_EQ(support::OneLine("plain"), "plain");
  EXPECT_EQ(support::OneLine(std::string("a\nb\tc\rd\0e", 9)), "a\\nb\\tc\\rd\\0e");
  EXPECT_EQ(support::OneLine("\x01\x7f"), "\\x01\\x7F");
  EXPECT_EQ(support::OneLine("caf\xc3\xa9 \xe2\x86\x92"), "caf\xc3\xa9 \xe2\x86\x92");  // UTF-8
  EXPECT_EQ(support::OneLine("\xff\xc3"), "\\xFF\\xC3");           // invalid, truncated sequence
  EXPECT_EQ(support::OneLine("\xc0\xaf"), "\\xC0\\xAF");           // overlong '/'
  EXPECT_EQ(support::OneLine("\xed\xa0\x80"), "\\xED\\xA0\\x80");  // a surrogate
}

TEST(MessagesTest, LongTextsKeepBothEnds) {
  for (size_t n : {401u, 1000u, 5000u, 100000u, 10000000u}) {
    const std::string text = "start" + std::string(n, 'x') + "end";
    const std::string shown = support::OneLine(text);
    EXPECT_LE(shown.size(), 400u) << n;
    EXPECT_EQ(shown.rfind("startxxx", 0), 0u);
    EXPECT_EQ(shown.substr(shown.size() - 6), "xxxend");
    EXPECT_NE(shown.find("..."), std::string::npos);
  }
  // A cut never splits an escape or a UTF-8 sequence.
  const std::string binary(1000, '\0');
  const std::string shown = support::OneLine(binary);
  EXPECT_LE(shown.size(), 400u);
  EXPECT_EQ(shown.substr(0, 4), "\\0\\0");
  EXPECT_EQ(shown.substr(shown.size() - 2), "\\0");
  std::string utf8;
  for (int i = 0; i < 300; ++i) utf8 += "\xe2\x86\x92";
  const std::string arrows = support::OneLine(utf8);
  EXPECT_EQ(support::OneLine(arrows), arrows) << "the result is valid UTF-8";
}

TEST(MessagesTest, EveryErrorIsOneLine) {
  const Error error("bad value \"a\nb\0c\xff\"" + std::string(1000, 'y'), Span{nullptr, 3, 4});
  const std::string what = error.what();
  EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  EXPECT_LE(what.size(), 400u);
  EXPECT_EQ(what.rfind("3:4: bad value \"a\\nb", 0), 0u) << what;
  // The text layer's snippet (the source line and a caret) stays as the two lines after it.
  try {
    text::ParseModule("#[version = \"0.0.5\"]\ndef @main() { $ }\n");
    ADD_FAILURE();
  } catch (const ParseError& e) {
    const std::string parse = e.what();
    EXPECT_EQ(parse, "2:15: unexpected character '$'\ndef @main() { $ }\n              ^") << parse;
  }
}

struct AttrCase {
  std::string call;  // on %x: Tensor[(1, 3, 8, 8), float32] and %w: Tensor[(4, 3, 3, 3)]
  std::string message;
};

// Each is a TypeError at the call (line 2, column 3) naming the op and the attribute.
TEST(MessagesTest, ImpossibleAttributesNameTheAttribute) {
  const AttrCase cases[] = {
      {"nn.max_pool2d(%x, pool_size=[2, 2], padding=[1, 1, 1])",
       "nn.max_pool2d: attribute 'padding' must have 1, 2 or 4 values, got [1, 1, 1]"},
      {"nn.avg_pool2d(%x, pool_size=[2, 2], padding=[1, 1, 1, 1, 1])",
       "nn.avg_pool2d: attribute 'padding' must have 1, 2 or 4 values, got [1, 1, 1, 1, 1]"},
      {"nn.max_pool2d(%x, pool_size=[0, 2])",
       "nn.max_pool2d: attribute 'pool_size' must have 2 positive values, got [0, 2]"},
      {"nn.max_pool2d(%x, pool_size=[-3, 2])",
       "nn.max_pool2d: attribute 'pool_size' must have 2 positive values, got [-3, 2]"},
      {"nn.max_pool2d(%x, pool_size=[2, 2], strides=[0, 1])",
       "nn.max_pool2d: attribute 'strides' must have 2 positive values, got [0, 1]"},
      {"nn.avg_pool2d(%x, pool_size=[2, 2], strides=[-1, -1])",
       "nn.avg_pool2d: attribute 'strides' must have 2 positive values, got [-1, -1]"},
      {"nn.max_pool2d(%x, pool_size=[2, 2], dilation=[1, 0])",
       "nn.max_pool2d: attribute 'dilation' must have 2 positive values, got [1, 0]"},
      {"nn.max_pool2d(%x, pool_size=[2, 2, 2])",
       "nn.max_pool2d: attribute 'pool_size' must have 2 positive values, got [2, 2, 2]"},
      {"nn.conv2d(%x, %w, strides=[0, 1])",
       "nn.conv2d: attribute 'strides' must have 2 positive values, got [0, 1]"},
      {"nn.conv2d(%x, %w, dilation=[-2, 1])",
       "nn.conv2d: attribute 'dilation' must have 2 positive values, got [-2, 1]"},
      {"nn.conv2d(%x, %w, padding=[1, 1, 1])",
       "nn.conv2d: attribute 'padding' must have 1, 2 or 4 values, got [1, 1, 1]"},
      {"nn.conv2d(%x, %w, channels=4, kernel_size=[0, 3])",
       "nn.conv2d: attribute 'kernel_size' must have 2 positive values, got [0, 3]"},
  };
  for (const AttrCase& c : cases) {
    const std::string text =
        "#[version = \"0.0.5\"]\n"
        "def @main(%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 3, 3, 3), float32]) {\n"
        "  " +
        c.call + "\n}\n";
    // The call starts at line 3, column 3.
    try {
      text::ParseModule(text);
      ADD_FAILURE() << c.call << " was accepted";
    } catch (const TypeError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.substr(0, what.find('\n')), "3:3: " + c.message) << what;
    }
    const ToolRun run = RunLimited(text, "");
    EXPECT_EQ(run.exit_code, 1) << run.err;
    EXPECT_NE(run.first_err_line().find(":3:3: " + c.message), std::string::npos) << run.err;
  }
}

TEST(MessagesTest, Pool3DAndConv3DAttributes) {
  const std::string head =
      "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(1, 2, 4, 4, 4), float32]) {\n  ";
  try {
    text::ParseModule(head + "nn.max_pool3d(%x, pool_size=[2, 0, 2])\n}\n");
    ADD_FAILURE();
  } catch (const TypeError& e) {
    EXPECT_NE(
        std::string(e.what()).find(
            "nn.max_pool3d: attribute 'pool_size' must have 3 positive values, got [2, 0, 2]"),
        std::string::npos)
        << e.what();
  }
  try {
    text::ParseModule(head + "nn.max_pool3d(%x, pool_size=[2, 2, 2], strides=[1, 0, 1])\n}\n");
    ADD_FAILURE();
  } catch (const TypeError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "nn.max_pool3d: attribute 'strides' must have positive values, got [1, 0, 1]"),
              std::string::npos)
        << e.what();
  }
}

// A quoted value with a newline and a tab (escapes in the string literal) stays on the first line.
TEST(MessagesTest, QuotedValuesAreEscapedInRelayOpt) {
  const std::string text =
      "#[version = \"0.0.5\"]\n"
      "def @main(%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 3, 3, 3), float32]) {\n"
      "  nn.conv2d(%x, %w, data_layout=\"NC\\nHW\\t" +
      std::string(2000, 'Q') + "\")\n}\n";
  const ToolRun run = RunLimited(text, "");
  EXPECT_EQ(run.exit_code, 1) << run.err;
  const std::string first = run.first_err_line();
  EXPECT_EQ(first.rfind("relay-opt: error: ", 0), 0u) << first;
  EXPECT_LE(first.size(), 400u + std::string("relay-opt: error: ").size() + 100) << first;
  EXPECT_NE(first.find("\\n"), std::string::npos) << first;
}

}  // namespace
}  // namespace relaypass::bad_input
