#include "meta_table.h"

#include <cstring>

#include "relaypass/support/error.h"

namespace relaypass::text {

namespace {

constexpr char kBase64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void AppendBase64(const uint8_t* data, size_t n, std::string& out) {
  out.reserve(out.size() + (n + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= n; i += 3) {
    uint32_t v = (uint32_t{data[i]} << 16) | (uint32_t{data[i + 1]} << 8) | data[i + 2];
    out += kBase64[v >> 18];
    out += kBase64[(v >> 12) & 63];
    out += kBase64[(v >> 6) & 63];
    out += kBase64[v & 63];
  }
  if (i < n) {
    uint32_t v = uint32_t{data[i]} << 16;
    if (i + 1 < n) v |= uint32_t{data[i + 1]} << 8;
    out += kBase64[v >> 18];
    out += kBase64[(v >> 12) & 63];
    out += i + 1 < n ? kBase64[(v >> 6) & 63] : '=';
    out += '=';
  }
}

int Base64Value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

std::vector<uint8_t> DecodeBase64(std::string_view text) {
  if (text.size() % 4 != 0) throw ParseError("metadata: base64 data length is not a multiple of 4");
  std::vector<uint8_t> out;
  out.reserve(text.size() / 4 * 3);
  for (size_t i = 0; i < text.size(); i += 4) {
    int v[4];
    int pad = 0;
    for (int k = 0; k < 4; ++k) {
      char c = text[i + k];
      if (c == '=' && i + 4 == text.size() && k >= 2) {
        v[k] = 0;
        ++pad;
      } else if (pad > 0 || (v[k] = Base64Value(c)) < 0) {
        throw ParseError("metadata: invalid base64 data");
      }
    }
    uint32_t bits = (v[0] << 18) | (v[1] << 12) | (v[2] << 6) | v[3];
    out.push_back(static_cast<uint8_t>(bits >> 16));
    if (pad < 2) out.push_back(static_cast<uint8_t>(bits >> 8));
    if (pad < 1) out.push_back(static_cast<uint8_t>(bits));
  }
  return out;
}

// A reader for the subset of JSON the section uses: objects, arrays, strings, integers.
class JsonReader {
 public:
  explicit JsonReader(std::string_view text) : text_(text) {}

  void Expect(char c) {
    SkipSpace();
    if (pos_ >= text_.size() || text_[pos_] != c) Fail(std::string("expected '") + c + "'");
    ++pos_;
  }
  // Consumes `c` if it is next.
  bool Accept(char c) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  std::string String() {
    Expect('"');
    std::string out;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      char c = text_[pos_++];
      if (c == '\\') {
        if (pos_ >= text_.size()) break;
        c = text_[pos_++];
        if (c == 'n')
          c = '\n';
        else if (c == 't')
          c = '\t';
        else if (c != '"' && c != '\\' && c != '/')
          Fail("unsupported string escape");
      }
      out += c;
    }
    if (pos_ >= text_.size()) Fail("unterminated string");
    ++pos_;
    return out;
  }
  int64_t Integer() {
    SkipSpace();
    size_t start = pos_;
    if (pos_ < text_.size() && text_[pos_] == '-') ++pos_;
    int64_t value = 0;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
      value = value * 10 + (text_[pos_++] - '0');
    }
    if (pos_ == start || (pos_ == start + 1 && text_[start] == '-')) Fail("expected an integer");
    return text_[start] == '-' ? -value : value;
  }
  bool AtEnd() {
    SkipSpace();
    return pos_ == text_.size();
  }
  [[noreturn]] void Fail(const std::string& what) const {
    throw ParseError("metadata: " + what + " at offset " + std::to_string(pos_));
  }

 private:
  void SkipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\r' || text_[pos_] == '\n')) {
      ++pos_;
    }
  }
  std::string_view text_;
  size_t pos_ = 0;
};

ir::Constant ReadConstant(JsonReader& in) {
  std::string dtype_text;
  ir::Shape shape;
  std::string data;
  bool has_dtype = false, has_shape = false, has_data = false;
  in.Expect('{');
  if (!in.Accept('}')) {
    do {
      std::string key = in.String();
      in.Expect(':');
      if (key == "dtype") {
        dtype_text = in.String();
        has_dtype = true;
      } else if (key == "shape") {
        in.Expect('[');
        if (!in.Accept(']')) {
          do shape.push_back(in.Integer());
          while (in.Accept(','));
          in.Expect(']');
        }
        has_shape = true;
      } else if (key == "data") {
        data = in.String();
        has_data = true;
      } else {
        in.Fail("unknown key \"" + key + "\" in a constant");
      }
    } while (in.Accept(','));
    in.Expect('}');
  }
  if (!has_dtype || !has_shape || !has_data) in.Fail("a constant needs dtype, shape and data");
  auto dtype = ir::DataType::Parse(dtype_text);
  if (!dtype || dtype->is_void()) in.Fail("unknown dtype \"" + dtype_text + "\"");
  // The size is checked against the data before anything is allocated: a huge shape with little
  // data is an error, not a huge allocation (nor an overflow).
  uint64_t needed = static_cast<uint64_t>(dtype->bytes());
  for (int64_t d : shape) {
    if (d < 0) in.Fail("negative dimension");
    if (__builtin_mul_overflow(needed, static_cast<uint64_t>(d), &needed)) {
      in.Fail("the constant's shape is too large");
    }
  }
  std::vector<uint8_t> bytes = DecodeBase64(data);
  if (bytes.size() != needed) {
    in.Fail("constant data has " + std::to_string(bytes.size()) +
            " bytes, its shape and dtype need " + std::to_string(needed));
  }
  ir::NDArray array = ir::NDArray::Empty(shape, *dtype);
  if (!bytes.empty()) std::memcpy(array.mutable_raw_data(), bytes.data(), bytes.size());
  return ir::MakeConstant(std::move(array));
}

}  // namespace

size_t MetaTable::ConstantIndex(const ir::ConstantNode* c) {
  auto [it, inserted] = index_.emplace(c, constants_.size());
  if (inserted) constants_.emplace_back(c);
  return it->second;
}

std::string MetaTable::ToJson() const {
  std::string out = "{\n  \"relay.Constant\": [";
  for (size_t i = 0; i < constants_.size(); ++i) {
    const ir::NDArray& data = constants_[i]->data;
    out += i ? ",\n    " : "\n    ";
    out += "{\"dtype\": \"" + data.dtype().ToString() + "\", \"shape\": [";
    for (int k = 0; k < data.ndim(); ++k) {
      if (k) out += ", ";
      out += std::to_string(data.shape()[k]);
    }
    out += "], \"data\": \"";
    AppendBase64(static_cast<const uint8_t*>(data.raw_data()), data.nbytes(), out);
    out += "\"}";
  }
  out += "\n  ]\n}";
  return out;
}

std::vector<ir::Constant> ParseMetaSection(std::string_view json) {
  JsonReader in(json);
  std::vector<ir::Constant> out;
  in.Expect('{');
  if (!in.Accept('}')) {
    do {
      std::string key = in.String();
      in.Expect(':');
      if (key != "relay.Constant") in.Fail("unknown metadata key \"" + key + "\"");
      in.Expect('[');
      if (!in.Accept(']')) {
        do out.push_back(ReadConstant(in));
        while (in.Accept(','));
        in.Expect(']');
      }
    } while (in.Accept(','));
    in.Expect('}');
  }
  if (!in.AtEnd()) in.Fail("unexpected text after the metadata object");
  return out;
}

}  // namespace relaypass::text
