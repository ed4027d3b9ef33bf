// Scalar data types, spelled as DLPack/TVM spell them ("float32", "int64", "bool", "float32x4").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace relaypass::ir {

class DataType {
 public:
  enum class Code : uint8_t { kInt, kUInt, kFloat, kBFloat, kBool, kVoid };

  constexpr DataType() = default;
  constexpr DataType(Code code, int bits, int lanes = 1)
      : code_(code), bits_(static_cast<uint8_t>(bits)), lanes_(static_cast<uint16_t>(lanes)) {}

  static constexpr DataType Float(int bits) { return {Code::kFloat, bits}; }
  static constexpr DataType Int(int bits) { return {Code::kInt, bits}; }
  static constexpr DataType UInt(int bits) { return {Code::kUInt, bits}; }
  static constexpr DataType BFloat16() { return {Code::kBFloat, 16}; }
  static constexpr DataType Bool() { return {Code::kBool, 8}; }
  static constexpr DataType Void() { return {Code::kVoid, 0}; }
  static constexpr DataType Float32() { return Float(32); }
  static constexpr DataType Int32() { return Int(32); }
  static constexpr DataType Int64() { return Int(64); }

  /// Parses "float32", "int8", "bool", "float32x4", "void"; nullopt if not a dtype.
  static std::optional<DataType> Parse(std::string_view text);

  constexpr Code code() const { return code_; }
  constexpr int bits() const { return bits_; }
  constexpr int lanes() const { return lanes_; }
  constexpr bool is_void() const { return code_ == Code::kVoid; }
  constexpr bool is_float() const { return code_ == Code::kFloat || code_ == Code::kBFloat; }
  constexpr bool is_int() const { return code_ == Code::kInt; }
  constexpr bool is_uint() const { return code_ == Code::kUInt; }
  constexpr bool is_bool() const { return code_ == Code::kBool; }
  /// Bytes per element (bool takes one byte).
  constexpr int bytes() const { return (bits_ * lanes_ + 7) / 8; }

  std::string ToString() const;
  /// ToString's text appended to `out`, without a temporary string.
  void AppendTo(std::string& out) const;

  friend constexpr bool operator==(DataType a, DataType b) {
    return a.code_ == b.code_ && a.bits_ == b.bits_ && a.lanes_ == b.lanes_;
  }
  friend constexpr bool operator!=(DataType a, DataType b) { return !(a == b); }

 private:
  Code code_ = Code::kVoid;
  uint8_t bits_ = 0;
  uint16_t lanes_ = 1;
};

}  // namespace relaypass::ir
