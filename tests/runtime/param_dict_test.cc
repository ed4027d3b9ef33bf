// SaveParamDict / LoadParamDict. The expected bytes are written out by hand from TVM v0.13's
// source: SaveParams and LoadParams in src/runtime/file_utils.cc, SaveDLTensor and NDArray::Load
// in include/tvm/runtime/ndarray.h, and dmlc's serializer (a std::vector<std::string> is a u64
// count, then each string as a u64 length and its bytes). Everything is little-endian.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <string>

#include "../../fuzz/runtime_files_property.h"
#include "relaypass/runtime/param_dict.h"
#include "relaypass/support/error.h"

namespace relaypass::runtime {
namespace {

using ir::DataType;
using ir::NDArray;

template <typename T>
NDArray Make(const ir::Shape& shape, DataType dtype, std::initializer_list<T> values) {
  NDArray out = NDArray::Empty(shape, dtype);
  EXPECT_EQ(out.nbytes(), values.size() * sizeof(T));
  if (values.size()) std::memcpy(out.mutable_raw_data(), values.begin(), out.nbytes());
  return out;
}

std::string Bytes(std::initializer_list<int> bytes) {
  std::string out;
  for (int b : bytes) out += static_cast<char>(b);
  return out;
}

// The message of the relaypass::Error that loading `bytes` throws ("" if it loads).
std::string LoadError(const std::string& bytes) {
  try {
    LoadParamDict(bytes, "params.bin");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

std::map<std::string, NDArray> SmallDict() {
  return {{"a", Make<int8_t>({2}, DataType::Int(8), {1, -2})},
          {"b", Make<float>({}, DataType::Float32(), {1.0f})}};
}

// {"a": int8 [1, -2], "b": float32 scalar 1.0}, byte by byte as TVM's SaveParams writes it.
const std::string kSmallDictBytes = Bytes({
    0xB7, 0x9C, 0x04, 0x05, 0x4F, 0x8D, 0xE5, 0xF7,  // kTVMNDArrayListMagic
    0, 0, 0, 0, 0, 0, 0, 0,                          // reserved
    2, 0, 0, 0, 0, 0, 0, 0,                          // two names
    1, 0, 0, 0, 0, 0, 0, 0, 'a',                     // "a"
    1, 0, 0, 0, 0, 0, 0, 0, 'b',                     // "b"
    2, 0, 0, 0, 0, 0, 0, 0,                          // two arrays
    // "a": int8, shape (2,)
    0x3F, 0xA1, 0xB4, 0x96, 0xF0, 0x40, 0x5E, 0xDD,  // kTVMNDArrayMagic
    0, 0, 0, 0, 0, 0, 0, 0,                          // reserved
    1, 0, 0, 0, 0, 0, 0, 0,                          // DLDevice {kDLCPU, 0}
    1, 0, 0, 0,                                      // ndim 1
    0, 8, 1, 0,                                      // DLDataType {kDLInt, 8, 1}
    2, 0, 0, 0, 0, 0, 0, 0,                          // shape[0] = 2
    2, 0, 0, 0, 0, 0, 0, 0,                          // 2 data bytes
    0x01, 0xFE,                                      // 1, -2
    // "b": float32, shape ()
    0x3F, 0xA1, 0xB4, 0x96, 0xF0, 0x40, 0x5E, 0xDD,  // kTVMNDArrayMagic
    0, 0, 0, 0, 0, 0, 0, 0,                          // reserved
    1, 0, 0, 0, 0, 0, 0, 0,                          // DLDevice {kDLCPU, 0}
    0, 0, 0, 0,                                      // ndim 0
    2, 32, 1, 0,                                     // DLDataType {kDLFloat, 32, 1}
    4, 0, 0, 0, 0, 0, 0, 0,                          // 4 data bytes (one element)
    0x00, 0x00, 0x80, 0x3F,                          // 1.0f
});

// Offsets into kSmallDictBytes (counted from the layout above).
constexpr size_t kNameCountAt = 16;
constexpr size_t kArrayCountAt = 42;
constexpr size_t kFirstArrayAt = 50;
constexpr size_t kFirstNdimAt = kFirstArrayAt + 24;
constexpr size_t kFirstDtypeAt = kFirstArrayAt + 28;
constexpr size_t kFirstShapeAt = kFirstArrayAt + 32;
constexpr size_t kFirstSizeAt = kFirstArrayAt + 40;

void PutU64(std::string& bytes, size_t at, uint64_t value) {
  std::memcpy(&bytes[at], &value, 8);
}
void PutI32(std::string& bytes, size_t at, int32_t value) {
  std::memcpy(&bytes[at], &value, 4);
}

TEST(ParamDictTest, SmallDictIsTvmsBytesExactly) {
  EXPECT_EQ(kSmallDictBytes.size(), 144u);  // 50 (header and names) + 50 ("a") + 44 ("b")
  EXPECT_EQ(SaveParamDict(SmallDict()), kSmallDictBytes);
}

TEST(ParamDictTest, BoolIsTvmsUInt1WithOneBytePerElement) {
  // TVM v0.13's DataType::Bool() is UInt(1): DLDataType {kDLUInt = 1, 1, 1}; SaveDLTensor's
  // element size is (bits + 7) / 8 = 1 byte.
  const std::string bytes = SaveParamDict({{"m", Make<uint8_t>({3}, DataType::Bool(), {1, 0, 1})}});
  const size_t dtype_at = 8 + 8 + 8 + 9 + 8 + 28;
  EXPECT_EQ(bytes.substr(dtype_at, 4), Bytes({1, 1, 1, 0}));
  EXPECT_EQ(bytes.substr(bytes.size() - 11), Bytes({3, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1}));
  EXPECT_EQ(LoadParamDict(bytes, "m").at("m").dtype(), DataType::Bool());
}

TEST(ParamDictTest, LoadsTheHandWrittenBytes) {
  const auto params = LoadParamDict(kSmallDictBytes, "small");
  ASSERT_EQ(params.size(), 2u);
  EXPECT_TRUE(params.at("a").BitwiseEqual(SmallDict().at("a")));
  EXPECT_TRUE(params.at("b").BitwiseEqual(SmallDict().at("b")));
  EXPECT_EQ(params.at("b").ndim(), 0);
}

TEST(ParamDictTest, RoundTripsEveryDtype) {
  // Values chosen by hand; float16 and bfloat16 are their bit patterns (0x3C00 is float16 1.0,
  // 0x3F80 is bfloat16 1.0).
  const std::map<std::string, NDArray> params = {
      {"f32", Make<float>({2, 3}, DataType::Float32(), {0.5f, -1.25f, 3e38f, 0.0f, -0.0f, 7.0f})},
      {"f64", Make<double>({1}, DataType::Float(64), {1e300})},
      {"f16", Make<uint16_t>({2}, DataType::Float(16), {0x3C00, 0xC000})},
      {"bf16", Make<uint16_t>({2}, DataType::BFloat16(), {0x3F80, 0x0001})},
      {"i8", Make<int8_t>({4}, DataType::Int(8), {-128, -1, 0, 127})},
      {"i16", Make<int16_t>({1}, DataType::Int(16), {-300})},
      {"i32", Make<int32_t>({1, 1}, DataType::Int32(), {123456})},
      {"i64", Make<int64_t>({2}, DataType::Int64(), {INT64_MIN, INT64_MAX})},
      {"u8", Make<uint8_t>({1}, DataType::UInt(8), {255})},
      {"u16", Make<uint16_t>({1}, DataType::UInt(16), {65535})},
      {"u32", Make<uint32_t>({1}, DataType::UInt(32), {4000000000u})},
      {"u64", Make<uint64_t>({1}, DataType::UInt(64), {UINT64_MAX})},
      {"bool", Make<uint8_t>({2, 2}, DataType::Bool(), {1, 0, 0, 1})},
      {"scalar", Make<int64_t>({}, DataType::Int64(), {-7})},
      {"empty", Make<float>({0, 3}, DataType::Float32(), {})},
      {"", Make<int32_t>({1}, DataType::Int32(), {5})},  // TVM allows an empty name
  };
  const auto loaded = LoadParamDict(SaveParamDict(params), "round trip");
  ASSERT_EQ(loaded.size(), params.size());
  for (const auto& [name, array] : params) {
    ASSERT_TRUE(loaded.count(name)) << name;
    EXPECT_TRUE(loaded.at(name).BitwiseEqual(array)) << name;
  }
}

TEST(ParamDictTest, EmptyDict) {
  // Magic, reserved, no names, no arrays: four u64s.
  const std::string bytes = SaveParamDict({});
  EXPECT_EQ(bytes.size(), 32u);
  EXPECT_TRUE(LoadParamDict(bytes, "empty").empty());
}

TEST(ParamDictTest, NamesInAnyOrderLoad) {
  // TVM writes its Map's iteration order; here "b" comes before "a": names "b","a", arrays
  // swapped accordingly.
  std::string bytes = kSmallDictBytes;
  bytes[32] = 'b';
  bytes[41] = 'a';
  const std::string array_a = kSmallDictBytes.substr(kFirstArrayAt, 50);
  const std::string array_b = kSmallDictBytes.substr(kFirstArrayAt + 50);
  bytes = bytes.substr(0, kFirstArrayAt) + array_b + array_a;
  const auto params = LoadParamDict(bytes, "swapped");
  EXPECT_TRUE(params.at("a").BitwiseEqual(SmallDict().at("a")));
  EXPECT_TRUE(params.at("b").BitwiseEqual(SmallDict().at("b")));
}

TEST(ParamDictTest, SaveRefusesWhatTvmCannotRead) {
  EXPECT_THROW(SaveParamDict({{"v", NDArray::Empty({2}, DataType(DataType::Code::kFloat, 32, 4))}}),
               Error);
  EXPECT_THROW(SaveParamDict({{"i4", NDArray::Empty({2}, DataType::Int(4))}}), Error);
  try {
    SaveParamDict({{"w", NDArray()}});
    ADD_FAILURE() << "an undefined array was saved";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'w'"), std::string::npos) << e.what();
  }
}

TEST(ParamDictTest, EveryTruncationIsAnError) {
  for (size_t n = 0; n < kSmallDictBytes.size(); ++n) {
    const std::string message = LoadError(kSmallDictBytes.substr(0, n));
    EXPECT_NE(message.find("params.bin: byte "), std::string::npos) << n << ": " << message;
  }
}

TEST(ParamDictTest, EveryTruncationOfABiggerDictIsAnError) {
  const std::string bytes = SaveParamDict({
      {"w", Make<float>({2, 2}, DataType::Float32(), {1, 2, 3, 4})},
      {"flag", Make<uint8_t>({}, DataType::Bool(), {1})},
      {"idx", Make<int64_t>({3}, DataType::Int64(), {0, 1, 2})},
  });
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_THROW(LoadParamDict(std::string_view(bytes).substr(0, n), "cut"), Error) << n;
  }
}

TEST(ParamDictTest, DamagedHeader) {
  std::string bytes = kSmallDictBytes;
  bytes[0] ^= 0x01;
  EXPECT_EQ(LoadError(bytes), "params.bin: byte 0: not a TVM parameter file (wrong magic)");

  bytes = kSmallDictBytes;
  PutU64(bytes, kNameCountAt, uint64_t{1} << 62);
  EXPECT_NE(LoadError(bytes).find("byte 16: name count 4611686018427387904 is more than"),
            std::string::npos)
      << LoadError(bytes);

  bytes = kSmallDictBytes;
  PutU64(bytes, kNameCountAt + 8, uint64_t{1} << 60);  // the first name's length
  EXPECT_NE(LoadError(bytes).find("truncated: a name needs"), std::string::npos);

  bytes = kSmallDictBytes;
  PutU64(bytes, kArrayCountAt, 3);
  EXPECT_EQ(LoadError(bytes), "params.bin: byte 42: array count 3 differs from the name count 2");

  bytes = kSmallDictBytes;
  bytes[41] = 'a';  // the second name is "a" too
  EXPECT_EQ(LoadError(bytes), "params.bin: byte 33: duplicate parameter name 'a'");

  EXPECT_EQ(LoadError(kSmallDictBytes + "x"), "params.bin: byte 144: 1 bytes after the last array");
}

TEST(ParamDictTest, HugeCountsThatAgree) {
  // Both counts huge and equal: the names cannot fit, found before anything is allocated.
  std::string bytes = kSmallDictBytes.substr(0, 24);
  PutU64(bytes, kNameCountAt, UINT64_MAX);
  EXPECT_NE(LoadError(bytes).find("name count"), std::string::npos);
  // Zero names with a huge array count.
  bytes = SaveParamDict({});
  PutU64(bytes, 24, UINT64_MAX);
  EXPECT_NE(LoadError(bytes).find("differs from the name count 0"), std::string::npos);
}

TEST(ParamDictTest, DamagedArray) {
  std::string bytes = kSmallDictBytes;
  bytes[kFirstArrayAt + 7] ^= 0x40;
  EXPECT_EQ(LoadError(bytes),
            "params.bin: byte 50: parameter 'a': not a TVM NDArray (wrong array magic)");

  bytes = kSmallDictBytes;
  PutI32(bytes, kFirstArrayAt + 16, 2);  // kDLCUDA
  EXPECT_NE(LoadError(bytes).find("byte 66: parameter 'a': device type 2 is not the CPU"),
            std::string::npos)
      << LoadError(bytes);

  for (int32_t ndim : {-1, 65, 1 << 30, INT32_MIN}) {
    bytes = kSmallDictBytes;
    PutI32(bytes, kFirstNdimAt, ndim);
    EXPECT_EQ(LoadError(bytes), "params.bin: byte 74: parameter 'a': ndim " + std::to_string(ndim) +
                                    " is outside [0, 64]");
  }

  // Dtypes relaypass does not read: complex64, a handle, int4, float32x4, float8, uint1x2.
  struct Dtype {
    int code, bits, lanes;
  };
  for (auto [code, bits, lanes] : {Dtype{5, 64, 1}, Dtype{3, 64, 1}, Dtype{0, 4, 1},
                                   Dtype{2, 32, 4}, Dtype{2, 8, 1}, Dtype{1, 1, 2}}) {
    bytes = kSmallDictBytes;
    bytes[kFirstDtypeAt] = static_cast<char>(code);
    bytes[kFirstDtypeAt + 1] = static_cast<char>(bits);
    bytes[kFirstDtypeAt + 2] = static_cast<char>(lanes);
    EXPECT_EQ(LoadError(bytes), "params.bin: byte 78: parameter 'a': unsupported dtype (code " +
                                    std::to_string(code) + ", bits " + std::to_string(bits) +
                                    ", lanes " + std::to_string(lanes) + ")");
  }

  bytes = kSmallDictBytes;
  PutU64(bytes, kFirstShapeAt, static_cast<uint64_t>(-2));
  EXPECT_EQ(LoadError(bytes), "params.bin: byte 82: parameter 'a': negative dimension -2");

  bytes = kSmallDictBytes;
  PutU64(bytes, kFirstSizeAt, 3);
  EXPECT_EQ(LoadError(bytes),
            "params.bin: byte 90: parameter 'a': data byte count 3 is not the 2 bytes of a tensor "
            "of shape (2,) int8");
}

TEST(ParamDictTest, HugeShapesAreRefusedBeforeAllocating) {
  // "a" claims a 2-D int8 tensor of 2^40 x 2^40 elements: the element count overflows. ("b"
  // follows unchanged, so the array count stays plausible.)
  const std::string array_b = kSmallDictBytes.substr(kFirstArrayAt + 50);
  std::string bytes = kSmallDictBytes.substr(0, kFirstShapeAt);
  PutI32(bytes, kFirstNdimAt, 2);
  bytes += Bytes({0, 0, 0, 0, 0, 1, 0, 0}) + Bytes({0, 0, 0, 0, 0, 1, 0, 0});  // 2^40, 2^40
  bytes += std::string(8, '\0') + array_b;
  EXPECT_NE(LoadError(bytes).find("byte 82: parameter 'a': tensor of shape (1099511627776, "
                                  "1099511627776) int8: its size overflows int64"),
            std::string::npos)
      << LoadError(bytes);

  // 2^20 x 2^20 float32 (4 TiB) with the matching byte count: the data is not there, and the
  // check that says so comes before any allocation.
  bytes = kSmallDictBytes.substr(0, kFirstDtypeAt);
  PutI32(bytes, kFirstNdimAt, 2);
  bytes += Bytes({2, 32, 1, 0});
  bytes += Bytes({0, 0, 16, 0, 0, 0, 0, 0}) + Bytes({0, 0, 16, 0, 0, 0, 0, 0});  // 2^20, 2^20
  bytes += Bytes({0, 0, 0, 0, 0, 4, 0, 0}) + array_b;                            // 2^42 bytes
  EXPECT_NE(LoadError(bytes).find("truncated: the data of parameter 'a' needs 4398046511104 bytes"),
            std::string::npos)
      << LoadError(bytes);
}

TEST(ParamDictTest, EverySingleByteFlipIsAnErrorOrADict) {
  // Any byte changed anywhere either loads (then saves and loads back the same) or is a
  // relaypass::Error: the fuzzer's property, fuzz/runtime_files_property.h.
  for (size_t i = 0; i < kSmallDictBytes.size(); ++i) {
    for (int flip : {0x01, 0x80, 0xFF}) {
      std::string bytes = kSmallDictBytes;
      bytes[i] = static_cast<char>(bytes[i] ^ flip);
      EXPECT_EQ(fuzz::CheckParamDictFile(bytes), "") << i << " ^ " << flip;
    }
  }
}

}  // namespace
}  // namespace relaypass::runtime
