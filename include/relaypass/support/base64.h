// Base64 (RFC 4648, with padding) for the metadata section of the text format, whose bulk is
// every constant's bytes: encoded and decoded in wide blocks through lookup tables, straight
// into the caller's buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace relaypass::support {

/// The number of characters `n` bytes encode to.
constexpr size_t Base64EncodedSize(size_t n) {
  return (n + 2) / 3 * 4;
}
/// Appends the encoding of `data[0, n)` to `out`.
void AppendBase64(const uint8_t* data, size_t n, std::string& out);
/// Writes the encoding of `data[0, n)` to `out` (Base64EncodedSize(n) characters).
void EncodeBase64(const uint8_t* data, size_t n, char* out);

/// The number of bytes `text` decodes to, or SIZE_MAX when its length is not a multiple of 4.
size_t Base64DecodedSize(std::string_view text);
/// Decodes `text` into `out` (Base64DecodedSize(text) bytes); false for a character that is not
/// base64 or misplaced padding (then `out` holds garbage).
bool DecodeBase64(std::string_view text, uint8_t* out);

}  // namespace relaypass::support
