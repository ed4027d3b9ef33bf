#include "relaypass/tools/npy.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <vector>

#include "relaypass/ir/tensor_size.h"
#include "relaypass/support/error.h"

namespace relaypass::tools {

namespace {

using ir::DataType;

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;

// NumPy's descr (without the byte-order character) for a dtype, or "" if it has none.
std::string DescrOf(DataType dtype) {
  if (dtype.lanes() != 1) return "";
  switch (dtype.code()) {
    case DataType::Code::kBool:
      return "b1";
    case DataType::Code::kInt:
      return "i" + std::to_string(dtype.bits() / 8);
    case DataType::Code::kUInt:
      return "u" + std::to_string(dtype.bits() / 8);
    case DataType::Code::kFloat:
      return dtype.bits() == 16 || dtype.bits() == 32 || dtype.bits() == 64
                 ? "f" + std::to_string(dtype.bits() / 8)
                 : "";
    default:
      return "";
  }
}

bool DtypeOfDescr(const std::string& descr, DataType* dtype) {
  if (descr.size() < 2) return false;
  const char kind = descr[0];
  int bytes = 0;
  for (size_t i = 1; i < descr.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(descr[i]))) return false;
    bytes = bytes * 10 + (descr[i] - '0');
  }
  switch (kind) {
    case 'b':
      if (bytes != 1) return false;
      *dtype = DataType::Bool();
      return true;
    case 'i':
      if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8) return false;
      *dtype = DataType::Int(bytes * 8);
      return true;
    case 'u':
      if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8) return false;
      *dtype = DataType::UInt(bytes * 8);
      return true;
    case 'f':
      if (bytes != 2 && bytes != 4 && bytes != 8) return false;
      *dtype = DataType::Float(bytes * 8);
      return true;
    default:
      return false;
  }
}

bool LittleEndianHost() {
  const uint16_t probe = 1;
  uint8_t first;
  std::memcpy(&first, &probe, 1);
  return first == 1;
}

// A reader of the header dict: {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
class HeaderReader {
 public:
  HeaderReader(std::string_view text, const std::string& source) : text_(text), source_(source) {}

  void Parse(std::string* descr, bool* fortran, ir::Shape* shape) {
    bool have_descr = false, have_fortran = false, have_shape = false;
    Expect('{');
    while (true) {
      SkipSpace();
      if (Peek() == '}') break;
      const std::string key = String();
      Expect(':');
      if (key == "descr") {
        *descr = String();
        have_descr = true;
      } else if (key == "fortran_order") {
        *fortran = Bool();
        have_fortran = true;
      } else if (key == "shape") {
        *shape = Tuple();
        have_shape = true;
      } else {
        Fail("unexpected key '" + key + "' in the header");
      }
      SkipSpace();
      if (Peek() == ',') {
        ++pos_;
        continue;
      }
      SkipSpace();
      if (Peek() != '}') Fail("expected ',' or '}' in the header");
    }
    if (!have_descr || !have_fortran || !have_shape) {
      Fail("the header lacks 'descr', 'fortran_order' or 'shape'");
    }
  }

 private:
  char Peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  [[noreturn]] void Fail(const std::string& message) const {
    throw Error(source_ + ": not a valid .npy file: " + message);
  }
  void Expect(char c) {
    SkipSpace();
    if (Peek() != c) Fail(std::string("expected '") + c + "' in the header");
    ++pos_;
  }
  std::string String() {
    SkipSpace();
    const char quote = Peek();
    if (quote != '\'' && quote != '"') Fail("expected a string in the header");
    const size_t end = text_.find(quote, pos_ + 1);
    if (end == std::string_view::npos) Fail("unterminated string in the header");
    std::string out(text_.substr(pos_ + 1, end - pos_ - 1));
    pos_ = end + 1;
    return out;
  }
  bool Bool() {
    SkipSpace();
    if (text_.substr(pos_, 4) == "True") {
      pos_ += 4;
      return true;
    }
    if (text_.substr(pos_, 5) == "False") {
      pos_ += 5;
      return false;
    }
    Fail("expected True or False in the header");
  }
  ir::Shape Tuple() {
    Expect('(');
    ir::Shape shape;
    while (true) {
      SkipSpace();
      if (Peek() == ')') {
        ++pos_;
        return shape;
      }
      if (!std::isdigit(static_cast<unsigned char>(Peek()))) Fail("bad shape in the header");
      int64_t dim = 0;
      while (std::isdigit(static_cast<unsigned char>(Peek()))) {
        dim = dim * 10 + (text_[pos_++] - '0');
        if (dim > (int64_t{1} << 48)) Fail("dimension too large in the header");
      }
      shape.push_back(dim);
      SkipSpace();
      if (Peek() == ',') ++pos_;
    }
  }

  std::string_view text_;
  const std::string& source_;
  size_t pos_ = 0;
};

std::string ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot open '" + path + "'");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

ir::NDArray ParseNpy(std::string_view bytes, const std::string& source_name) {
  auto fail = [&](const std::string& message) {
    throw Error(source_name + ": not a valid .npy file: " + message);
  };
  if (bytes.size() < kMagicSize + 4 || bytes.substr(0, kMagicSize) != std::string_view(kMagic)) {
    fail("missing the \\x93NUMPY magic");
  }
  const auto byte = [&](size_t i) { return static_cast<uint8_t>(bytes[i]); };
  const int major = byte(6);
  size_t header_len = 0, header_start = 0;
  if (major == 1) {
    header_len = byte(8) | (static_cast<size_t>(byte(9)) << 8);
    header_start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) fail("truncated header");
    header_len = byte(8) | (static_cast<size_t>(byte(9)) << 8) |
                 (static_cast<size_t>(byte(10)) << 16) | (static_cast<size_t>(byte(11)) << 24);
    header_start = 12;
  } else {
    fail("unsupported format version " + std::to_string(major));
  }
  if (bytes.size() < header_start + header_len) fail("truncated header");
  std::string descr;
  bool fortran = false;
  ir::Shape shape;
  HeaderReader(bytes.substr(header_start, header_len), source_name).Parse(&descr, &fortran, &shape);
  if (fortran) fail("Fortran-ordered arrays are not supported (save with np.ascontiguousarray)");
  if (descr.empty()) fail("empty dtype");
  char order = '|';
  if (descr[0] == '<' || descr[0] == '>' || descr[0] == '|' || descr[0] == '=') {
    order = descr[0];
    descr = descr.substr(1);
  }
  DataType dtype;
  if (!DtypeOfDescr(descr, &dtype)) fail("unsupported dtype '" + descr + "'");
  // The data's size is checked before anything is allocated: a huge shape over a few bytes of
  // data is a malformed file, not an allocation.
  const std::optional<int64_t> nbytes = ir::ByteCount(shape, dtype);
  if (!nbytes) fail("the shape's byte count overflows int64");
  const size_t data_start = header_start + header_len;
  if (bytes.size() - data_start < static_cast<uint64_t>(*nbytes)) {
    fail("expected " + std::to_string(*nbytes) + " bytes of data, found " +
         std::to_string(bytes.size() - data_start));
  }
  ir::NDArray array = ir::NDArray::FromBytes(shape, dtype, bytes.data() + data_start);
  uint8_t* out = static_cast<uint8_t*>(array.mutable_raw_data());
  const int width = dtype.bytes();
  const bool swap =
      width > 1 && ((order == '>' && LittleEndianHost()) || (order == '<' && !LittleEndianHost()));
  if (swap) {
    for (size_t i = 0; i < array.nbytes(); i += width) std::reverse(out + i, out + i + width);
  }
  return array;
}

ir::NDArray ReadNpy(const std::string& path) {
  return ParseNpy(ReadWholeFile(path), path);
}

std::string SerializeNpy(const ir::NDArray& array) {
  const std::string descr = DescrOf(array.dtype());
  if (descr.empty()) {
    throw Error("NumPy has no dtype for " + array.dtype().ToString() + "; cannot write .npy");
  }
  const char order = array.dtype().bytes() == 1 ? '|' : (LittleEndianHost() ? '<' : '>');
  std::string header = "{'descr': '";
  header += order;
  header += descr + "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < array.shape().size(); ++i) {
    header += std::to_string(array.shape()[i]);
    header += array.shape().size() == 1 ? "," : (i + 1 < array.shape().size() ? ", " : "");
  }
  header += "), }";
  // Pad with spaces and end with '\n' so that the data starts at a multiple of 64 bytes.
  size_t prefix = kMagicSize + 2 + 2;
  bool v2 = false;
  size_t total = prefix + header.size() + 1;
  if (total - prefix > 65535) {
    v2 = true;
    prefix = kMagicSize + 2 + 4;
    total = prefix + header.size() + 1;
  }
  header.append((64 - total % 64) % 64, ' ');
  header.push_back('\n');
  std::string out(kMagic, kMagicSize);
  out.push_back(static_cast<char>(v2 ? 2 : 1));
  out.push_back(0);
  const size_t len = header.size();
  out.push_back(static_cast<char>(len & 0xff));
  out.push_back(static_cast<char>((len >> 8) & 0xff));
  if (v2) {
    out.push_back(static_cast<char>((len >> 16) & 0xff));
    out.push_back(static_cast<char>((len >> 24) & 0xff));
  }
  out += header;
  out.append(static_cast<const char*>(array.raw_data()), array.nbytes());
  return out;
}

void WriteNpy(const std::string& path, const ir::NDArray& array) {
  const std::string bytes = SerializeNpy(array);
  std::ofstream file(path, std::ios::binary);
  if (!file) throw Error("cannot open '" + path + "' for writing");
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!file.flush()) throw Error("cannot write '" + path + "'");
}

}  // namespace relaypass::tools
