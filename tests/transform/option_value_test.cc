// OptionValue: Python literals in and out.
#include <gtest/gtest.h>

#include "relaypass/support/error.h"
#include "relaypass/transform/option_value.h"

namespace relaypass::transform {
namespace {

std::string RoundTrip(const std::string& text) {
  return OptionLiteral(ParseOptionValue(text));
}

std::string ErrorOf(const std::string& text) {
  try {
    ParseOptionValue(text);
  } catch (const PassError& e) {
    return e.what();
  }
  return "(parsed)";
}

TEST(OptionValueTest, Scalars) {
  EXPECT_EQ(ParseOptionValue("2"), OptionValue::Int(2));
  EXPECT_EQ(ParseOptionValue("-1"), OptionValue::Int(-1));
  EXPECT_EQ(ParseOptionValue("+7"), OptionValue::Int(7));
  EXPECT_EQ(ParseOptionValue("True"), OptionValue::Bool(true));
  EXPECT_EQ(ParseOptionValue("False"), OptionValue::Bool(false));
  EXPECT_EQ(ParseOptionValue("None"), OptionValue::Null());
  EXPECT_EQ(ParseOptionValue("0.5"), OptionValue::Double(0.5));
  EXPECT_EQ(ParseOptionValue("1e-05"), OptionValue::Double(1e-05));
  EXPECT_EQ(ParseOptionValue("1."), OptionValue::Double(1.0));
  EXPECT_EQ(ParseOptionValue("-.5"), OptionValue::Double(-0.5));
  EXPECT_EQ(ParseOptionValue("2E3"), OptionValue::Double(2000.0));
  EXPECT_EQ(ParseOptionValue("\"NHWC\""), OptionValue::Str("NHWC"));
  EXPECT_EQ(ParseOptionValue("'NHWC'"), OptionValue::Str("NHWC"));
  EXPECT_EQ(ParseOptionValue(" \"a\\\"b\\\\c\" "), OptionValue::Str("a\"b\\c"));
  EXPECT_EQ(ParseOptionValue("-9223372036854775808"), OptionValue::Int(INT64_MIN));
}

TEST(OptionValueTest, PrintsPythonLiterals) {
  EXPECT_EQ(OptionLiteral(OptionValue::Bool(true)), "True");
  EXPECT_EQ(OptionLiteral(OptionValue::Null()), "None");
  EXPECT_EQ(OptionLiteral(OptionValue::Int(-3)), "-3");
  EXPECT_EQ(OptionLiteral(OptionValue::Str("a\"b")), "\"a\\\"b\"");
  // Floats as Python's repr.
  EXPECT_EQ(OptionLiteral(OptionValue::Double(1.0)), "1.0");
  EXPECT_EQ(OptionLiteral(OptionValue::Double(0.5)), "0.5");
  EXPECT_EQ(OptionLiteral(OptionValue::Double(0.1)), "0.1");
  EXPECT_EQ(OptionLiteral(OptionValue::Double(1e-05)), "1e-05");
  EXPECT_EQ(OptionLiteral(OptionValue::Double(0.0001)), "0.0001");
  EXPECT_EQ(OptionLiteral(OptionValue::Double(123456.0)), "123456.0");
  EXPECT_EQ(OptionLiteral(OptionValue::Double(1e16)), "1e+16");
  EXPECT_EQ(OptionLiteral(OptionValue::Double(1e15)), "1000000000000000.0");
  EXPECT_EQ(OptionLiteral(OptionValue::Double(-2.5e-07)), "-2.5e-07");
  EXPECT_EQ(OptionLiteral(OptionValue::Double(0.0)), "0.0");
}

TEST(OptionValueTest, ListsAndDictsRoundTrip) {
  EXPECT_EQ(RoundTrip("[1, 2, 3]"), "[1, 2, 3]");
  EXPECT_EQ(RoundTrip("[]"), "[]");
  EXPECT_EQ(RoundTrip("{}"), "{}");
  EXPECT_EQ(RoundTrip("{\"nn.conv2d\": [\"NHWC\", \"default\"]}"),
            "{\"nn.conv2d\": [\"NHWC\", \"default\"]}");
  EXPECT_EQ(RoundTrip("{'a':[[1],[2, [3.5]]],'b':{'c':None}}"),
            "{\"a\": [[1], [2, [3.5]]], \"b\": {\"c\": None}}");
  OptionValue dict = ParseOptionValue("{\"nn.conv2d\": [\"NHWC\", \"default\"]}");
  ASSERT_NE(dict.find("nn.conv2d"), nullptr);
  EXPECT_EQ(dict.find("nn.conv2d")->as_array()[1].as_string(), "default");
  EXPECT_EQ(dict.find("nn.dense"), nullptr);
}

TEST(OptionValueTest, ErrorsNameTheColumn) {
  EXPECT_EQ(ErrorOf("[1, 2"), "option value '[1, 2': expected ',' or ']' at column 6");
  EXPECT_EQ(ErrorOf("{1: 2}"), "option value '{1: 2}': expected a string key at column 2");
  EXPECT_EQ(ErrorOf("\"abc"), "option value '\"abc': unterminated string at column 1");
  EXPECT_EQ(ErrorOf("2 3"), "option value '2 3': unexpected text after the value at column 3");
  EXPECT_EQ(ErrorOf("true"),
            "option value 'true': expected a value (a number, True, False, None, a \"string\", "
            "[...] or {...}), got 'true' at column 1");
  EXPECT_EQ(ErrorOf("12abc"), "option value '12abc': malformed number at column 1");
  EXPECT_EQ(ErrorOf("99999999999999999999"),
            "option value '99999999999999999999': integer out of range at column 1");
  EXPECT_EQ(ErrorOf("{\"a\": 1, \"a\": 2}"),
            "option value '{\"a\": 1, \"a\": 2}': duplicate key \"a\" at column 10");
  EXPECT_EQ(ErrorOf(""),
            "option value '': expected a value (a number, True, False, None, a \"string\", "
            "[...] or {...}) at column 1");
}

TEST(OptionValueTest, DeepNestingIsRejectedNotOverflowed) {
  std::string deep(100000, '[');
  EXPECT_NE(ErrorOf(deep).find("values nest too deeply"), std::string::npos);
}

TEST(OptionValueTest, KindsAndTypes) {
  // Reading a value as another kind is a program error: options are checked with
  // OptionValueFits before they are read.
  EXPECT_THROW(OptionValue::Str("x").as_int(), InternalError);
  EXPECT_EQ(OptionValue::Int(2).as_double(), 2.0);
  EXPECT_TRUE(OptionValueFits(OptionValue::Int(2), OptionType::kFloat));
  EXPECT_FALSE(OptionValueFits(OptionValue::Bool(true), OptionType::kInt));
  EXPECT_FALSE(OptionValueFits(OptionValue::Double(1), OptionType::kInt));
  EXPECT_EQ(ConvertOptionValue(OptionValue::Int(2), OptionType::kFloat), OptionValue::Double(2));
  EXPECT_NE(OptionValue::Int(2), OptionValue::Double(2));
}

}  // namespace
}  // namespace relaypass::transform
