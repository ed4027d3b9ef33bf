#include "relaypass/support/base64.h"

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

namespace relaypass::support {

namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// Two output characters for each 12-bit value: an encoded group of 3 bytes is two lookups.
struct PairTable {
  std::array<uint16_t, 4096> pair{};
  constexpr PairTable() {
    for (int v = 0; v < 4096; ++v) {
      // Little-endian: the first character in the low byte (std::memcpy writes it first).
      pair[v] = static_cast<uint16_t>(static_cast<unsigned char>(kAlphabet[v >> 6]) |
                                      (static_cast<unsigned char>(kAlphabet[v & 63]) << 8));
    }
  }
};
constexpr PairTable kPairs;

// The 6-bit value of each character shifted into place for each of the 4 positions of a group,
// or 0xFFFFFFFF (high bit set) for a character that is not base64.
struct DecodeTables {
  std::array<std::array<uint32_t, 256>, 4> shifted{};
  constexpr DecodeTables() {
    for (auto& table : shifted) table.fill(0xFFFFFFFFu);
    for (uint32_t i = 0; i < 64; ++i) {
      const auto c = static_cast<unsigned char>(kAlphabet[i]);
      shifted[0][c] = i << 18;
      shifted[1][c] = i << 12;
      shifted[2][c] = i << 6;
      shifted[3][c] = i;
    }
  }
};
constexpr DecodeTables kDecode;

static_assert(std::endian::native == std::endian::little, "the pair table assumes little endian");

}  // namespace

void EncodeBase64(const uint8_t* data, size_t n, char* out) {
  size_t i = 0;
  // 6 bytes (from one 8-byte big-endian load) to 8 characters (one store) per step.
  for (; i + 8 <= n; i += 6, out += 8) {
    uint64_t v;
    std::memcpy(&v, data + i, 8);
    v = __builtin_bswap64(v);
    const uint64_t chars = uint64_t{kPairs.pair[(v >> 52) & 0xFFF]} |
                           (uint64_t{kPairs.pair[(v >> 40) & 0xFFF]} << 16) |
                           (uint64_t{kPairs.pair[(v >> 28) & 0xFFF]} << 32) |
                           (uint64_t{kPairs.pair[(v >> 16) & 0xFFF]} << 48);
    std::memcpy(out, &chars, 8);
  }
  for (; i + 3 <= n; i += 3, out += 4) {
    const uint32_t v = (uint32_t{data[i]} << 16) | (uint32_t{data[i + 1]} << 8) | data[i + 2];
    std::memcpy(out, &kPairs.pair[v >> 12], 2);
    std::memcpy(out + 2, &kPairs.pair[v & 0xFFF], 2);
  }
  if (i < n) {
    uint32_t v = uint32_t{data[i]} << 16;
    if (i + 1 < n) v |= uint32_t{data[i + 1]} << 8;
    out[0] = kAlphabet[v >> 18];
    out[1] = kAlphabet[(v >> 12) & 63];
    out[2] = i + 1 < n ? kAlphabet[(v >> 6) & 63] : '=';
    out[3] = '=';
  }
}

void AppendBase64(const uint8_t* data, size_t n, std::string& out) {
  const size_t start = out.size();
  // resize_and_overwrite would skip zero-filling; resize costs one pass over fresh memory.
  out.resize(start + Base64EncodedSize(n));
  EncodeBase64(data, n, out.data() + start);
}

size_t Base64DecodedSize(std::string_view text) {
  if (text.size() % 4 != 0) return SIZE_MAX;
  size_t pad = 0;
  if (!text.empty() && text.back() == '=') pad = text[text.size() - 2] == '=' ? 2 : 1;
  return text.size() / 4 * 3 - pad;
}

bool DecodeBase64(std::string_view text, uint8_t* out) {
  const size_t size = Base64DecodedSize(text);
  if (size == SIZE_MAX) return false;
  if (text.empty()) return true;
  const auto* in = reinterpret_cast<const unsigned char*>(text.data());
  const size_t full = text.size() / 4 - 1;  // the last group may hold padding
  uint32_t bad = 0;                         // any invalid character sets the high bit
  size_t g = 0;
  // Two groups (8 characters) to 6 bytes per step, stored as 8 (the 2 extra bytes are
  // overwritten by the next step; at least 3 groups remain, so they are inside `out`).
  for (; g + 3 <= full; g += 2, in += 8, out += 6) {
    const uint32_t a = kDecode.shifted[0][in[0]] | kDecode.shifted[1][in[1]] |
                       kDecode.shifted[2][in[2]] | kDecode.shifted[3][in[3]];
    const uint32_t b = kDecode.shifted[0][in[4]] | kDecode.shifted[1][in[5]] |
                       kDecode.shifted[2][in[6]] | kDecode.shifted[3][in[7]];
    bad |= a | b;
    const uint64_t bytes = __builtin_bswap64((uint64_t{a} << 40) | (uint64_t{b & 0xFFFFFF} << 16));
    std::memcpy(out, &bytes, 8);
  }
  for (; g < full; ++g, in += 4, out += 3) {
    const uint32_t v = kDecode.shifted[0][in[0]] | kDecode.shifted[1][in[1]] |
                       kDecode.shifted[2][in[2]] | kDecode.shifted[3][in[3]];
    bad |= v;
    out[0] = static_cast<uint8_t>(v >> 16);
    out[1] = static_cast<uint8_t>(v >> 8);
    out[2] = static_cast<uint8_t>(v);
  }
  if (bad & 0x80000000u) return false;
  // The last group: '=' only at its end, after at least two characters.
  const size_t tail = size - full * 3;  // 1, 2 or 3 bytes
  uint32_t v = kDecode.shifted[0][in[0]] | kDecode.shifted[1][in[1]];
  if (tail >= 2) v |= kDecode.shifted[2][in[2]];
  if (tail == 3) v |= kDecode.shifted[3][in[3]];
  if (v & 0x80000000u) return false;
  out[0] = static_cast<uint8_t>(v >> 16);
  if (tail >= 2) out[1] = static_cast<uint8_t>(v >> 8);
  if (tail == 3) out[2] = static_cast<uint8_t>(v);
  return true;
}

}  // namespace relaypass::support
