#include "tensor.h"

#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>

#include "relaypass/frontend/onnx.h"
#include "relaypass/support/path_inside.h"

namespace relaypass::frontend::onnx_import {

namespace {

using TP = onnx::TensorProto;

[[noreturn]] void Fail(const std::string& what, const std::string& why) {
  throw OnnxError(what + ": " + why);
}

// Copies n elements of the repeated field `src` converted to T.
template <typename T, typename Field>
void CopyField(const Field& src, int64_t n, ir::NDArray& out, const std::string& what) {
  if (src.size() != n) {
    Fail(what,
         "has " + std::to_string(src.size()) + " values for " + std::to_string(n) + " elements");
  }
  T* dst = out.mutable_data<T>();
  for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<T>(src.Get(static_cast<int>(i)));
}

int64_t ExternalNumber(const std::string& text, const std::string& key, const std::string& what) {
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 0) {
    Fail(what, "external data " + key + " '" + text + "' is not a non-negative integer");
  }
  return value;
}

// The external data of `tensor`: exactly `nbytes` bytes, read from a file inside the model's
// folder (as ONNX's checker requires: a relative location that does not climb out of it, here
// also through symbolic links).
std::string ReadExternal(const TP& tensor, const std::string& base_dir, size_t nbytes,
                         const std::string& what) {
  std::string location;
  int64_t offset = 0, length = -1;
  for (const auto& kv : tensor.external_data()) {
    if (kv.key() == "location") location = kv.value();
    if (kv.key() == "offset") offset = ExternalNumber(kv.value(), "offset", what);
    if (kv.key() == "length") length = ExternalNumber(kv.value(), "length", what);
  }
  if (location.empty()) Fail(what, "external data without a location");
  // Resolved through symbolic links: a link inside the folder may not lead out of it.
  const std::optional<std::filesystem::path> resolved =
      support::ResolveInsideFolder(base_dir, location);
  if (!resolved) {
    Fail(what, "external data location '" + location + "' is not inside the model's folder");
  }
  const std::filesystem::path& path = *resolved;
  std::ifstream in(path, std::ios::binary);
  if (!in) Fail(what, "cannot open external data file '" + path.string() + "'");
  in.seekg(0, std::ios::end);
  const int64_t size = in.tellg();
  if (size < 0) Fail(what, "cannot read external data file '" + path.string() + "'");
  if (offset > size) Fail(what, "external data offset beyond the file's end");
  if (length < 0) length = size - offset;
  if (length > size - offset) Fail(what, "external data runs past the file's end");
  if (static_cast<uint64_t>(length) != nbytes) {
    Fail(what, "has " + std::to_string(length) + " bytes of external data for " +
                   std::to_string(nbytes) + " bytes of elements");
  }
  std::string bytes(nbytes, '\0');
  in.seekg(offset);
  in.read(bytes.data(), static_cast<std::streamsize>(nbytes));
  if (!in) Fail(what, "cannot read external data file '" + path.string() + "'");
  return bytes;
}

// How many values the typed repeated field for `data_type` holds (-1: no such field).
int64_t FieldValueCount(const TP& tensor) {
  switch (tensor.data_type()) {
    case TP::FLOAT:
      return tensor.float_data_size();
    case TP::DOUBLE:
      return tensor.double_data_size();
    case TP::INT64:
      return tensor.int64_data_size();
    case TP::UINT64:
    case TP::UINT32:
      return tensor.uint64_data_size();
    case TP::INT32:
    case TP::INT16:
    case TP::INT8:
    case TP::UINT16:
    case TP::UINT8:
    case TP::BOOL:
    case TP::FLOAT16:
    case TP::BFLOAT16:
      return tensor.int32_data_size();
    default:
      return -1;
  }
}

}  // namespace

std::optional<ir::DataType> DTypeFromOnnx(int64_t elem_type) {
  switch (elem_type) {
    case TP::FLOAT:
      return ir::DataType::Float(32);
    case TP::DOUBLE:
      return ir::DataType::Float(64);
    case TP::FLOAT16:
      return ir::DataType::Float(16);
    case TP::BFLOAT16:
      return ir::DataType::BFloat16();
    case TP::INT8:
      return ir::DataType::Int(8);
    case TP::INT16:
      return ir::DataType::Int(16);
    case TP::INT32:
      return ir::DataType::Int(32);
    case TP::INT64:
      return ir::DataType::Int(64);
    case TP::UINT8:
      return ir::DataType::UInt(8);
    case TP::UINT16:
      return ir::DataType::UInt(16);
    case TP::UINT32:
      return ir::DataType::UInt(32);
    case TP::UINT64:
      return ir::DataType::UInt(64);
    case TP::BOOL:
      return ir::DataType::Bool();
    default:
      return std::nullopt;
  }
}

std::string OnnxTypeName(int64_t elem_type) {
  if (elem_type >= 0 && elem_type <= std::numeric_limits<int>::max() &&
      TP::DataType_IsValid(static_cast<int>(elem_type)))
    return TP::DataType_Name(static_cast<TP::DataType>(elem_type));
  return "data type " + std::to_string(elem_type);
}

int64_t Int64Element(const ir::NDArray& array, int64_t k, const std::string& what) {
  if (array.dtype() == ir::DataType::Int64()) return array.data<int64_t>()[k];
  const double d = array.GetAsDouble(k);
  if (!(d > -9.2233720368547758e18 && d < 9.2233720368547758e18)) {
    Fail(what, "holds " + std::to_string(d) + ", which is not an integer in int64's range");
  }
  return static_cast<int64_t>(d);
}

int64_t CheckedElementCount(const std::vector<int64_t>& shape, const std::string& what) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0) Fail(what, "negative dimension " + std::to_string(d));
    if (d != 0 && n > kMaxImportElements / d) {
      Fail(what, "has more than " + std::to_string(kMaxImportElements) + " elements");
    }
    n *= d;
  }
  return n;
}

ir::NDArray TensorFromProto(const TP& tensor, const std::string& base_dir,
                            const std::string& what) {
  std::optional<ir::DataType> dtype = DTypeFromOnnx(tensor.data_type());
  if (!dtype) {
    throw OnnxError(
        what + ": tensors of type " + OnnxTypeName(tensor.data_type()) + " are not supported", -1,
        "", "", true);
  }
  const ir::Shape shape(tensor.dims().begin(), tensor.dims().end());
  const int64_t n = CheckedElementCount(shape, what);
  // The data present must match the element count before anything is allocated: a tensor that
  // claims billions of elements with a few bytes of data is an error, not an allocation.
  const size_t nbytes = static_cast<size_t>(n) * static_cast<size_t>(dtype->bytes());
  const bool external = tensor.data_location() == TP::EXTERNAL;
  if (external || tensor.has_raw_data()) {
    const std::string external_bytes = external ? ReadExternal(tensor, base_dir, nbytes, what) : "";
    // A reference, not a copy: raw_data of a large initializer is most of the model's bytes.
    const std::string& raw = external ? external_bytes : tensor.raw_data();
    if (raw.size() != nbytes) {
      Fail(what, "has " + std::to_string(raw.size()) + " bytes of data for " + std::to_string(n) +
                     " elements of " + dtype->ToString());
    }
    // Every byte is copied over: no zero fill first (it was an eighth of resnet-50's import).
    return ir::NDArray::FromBytes(shape, *dtype, raw.data());
  }
  const int64_t values = FieldValueCount(tensor);
  if (values < 0) Fail(what, "has no data");
  if (values != n) {
    Fail(what, "has " + std::to_string(values) + " values for " + std::to_string(n) + " elements");
  }
  ir::NDArray out = ir::NDArray::Empty(shape, *dtype);
  switch (tensor.data_type()) {
    case TP::FLOAT:
      CopyField<float>(tensor.float_data(), n, out, what);
      break;
    case TP::DOUBLE:
      CopyField<double>(tensor.double_data(), n, out, what);
      break;
    case TP::INT64:
      CopyField<int64_t>(tensor.int64_data(), n, out, what);
      break;
    case TP::UINT64:
      CopyField<uint64_t>(tensor.uint64_data(), n, out, what);
      break;
    case TP::UINT32:
      CopyField<uint32_t>(tensor.uint64_data(), n, out, what);
      break;
    case TP::INT32:
      CopyField<int32_t>(tensor.int32_data(), n, out, what);
      break;
    case TP::INT16:
      CopyField<int16_t>(tensor.int32_data(), n, out, what);
      break;
    case TP::INT8:
      CopyField<int8_t>(tensor.int32_data(), n, out, what);
      break;
    case TP::UINT16:
      CopyField<uint16_t>(tensor.int32_data(), n, out, what);
      break;
    case TP::UINT8:
      CopyField<uint8_t>(tensor.int32_data(), n, out, what);
      break;
    case TP::BOOL:
      CopyField<bool>(tensor.int32_data(), n, out, what);
      break;
    case TP::FLOAT16:
    case TP::BFLOAT16: {  // the 16 bits of each value in int32_data
      if (tensor.int32_data().size() != n) Fail(what, "has the wrong number of values");
      uint16_t* dst = out.mutable_data<uint16_t>();
      for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<uint16_t>(tensor.int32_data(i));
      break;
    }
    default:
      Fail(what, "has no data");
  }
  return out;
}

}  // namespace relaypass::frontend::onnx_import
