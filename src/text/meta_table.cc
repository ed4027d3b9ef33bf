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

// The 6-bit value of each base64 character; -1 for any other byte.
struct Base64Table {
  int8_t value[256];
  constexpr Base64Table() : value() {
    for (int c = 0; c < 256; ++c) value[c] = -1;
    for (int i = 0; i < 64; ++i) {
      value[static_cast<unsigned char>(kBase64[i])] = static_cast<int8_t>(i);
    }
  }
};
constexpr Base64Table kBase64Values;

// The number of bytes `text` decodes to (by its length and padding).
size_t Base64DecodedSize(std::string_view text) {
  if (text.size() % 4 != 0) throw ParseError("metadata: base64 data length is not a multiple of 4");
  size_t pad = 0;
  if (!text.empty() && text.back() == '=') pad = text[text.size() - 2] == '=' ? 2 : 1;
  return text.size() / 4 * 3 - pad;
}

// Decodes `text` into `out`, which holds Base64DecodedSize(text) bytes; throws ParseError for
// text that is not base64.
void DecodeBase64(std::string_view text, uint8_t* out) {
  const size_t out_size = Base64DecodedSize(text);
  const int pad = static_cast<int>(text.size() / 4 * 3 - out_size);
  for (size_t i = 0, o = 0; i < text.size(); i += 4) {
    const bool last = i + 4 == text.size();
    int32_t v[4];
    for (int k = 0; k < 4; ++k) {
      const bool padding = last && k >= 4 - pad;
      v[k] = padding ? 0 : kBase64Values.value[static_cast<unsigned char>(text[i + k])];
      if (v[k] < 0) throw ParseError("metadata: invalid base64 data");
    }
    const uint32_t bits =
        (uint32_t(v[0]) << 18) | (uint32_t(v[1]) << 12) | (uint32_t(v[2]) << 6) | uint32_t(v[3]);
    out[o++] = static_cast<uint8_t>(bits >> 16);
    if (o < out_size) out[o++] = static_cast<uint8_t>(bits >> 8);
    if (o < out_size) out[o++] = static_cast<uint8_t>(bits);
  }
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
    // Fast path: no escapes up to the closing quote (the base64 data of a constant).
    const size_t close = text_.find('"', pos_);
    if (close != std::string_view::npos &&
        text_.substr(pos_, close - pos_).find('\\') == std::string_view::npos) {
      std::string out(text_.substr(pos_, close - pos_));
      pos_ = close + 1;
      return out;
    }
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
  const size_t size = Base64DecodedSize(data);
  if (size != needed) {
    in.Fail("constant data has " + std::to_string(size) + " bytes, its shape and dtype need " +
            std::to_string(needed));
  }
  ir::NDArray array = ir::NDArray::Empty(shape, *dtype);
  if (size > 0) DecodeBase64(data, static_cast<uint8_t*>(array.mutable_raw_data()));
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
