// Tests of the tokenizer: kinds, values and line:col of tokens, trivia, and lexical errors.
#include <gtest/gtest.h>

#include <cmath>
#include <deque>
#include <limits>
#include <string>
#include <vector>

#include "../../src/text/lexer.h"

namespace relaypass::text {
namespace {

// Tokens view their source text, so the texts lexed by a test are kept alive until it ends.
std::vector<Token> Lex(const std::string& text) {
  static std::deque<std::string> texts;
  const std::string& kept = texts.emplace_back(text);
  Source source(kept, "");
  Lexer lexer(source);
  std::vector<Token> tokens;
  for (Token t = lexer.Next(); t.kind != TokenKind::kEnd; t = lexer.Next()) {
    tokens.push_back(t);
  }
  return tokens;
}

std::vector<TokenKind> Kinds(const std::string& text) {
  std::vector<TokenKind> kinds;
  for (const Token& t : Lex(text)) kinds.push_back(t.kind);
  return kinds;
}

// Lexes `text` and expects a ParseError at line:col starting with `message`.
void ExpectLexError(const std::string& text, int line, int column, const std::string& message) {
  try {
    Lex(text);
    ADD_FAILURE() << "no error for: " << text;
  } catch (const ParseError& e) {
    EXPECT_EQ(e.span().line, line) << e.what();
    EXPECT_EQ(e.span().column, column) << e.what();
    EXPECT_EQ(e.message().substr(0, message.size()), message) << e.what();
  }
}

using K = TokenKind;

TEST(LexerTest, PunctuationAndNames) {
  EXPECT_EQ(
      Kinds("( ) [ ] { } , ; : = . -> ? + - * / < <= > >= == !="),
      (std::vector<K>{K::kLParen,       K::kRParen,     K::kLBracket,  K::kRBracket,  K::kLBrace,
                      K::kRBrace,       K::kComma,      K::kSemicolon, K::kColon,     K::kEqual,
                      K::kDot,          K::kArrow,      K::kQuestion,  K::kPlus,      K::kMinus,
                      K::kStar,         K::kSlash,      K::kLess,      K::kLessEqual, K::kGreater,
                      K::kGreaterEqual, K::kEqualEqual, K::kNotEqual}));
  std::vector<Token> tokens = Lex("%x_1 %12 @main nn.conv2d %conv1/weight _");
  ASSERT_EQ(tokens.size(), 8u);
  EXPECT_EQ(tokens[0].kind, K::kLocal);
  EXPECT_EQ(tokens[0].name(), "x_1");
  EXPECT_EQ(tokens[1].kind, K::kGraph);
  EXPECT_EQ(tokens[1].int_value, 12);
  EXPECT_EQ(tokens[2].kind, K::kGlobal);
  EXPECT_EQ(tokens[2].name(), "main");
  EXPECT_EQ(tokens[3].text, "nn");  // dotted names are reassembled by the parser
  EXPECT_EQ(tokens[4].kind, K::kDot);
  EXPECT_EQ(tokens[5].text, "conv2d");
  EXPECT_EQ(tokens[6].name(), "conv1/weight");
  EXPECT_TRUE(tokens[7].IsIdent("_"));
}

TEST(LexerTest, LinesAndColumns) {
  std::vector<Token> tokens = Lex("def @f() {\r\n\t%0 = add(1, 2)\n}");
  ASSERT_GE(tokens.size(), 7u);
  EXPECT_EQ(tokens[0].loc.line, 1);
  EXPECT_EQ(tokens[0].loc.column, 1);
  EXPECT_EQ(tokens[1].loc.column, 5);  // @f
  EXPECT_EQ(tokens[5].kind, K::kGraph);
  EXPECT_EQ(tokens[5].loc.line, 2);
  EXPECT_EQ(tokens[5].loc.column, 2);  // a tab is one column
  EXPECT_EQ(tokens.back().loc.line, 3);
  EXPECT_EQ(tokens.back().loc.column, 1);
}

TEST(LexerTest, SkipsNestedCommentsButKeepsMetaTypeComments) {
  std::vector<Token> tokens =
      Lex("// line\n/* a /* nested */ b */ meta[relay.Constant][3] /* ty=Tensor[(1, 2), float32] "
          "span=x.py:1:2 */ add");
  ASSERT_EQ(tokens.size(), 2u);
  EXPECT_EQ(tokens[0].kind, K::kMeta);
  EXPECT_EQ(tokens[0].str, "relay.Constant");
  EXPECT_EQ(tokens[0].int_value, 3);
  EXPECT_EQ(tokens[0].type_comment, "Tensor[(1, 2), float32]");
  EXPECT_EQ(tokens[0].type_comment_loc.line, 2);
  EXPECT_EQ(tokens[0].type_comment_loc.column, 54);
  EXPECT_TRUE(tokens[1].IsIdent("add"));
  // Other comments after a meta reference are not type comments.
  EXPECT_EQ(Lex("meta[relay.Constant][0] /* hello */")[0].type_comment, "");
  EXPECT_EQ(Lex("meta[relay.Constant][0]\n/* ty=float32 */")[0].type_comment, "");
}

TEST(LexerTest, Numbers) {
  struct Case {
    const char* text;
    TokenKind kind;
    ir::DataType dtype;
    double value;
  };
  const Case cases[] = {
      {"0", K::kInt, ir::DataType::Int32(), 0},
      {"-7", K::kInt, ir::DataType::Int32(), -7},
      {"2147483647", K::kInt, ir::DataType::Int32(), 2147483647.0},
      {"2147483648", K::kInt, ir::DataType::Int64(), 2147483648.0},
      {"5i64", K::kInt, ir::DataType::Int64(), 5},
      {"5i16", K::kInt, ir::DataType::Int(16), 5},
      {"5i8", K::kInt, ir::DataType::Int(8), 5},
      {"2f", K::kFloat, ir::DataType::Float32(), 2},
      {"2.5f", K::kFloat, ir::DataType::Float32(), 2.5},
      {"1e-05f", K::kFloat, ir::DataType::Float32(), 1e-05},
      {"1E+06f64", K::kFloat, ir::DataType::Float(64), 1e6},
      {"-0.5f16", K::kFloat, ir::DataType::Float(16), -0.5},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    std::vector<Token> tokens = Lex(c.text);
    ASSERT_EQ(tokens.size(), 1u);
    EXPECT_EQ(tokens[0].kind, c.kind);
    EXPECT_EQ(tokens[0].dtype, c.dtype);
    EXPECT_EQ(c.kind == K::kInt ? static_cast<double>(tokens[0].int_value) : tokens[0].float_value,
              c.value);
  }
  EXPECT_TRUE(std::isinf(Lex("inff")[0].float_value));
  EXPECT_EQ(Lex("-inff")[0].float_value, -std::numeric_limits<double>::infinity());
  EXPECT_EQ(Lex("inff64")[0].dtype, ir::DataType::Float(64));
  EXPECT_TRUE(std::isnan(Lex("nanf")[0].float_value));
  // The printer writes a negative NaN as -nanf (as TVM's); it reads back (ONNX fuzz finding).
  ASSERT_EQ(Lex("-nanf").size(), 1u);
  EXPECT_TRUE(std::isnan(Lex("-nanf")[0].float_value));
}

TEST(LexerTest, MinusIsASignOnlyWhereAnOperandCanStart) {
  EXPECT_EQ(Kinds("axis=-1"), (std::vector<K>{K::kIdent, K::kEqual, K::kInt}));
  EXPECT_EQ(Kinds("[-1, -2]"),
            (std::vector<K>{K::kLBracket, K::kInt, K::kComma, K::kInt, K::kRBracket}));
  EXPECT_EQ(Kinds("%a -1f"), (std::vector<K>{K::kLocal, K::kMinus, K::kFloat}));
  EXPECT_EQ(Kinds("(%a) - -1f"),
            (std::vector<K>{K::kLParen, K::kLocal, K::kRParen, K::kMinus, K::kFloat}));
}

TEST(LexerTest, TupleIndicesAfterADotAreNotFractions) {
  std::vector<Token> tokens = Lex("%0.0.1");
  ASSERT_EQ(tokens.size(), 5u);
  EXPECT_EQ(tokens[2].kind, K::kInt);
  EXPECT_EQ(tokens[2].int_value, 0);
  EXPECT_EQ(tokens[4].int_value, 1);
}

TEST(LexerTest, StringsDecodeEscapes) {
  std::vector<Token> tokens = Lex(R"("a\"b\\c\n\t\r\x41\x7e" "")");
  ASSERT_EQ(tokens.size(), 2u);
  EXPECT_EQ(tokens[0].str, "a\"b\\c\n\t\rA~");
  EXPECT_EQ(tokens[1].str, "");
}

TEST(LexerTest, Attributes) {
  std::vector<Token> tokens = Lex("#[version = \"0.0.5\"]\ndef\n#[metadata]\n{\"x\": 1}\n");
  ASSERT_EQ(tokens.size(), 3u);
  EXPECT_EQ(tokens[0].kind, K::kVersion);
  EXPECT_EQ(tokens[0].str, "0.0.5");
  EXPECT_EQ(tokens[2].kind, K::kMetadata);
  EXPECT_EQ(tokens[2].str_view, "\n{\"x\": 1}\n");
  EXPECT_EQ(tokens[2].str_loc.line, 3);
}

TEST(LexerTest, Errors) {
  ExpectLexError("a\rb", 1, 2, "lone carriage return");
  ExpectLexError("a $", 1, 3, "unexpected character '$'");
  ExpectLexError(std::string("a\0b", 3), 1, 2, "unexpected character byte 0x00");
  ExpectLexError("x \xC3\xA9", 1, 3, "unexpected character byte 0xC3");
  ExpectLexError("/* a /* b */", 1, 1, "unterminated comment");
  ExpectLexError("\"abc", 1, 1, "unterminated string literal");
  ExpectLexError("\"a\nb\"", 1, 1, "unterminated string literal");
  ExpectLexError("\"\\x4\"", 1, 2, "invalid escape: '\\x' needs two hex digits");
  ExpectLexError("2.5", 1, 1, "float literal '2.5' needs a type suffix");
  ExpectLexError("1.5e3", 1, 1, "float literal '1.5e3' needs a type suffix");
  ExpectLexError("3f12", 1, 1, "invalid float literal '3f12'");
  ExpectLexError("3i", 1, 1, "invalid integer literal '3i'");
  ExpectLexError("0x10", 1, 1, "invalid number literal '0x10'");
  ExpectLexError("1.2.3f", 1, 1, "invalid number literal '1.2.3f'");
  ExpectLexError("9223372036854775808", 1, 1, "integer literal '9223372036854775808' is out of");
  ExpectLexError("-2147483649i32", 1, 1, "integer literal '-2147483649i32' is out of range");
  ExpectLexError("70000f16", 1, 1, "float literal '70000' is out of range for float16");
  ExpectLexError("1e999f64", 1, 1, "float literal '1e999' is out of range");
  ExpectLexError("%99999999999999999999", 1, 1, "graph variable number");
  ExpectLexError("@1", 1, 1, "expected a name after '@' but found '1'");
  ExpectLexError("meta[relay.Constant][x]", 1, 1, "malformed meta reference");
  ExpectLexError("#[version]", 1, 1, "malformed attribute");
  ExpectLexError("a ! b", 1, 3, "unexpected character '!'");
}

}  // namespace
}  // namespace relaypass::text
