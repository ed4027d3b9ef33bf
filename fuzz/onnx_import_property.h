// The property the ONNX importer fuzzer checks (fuzz/onnx_fuzzer.cc), shared with the regression
// test that replays its findings (tests/bad_input/onnx_fuzz_regression_test.cc).
//
// Any bytes either fail to import with a relaypass::Error (an OnnxError for the model, a
// TypeError from the converted graph), or import into a typed module that prints as Relay text
// and, when every input name is a Relay identifier, parses back from that text. Anything else --
// a crash, a sanitizer report, an exception of another type (std::bad_alloc included: sizes must
// be checked before allocating), or such a module whose text does not read back -- is a bug.
// (Graph inputs keep their ONNX names as TVM's from_onnx keeps them, and like TVM's, a name
// such as "x[0]" or "input.1" prints as it is and does not read back as one variable.)
#pragma once

#include <string>
#include <string_view>

#include "relaypass/frontend/onnx.h"
#include "relaypass/support/error.h"
#include "relaypass/text/parser.h"
#include "relaypass/text/printer.h"

namespace relaypass::fuzz {

// Whether `name` is what the Relay lexer reads after '%': a letter or '_', then letters, digits,
// '_', and '/' before a letter or '_'.
inline bool IsRelayIdentifier(const std::string& name) {
  auto start = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (name.empty() || !start(name[0])) return false;
  for (size_t i = 1; i < name.size(); ++i) {
    const char c = name[i];
    const bool ok = start(c) || (c >= '0' && c <= '9') ||
                    (c == '/' && i + 1 < name.size() && start(name[i + 1]));
    if (!ok) return false;
  }
  return true;
}

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
  for (const std::string& name : model.input_names) {
    if (!IsRelayIdentifier(name)) return "";
  }
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
