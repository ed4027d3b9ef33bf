#include "relaypass/runtime/param_dict.h"

#include <cstring>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "bytes_io.h"
#include "relaypass/ir/tensor_size.h"
#include "relaypass/support/error.h"

namespace relaypass::runtime {

namespace {

// DLPack's type codes (dlpack.h, DLDataTypeCode).
enum DLTypeCode : uint8_t { kDLInt = 0, kDLUInt = 1, kDLFloat = 2, kDLBfloat = 4, kDLBool = 6 };
constexpr int32_t kDLCPU = 1;

// The smallest array record: magic, reserved, device, ndim, dtype and data byte count.
constexpr uint64_t kMinArrayBytes = 8 + 8 + 8 + 4 + 4 + 8;

struct DLType {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
};

bool IsByteMultiple(int bits) {
  return bits == 8 || bits == 16 || bits == 32 || bits == 64;
}

std::optional<DLType> ToDLType(ir::DataType dtype) {
  using Code = ir::DataType::Code;
  if (dtype.lanes() != 1) return std::nullopt;
  const int bits = dtype.bits();
  switch (dtype.code()) {
    case Code::kInt:
      if (IsByteMultiple(bits)) return DLType{kDLInt, static_cast<uint8_t>(bits), 1};
      break;
    case Code::kUInt:
      if (IsByteMultiple(bits)) return DLType{kDLUInt, static_cast<uint8_t>(bits), 1};
      break;
    case Code::kFloat:
      if (bits == 16 || bits == 32 || bits == 64) {
        return DLType{kDLFloat, static_cast<uint8_t>(bits), 1};
      }
      break;
    case Code::kBFloat:
      if (bits == 16) return DLType{kDLBfloat, 16, 1};
      break;
    case Code::kBool:
      return DLType{kDLUInt, 1, 1};  // TVM's DataType::Bool() is UInt(1)
    case Code::kVoid:
      break;
  }
  return std::nullopt;
}

std::optional<ir::DataType> FromDLType(DLType t) {
  if (t.lanes != 1) return std::nullopt;
  switch (t.code) {
    case kDLInt:
      if (IsByteMultiple(t.bits)) return ir::DataType::Int(t.bits);
      break;
    case kDLUInt:
      if (t.bits == 1) return ir::DataType::Bool();
      if (IsByteMultiple(t.bits)) return ir::DataType::UInt(t.bits);
      break;
    case kDLFloat:
      if (t.bits == 16 || t.bits == 32 || t.bits == 64) return ir::DataType::Float(t.bits);
      break;
    case kDLBfloat:
      if (t.bits == 16) return ir::DataType::BFloat16();
      break;
    case kDLBool:
      if (t.bits == 8) return ir::DataType::Bool();
      break;
    default:
      break;
  }
  return std::nullopt;
}

void SaveArray(std::string& out, const std::string& name, const ir::NDArray& array) {
  if (!array.defined()) throw Error("save_param_dict: parameter '" + name + "' is undefined");
  const std::optional<DLType> dl = ToDLType(array.dtype());
  if (!dl) {
    throw Error("save_param_dict: parameter '" + name + "' has dtype " + array.dtype().ToString() +
                ", which a TVM parameter file cannot hold");
  }
  AppendLE<uint64_t>(out, kTVMNDArrayMagic);
  AppendLE<uint64_t>(out, 0);
  AppendLE<int32_t>(out, kDLCPU);
  AppendLE<int32_t>(out, 0);  // device_id
  AppendLE<int32_t>(out, array.ndim());
  AppendLE<uint8_t>(out, dl->code);
  AppendLE<uint8_t>(out, dl->bits);
  AppendLE<uint16_t>(out, dl->lanes);
  for (int64_t d : array.shape()) AppendLE<int64_t>(out, d);
  const size_t nbytes = array.nbytes();
  AppendLE<int64_t>(out, static_cast<int64_t>(nbytes));
  out.append(static_cast<const char*>(array.raw_data()), nbytes);
}

[[noreturn]] void FailParam(const ByteReader& in, size_t at, std::string_view name,
                            const std::string& message) {
  in.Fail(at, "parameter '" + std::string(name) + "': " + message);
}

ir::NDArray LoadArray(ByteReader& in, std::string_view name) {
  const size_t start = in.offset();
  if (in.Read<uint64_t>("the array magic") != kTVMNDArrayMagic) {
    FailParam(in, start, name, "not a TVM NDArray (wrong array magic)");
  }
  (void)in.Read<uint64_t>("the array's reserved field");
  const size_t device_at = in.offset();
  const auto device_type = in.Read<int32_t>("the device type");
  (void)in.Read<int32_t>("the device id");
  if (device_type != kDLCPU) {
    FailParam(in, device_at, name,
              "device type " + std::to_string(device_type) +
                  " is not the CPU (1): TVM saves every array as a CPU array");
  }
  const size_t ndim_at = in.offset();
  const auto ndim = in.Read<int32_t>("ndim");
  if (ndim < 0 || ndim > kMaxParamDims) {
    FailParam(
        in, ndim_at, name,
        "ndim " + std::to_string(ndim) + " is outside [0, " + std::to_string(kMaxParamDims) + "]");
  }
  const size_t dtype_at = in.offset();
  DLType dl;
  dl.code = in.Read<uint8_t>("the dtype code");
  dl.bits = in.Read<uint8_t>("the dtype bits");
  dl.lanes = in.Read<uint16_t>("the dtype lanes");
  const std::optional<ir::DataType> dtype = FromDLType(dl);
  if (!dtype) {
    FailParam(in, dtype_at, name,
              "unsupported dtype (code " + std::to_string(dl.code) + ", bits " +
                  std::to_string(dl.bits) + ", lanes " + std::to_string(dl.lanes) + ")");
  }
  const size_t shape_at = in.offset();
  ir::Shape shape;
  shape.reserve(static_cast<size_t>(ndim));  // at most kMaxParamDims
  for (int32_t i = 0; i < ndim; ++i) {
    const size_t dim_at = in.offset();
    const auto d = in.Read<int64_t>("a dimension");
    if (d < 0) FailParam(in, dim_at, name, "negative dimension " + std::to_string(d));
    shape.push_back(d);
  }
  const size_t size_at = in.offset();
  const auto data_bytes = in.Read<int64_t>("the data byte count");
  const std::optional<int64_t> expected = ir::ByteCount(shape, *dtype);
  if (!expected) {
    FailParam(in, shape_at, name, ir::TensorText(shape, *dtype) + ": its size overflows int64");
  }
  if (data_bytes != *expected) {
    FailParam(in, size_at, name,
              "data byte count " + std::to_string(data_bytes) + " is not the " +
                  std::to_string(*expected) + " bytes of a " + ir::TensorText(shape, *dtype));
  }
  const std::string_view data = in.Bytes(static_cast<uint64_t>(data_bytes),
                                         "the data of parameter '" + std::string(name) + "'");
  // Only now, with the bytes known to be there, is the tensor allocated.
  return ir::NDArray::FromBytes(shape, *dtype, data.data());
}

}  // namespace

std::string SaveParamDict(const std::map<std::string, ir::NDArray>& params) {
  std::string out;
  AppendLE<uint64_t>(out, kTVMNDArrayListMagic);
  AppendLE<uint64_t>(out, 0);
  AppendLE<uint64_t>(out, params.size());
  for (const auto& [name, array] : params) {
    AppendLE<uint64_t>(out, name.size());
    out += name;
  }
  AppendLE<uint64_t>(out, params.size());
  for (const auto& [name, array] : params) SaveArray(out, name, array);
  return out;
}

std::map<std::string, ir::NDArray> LoadParamDict(std::string_view bytes,
                                                 const std::string& source_name) {
  ByteReader in(bytes, source_name);
  if (in.Read<uint64_t>("the file magic") != kTVMNDArrayListMagic) {
    in.Fail(0, "not a TVM parameter file (wrong magic)");
  }
  (void)in.Read<uint64_t>("the reserved field");

  const size_t names_at = in.offset();
  const auto name_count = in.Read<uint64_t>("the name count");
  if (name_count > in.remaining() / 8) {  // each name takes at least its u64 length
    in.Fail(names_at, "name count " + std::to_string(name_count) + " is more than the " +
                          std::to_string(in.remaining()) + " remaining bytes can hold");
  }
  std::vector<std::string_view> names;
  names.reserve(static_cast<size_t>(name_count));
  std::set<std::string_view> seen;
  for (uint64_t i = 0; i < name_count; ++i) {
    const size_t at = in.offset();
    const auto length = in.Read<uint64_t>("a name length");
    names.push_back(in.Bytes(length, "a name"));
    if (!seen.insert(names.back()).second) {
      in.Fail(at, "duplicate parameter name '" + std::string(names.back()) + "'");
    }
  }

  const size_t arrays_at = in.offset();
  const auto array_count = in.Read<uint64_t>("the array count");
  if (array_count != name_count) {
    in.Fail(arrays_at, "array count " + std::to_string(array_count) +
                           " differs from the name count " + std::to_string(name_count));
  }
  if (array_count > in.remaining() / kMinArrayBytes) {
    in.Fail(arrays_at, "array count " + std::to_string(array_count) + " is more than the " +
                           std::to_string(in.remaining()) + " remaining bytes can hold");
  }

  std::map<std::string, ir::NDArray> params;
  for (std::string_view name : names) params.emplace(name, LoadArray(in, name));
  if (!in.at_end()) {
    in.Fail(in.offset(), std::to_string(in.remaining()) + " bytes after the last array");
  }
  return params;
}

}  // namespace relaypass::runtime
