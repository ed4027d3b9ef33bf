// The parser fuzzer's seeds (fuzz/corpus: closures, lets and ifs, metadata, ADTs and matches,
// references, polymorphic functions, `?` dimensions) parse and round-trip, and seeded random
// mutations of them hold the fuzzer's property (fuzz/parse_roundtrip.h): a relaypass::Error or a
// module that round-trips, never a crash or another exception. A deterministic, bounded slice of
// what `make fuzz` explores without limit, so that every `make test` covers the newer syntax.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "../../fuzz/parse_roundtrip.h"
#include "relaypass/text/parser.h"
#include "tool.h"

namespace relaypass::bad_input {
namespace {

std::filesystem::path CorpusDir() {
  return std::filesystem::path(RELAYPASS_TEST_DATA).parent_path().parent_path() / "fuzz" / "corpus";
}

std::vector<std::filesystem::path> Seeds() {
  std::vector<std::filesystem::path> seeds;
  for (const auto& entry : std::filesystem::directory_iterator(CorpusDir())) {
    if (entry.is_regular_file() && entry.path().extension() == ".relay") {
      seeds.push_back(entry.path());
    }
  }
  std::sort(seeds.begin(), seeds.end());
  return seeds;
}

// Fragments the mutator splices in: the text format's keywords and punctuation, with the ADT,
// reference, polymorphism and Any syntax among them.
const std::vector<std::string>& Fragments() {
  static const std::vector<std::string> fragments = {
      "type",       "match",   "match?", "=>",    "_",       "ref(",       "ref_read(",
      "ref_write(", "[A]",     "[A, B]", "A",     "?",       "(?, 3)",     "Cons",
      "Nil",        "List[A]", "List[",  "fn",    "let",     "if",         "else",
      "{",          "}",       "(",      ")",     ",",       ";",          "%0",
      "%x",         "@main",   "->",     "int32", "float32", "Tensor[",    "]",
      "1f",         "0",       "()",     "%xs",   "def",     "extern type"};
  return fragments;
}

// One random edit: delete a span, duplicate a span, or insert a fragment.
std::string Mutate(const std::string& text, std::mt19937& rng) {
  if (text.empty()) return Fragments()[rng() % Fragments().size()];
  std::string out = text;
  const size_t at = rng() % out.size();
  const size_t len = 1 + rng() % std::min<size_t>(16, out.size() - at);
  switch (rng() % 3) {
    case 0:
      out.erase(at, len);
      break;
    case 1:
      out.insert(at, out.substr(at, len));
      break;
    default:
      out.insert(at, " " + Fragments()[rng() % Fragments().size()] + " ");
      break;
  }
  return out;
}

TEST(SeedMutationTest, EverySeedParsesAndRoundTrips) {
  const std::vector<std::filesystem::path> seeds = Seeds();
  ASSERT_GE(seeds.size(), 6u);
  for (const auto& seed : seeds) {
    SCOPED_TRACE(seed.filename().string());
    const std::string text = ReadFile(seed.string());
    EXPECT_NO_THROW(text::ParseModule(text));  // a seed is a valid program
    EXPECT_EQ(fuzz::CheckParseRoundTrip(text), "");
  }
}

TEST(SeedMutationTest, SeededMutationsHoldTheFuzzProperty) {
  constexpr int kMutantsPerSeed = 400;
  std::mt19937 rng(20261205);
  for (const auto& seed : Seeds()) {
    const std::string text = ReadFile(seed.string());
    for (int i = 0; i < kMutantsPerSeed; ++i) {
      std::string mutant = Mutate(text, rng);
      if (rng() % 2) mutant = Mutate(mutant, rng);  // sometimes two edits
      SCOPED_TRACE(seed.filename().string() + " mutant " + std::to_string(i) + ":\n" + mutant);
      EXPECT_EQ(fuzz::CheckParseRoundTrip(mutant), "");
    }
  }
}

}  // namespace
}  // namespace relaypass::bad_input
