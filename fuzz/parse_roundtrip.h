// The property the parser fuzzer checks (fuzz/parser_fuzzer.cc), shared with the regression test
// that replays its findings (tests/bad_input/fuzz_regression_test.cc).
//
// Any input either fails to parse or type-check with a relaypass::Error, or parses into a typed
// module m1 whose printed text (with its metadata) parses back into a module m2, and from there
// printing is a fixpoint: m2 prints to the same text as m1, that text parses into m3, and m2 and
// m3 are StructuralEqual with equal hashes. Anything else -- a crash, a sanitizer report, another
// exception type, or a broken round trip -- is a bug.
//
// m1 and m2 themselves are not compared: the printer writes float literals and float attributes
// with 6 significant digits, exactly as TVM does, so `epsilon=1.2345678f` reads back as 1.23457.
#pragma once

#include <string>
#include <string_view>

#include "relaypass/ir/structural.h"
#include "relaypass/support/error.h"
#include "relaypass/text/parser.h"
#include "relaypass/text/printer.h"

namespace relaypass::fuzz {

// "" when the property holds for `data`, otherwise what broke. Exceptions that are not
// relaypass::Error propagate: the caller treats them as bugs.
inline std::string CheckParseRoundTrip(std::string_view data) {
  ir::IRModule m1;
  try {
    text::ParseOptions options;
    options.source_name = "fuzz";
    m1 = text::ParseModule(std::string(data), options);
  } catch (const Error&) {
    return "";  // rejected input, with a typed error: fine
  }
  text::ParseOptions printed_options;
  printed_options.source_name = "printed";
  const std::string text1 = text::AsText(m1);
  ir::IRModule m2;
  try {
    m2 = text::ParseModule(text1, printed_options);
  } catch (const Error& e) {
    return std::string("the printed module does not parse back: ") + e.what() + "\n--- printed:\n" +
           text1;
  }
  const std::string text2 = text::AsText(m2);
  if (text2 != text1) {
    return "printing the reparsed module gives different text\n--- printed:\n" + text1 +
           "\n--- reprinted:\n" + text2;
  }
  const ir::IRModule m3 = text::ParseModule(text2, printed_options);
  if (!ir::StructuralEqual(m2, m3) || ir::StructuralHash(m2) != ir::StructuralHash(m3)) {
    return "parsing the same printed text twice gives modules that differ\n--- printed:\n" + text2;
  }
  return "";
}

}  // namespace relaypass::fuzz
