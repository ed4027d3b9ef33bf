// The printing entry points: what surrounds the printed functions (relay_semantics.md 1.1).
#include "relaypass/text/printer.h"

#include "relay_printer.h"

namespace relaypass::text {

namespace {

constexpr const char* kVersionHeader = "#[version = \"0.0.5\"]\n";
constexpr const char* kMetadataOmitted =
    "/* For debugging purposes the metadata section has been omitted.\n"
    " * If you would like to see the full metadata section you can set the \n"
    " * option to `True` when invoking `astext`. \n"
    " */";

}  // namespace

std::string PrettyPrint(const ir::IRModule& mod) {
  RelayPrinter printer;
  std::string out;
  printer.PrintModule(mod, out);
  // TVM ends the text with a newline when it made meta references, even though it does not show
  // the table.
  if (!printer.meta().empty()) out += '\n';
  return out;
}

std::string PrettyPrint(const ir::Expr& expr) {
  RelayPrinter printer;
  std::string out;
  printer.PrintRoot(expr, out);
  if (!printer.meta().empty()) out += '\n';
  return out;
}

std::string AsText(const ir::IRModule& mod, bool show_meta_data) {
  RelayPrinter printer;
  std::string out = kVersionHeader;
  printer.PrintModule(mod, out);
  if (!printer.meta().empty()) {
    out += '\n';
    if (show_meta_data) {
      out += "#[metadata]\n";
      printer.meta().AppendJson(out);
    } else {
      out += kMetadataOmitted;
    }
  }
  return out;
}

}  // namespace relaypass::text
