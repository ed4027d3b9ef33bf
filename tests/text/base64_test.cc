// support/base64.h, which the metadata section is written and read with: every length from 0 to
// 70 bytes (so each wide step and each tail), against a plain one-character-at-a-time encoding
// written here from RFC 4648's definition, and rejection of every misplaced or foreign byte.
#include "relaypass/support/base64.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace relaypass::support {
namespace {

// RFC 4648 section 4, one sextet at a time.
std::string Reference(const std::vector<uint8_t>& bytes) {
  static const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (size_t i = 0; i < bytes.size(); i += 3) {
    uint32_t v = uint32_t{bytes[i]} << 16;
    if (i + 1 < bytes.size()) v |= uint32_t{bytes[i + 1]} << 8;
    if (i + 2 < bytes.size()) v |= bytes[i + 2];
    out += alphabet[v >> 18];
    out += alphabet[(v >> 12) & 63];
    out += i + 1 < bytes.size() ? alphabet[(v >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? alphabet[v & 63] : '=';
  }
  return out;
}

TEST(Base64Test, EveryLengthMatchesTheRfcAndDecodesBack) {
  std::mt19937 rng(7);
  for (size_t n = 0; n <= 70; ++n) {
    std::vector<uint8_t> bytes(n);
    for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
    std::string encoded = "prefix";
    AppendBase64(bytes.data(), n, encoded);
    ASSERT_EQ(encoded, "prefix" + Reference(bytes)) << n;
    const std::string_view text = std::string_view(encoded).substr(6);
    ASSERT_EQ(Base64DecodedSize(text), n);
    std::vector<uint8_t> decoded(n + 8, 0xAB);  // guard bytes after the end stay untouched
    ASSERT_TRUE(DecodeBase64(text, decoded.data())) << n;
    EXPECT_EQ(std::vector<uint8_t>(decoded.begin(), decoded.begin() + static_cast<long>(n)), bytes);
    for (size_t k = n; k < n + 8; ++k) EXPECT_EQ(decoded[k], 0xAB) << n;
  }
  // Known vectors from RFC 4648 section 10.
  const std::string foobar = "foobar";
  std::string out;
  AppendBase64(reinterpret_cast<const uint8_t*>(foobar.data()), 6, out);
  EXPECT_EQ(out, "Zm9vYmFy");
  out.clear();
  AppendBase64(reinterpret_cast<const uint8_t*>(foobar.data()), 4, out);
  EXPECT_EQ(out, "Zm9vYg==");
}

TEST(Base64Test, RejectsForeignBytesAnywhereAndBadLengths) {
  std::vector<uint8_t> bytes(48, 0x5A);
  std::string good;
  AppendBase64(bytes.data(), bytes.size(), good);
  std::vector<uint8_t> out(bytes.size() + 8);
  for (size_t pos = 0; pos < good.size(); ++pos) {
    for (char bad : {'=', '\0', '-', '\xff', ' '}) {
      if (bad == '=' && pos + 1 == good.size()) continue;  // valid padding: 2 bytes, not 3
      std::string text = good;
      text[pos] = bad;
      EXPECT_FALSE(DecodeBase64(text, out.data())) << pos << " " << int(bad);
    }
  }
  EXPECT_EQ(Base64DecodedSize("abc"), SIZE_MAX);
  EXPECT_FALSE(DecodeBase64("abcde", out.data()));
  EXPECT_TRUE(DecodeBase64("", out.data()));
}

}  // namespace
}  // namespace relaypass::support
