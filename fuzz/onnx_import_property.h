// The property the ONNX importer fuzzer checks (fuzz/onnx_fuzzer.cc), shared with the regression
// test that replays its findings (tests/bad_input/onnx_fuzz_regression_test.cc).
//
// Any bytes either fail to import with a relaypass::Error (an OnnxError for the model, a
// TypeError from the converted graph), or import into a typed module that prints as Relay text
// and parses back from that text. Anything else -- a crash, a sanitizer report, an exception of
// another type (std::bad_alloc included: sizes must be checked before allocating), or a module
// whose printed text does not read back -- is a bug.
#pragma once

#include <string>
#include <string_view>

#include "relaypass/frontend/onnx.h"
#include "relaypass/support/error.h"
#include "relaypass/text/parser.h"
#include "relaypass/text/printer.h"

namespace relaypass::fuzz {

// "" when the property holds for `data`, otherwise what broke. Exceptions that are not
// relaypass::Error propagate: the caller treats them as bugs.
inline std::string CheckOnnxImport(std::string_view data) {
  frontend::OnnxModel model;
  try {
    model = frontend::FromOnnxBytes(std::string(data), {}, "fuzz.onnx");
  } catch (const Error&) {
    return "";  // rejected with a typed error: fine
  }
  const std::string printed = text::AsText(model.mod);
  try {
    text::ParseOptions options;
    options.source_name = "printed";
    text::ParseModule(printed, options);
  } catch (const Error& e) {
    return std::string("the imported module's text does not parse back: ") + e.what();
  }
  return "";
}

}  // namespace relaypass::fuzz
