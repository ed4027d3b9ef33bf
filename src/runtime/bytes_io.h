// Little-endian integers into and out of byte strings, for the runtime's file formats. The reader
// checks every read against the bytes left and names the source and the byte offset of the field
// at fault; nothing it reads is trusted to size an allocation until checked against what remains.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include "relaypass/support/error.h"

namespace relaypass::runtime {

// The formats are little-endian and tensors are copied as they are in memory.
static_assert(std::endian::native == std::endian::little,
              "relaypass's runtime file formats assume a little-endian host");

template <typename T>
void AppendLE(std::string& out, T value) {
  static_assert(std::is_integral_v<T>);
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.append(bytes, sizeof(T));
}

class ByteReader {
 public:
  ByteReader(std::string_view bytes, const std::string& source) : bytes_(bytes), source_(source) {}

  size_t offset() const { return pos_; }
  size_t remaining() const { return bytes_.size() - pos_; }
  bool at_end() const { return pos_ == bytes_.size(); }

  // The integer at the current offset; `what` names the field in the error when it is cut short.
  template <typename T>
  T Read(std::string_view what) {
    static_assert(std::is_integral_v<T>);
    Need(sizeof(T), what);
    T value;
    std::memcpy(&value, bytes_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return value;
  }

  // The next `n` bytes, a view of the input.
  std::string_view Bytes(uint64_t n, std::string_view what) {
    Need(n, what);
    std::string_view out = bytes_.substr(pos_, static_cast<size_t>(n));
    pos_ += static_cast<size_t>(n);
    return out;
  }

  [[noreturn]] void Fail(size_t at, const std::string& message) const {
    throw Error(source_ + ": byte " + std::to_string(at) + ": " + message);
  }

 private:
  void Need(uint64_t n, std::string_view what) const {
    if (n > remaining()) {
      Fail(pos_, "truncated: " + std::string(what) + " needs " + std::to_string(n) +
                     " bytes, only " + std::to_string(remaining()) + " remain");
    }
  }

  std::string_view bytes_;
  const std::string& source_;
  size_t pos_ = 0;
};

}  // namespace relaypass::runtime
