#include "meta_table.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>

#include "relaypass/ir/tensor_size.h"
#include "relaypass/support/base64.h"
#include "relaypass/support/error.h"
#include "relaypass/support/table_allocator.h"

namespace relaypass::text {

namespace {

// The number of bytes base64 `text` decodes to; ParseError when its length is impossible.
size_t DecodedSize(std::string_view text) {
  const size_t size = support::Base64DecodedSize(text);
  if (size == SIZE_MAX) throw ParseError("metadata: base64 data length is not a multiple of 4");
  return size;
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
  std::string String() { return std::string(StringView()); }
  // A string without escapes as a view of the text (the base64 data of a constant: no copy);
  // one with escapes is decoded into `decoded_` and viewed there.
  std::string_view StringView() {
    Expect('"');
    // Fast path: no escapes up to the closing quote (the base64 data of a constant).
    const size_t close = text_.find('"', pos_);
    if (close != std::string_view::npos &&
        text_.substr(pos_, close - pos_).find('\\') == std::string_view::npos) {
      const std::string_view out = text_.substr(pos_, close - pos_);
      pos_ = close + 1;
      return out;
    }
    std::string& out = decoded_;
    out.clear();
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
      const int digit = text_[pos_++] - '0';
      if (value > (std::numeric_limits<int64_t>::max() - digit) / 10) {
        Fail("integer out of int64's range");  // a shape dimension no tensor can have
      }
      value = value * 10 + digit;
    }
    if (pos_ == start || (pos_ == start + 1 && text_[start] == '-')) Fail("expected an integer");
    return text_[start] == '-' ? -value : value;
  }
  std::string_view text() const { return text_; }
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
  std::string decoded_;
};

ir::Constant ReadConstant(JsonReader& in) {
  std::string dtype_text;
  ir::Shape shape;
  std::string data_escaped;  // the data, when it was written with escapes
  std::string_view data;
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
        data = in.StringView();
        if (data.data() < in.text().data() || data.data() >= in.text().data() + in.text().size()) {
          data_escaped = std::string(data);  // viewed in the reader's buffer: keep a copy
          data = data_escaped;
        }
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
  for (int64_t d : shape) {
    if (d < 0) in.Fail("negative dimension");
  }
  const std::optional<int64_t> bytes = ir::ByteCount(shape, *dtype);
  if (!bytes) in.Fail("the constant's shape is too large (its byte count overflows int64)");
  const auto needed = static_cast<uint64_t>(*bytes);
  const size_t size = DecodedSize(data);
  if (size != needed) {
    in.Fail("constant data has " + std::to_string(size) + " bytes, its shape and dtype need " +
            std::to_string(needed));
  }
  ir::NDArray array = ir::NDArray::Empty(shape, *dtype);
  if (size > 0 && !support::DecodeBase64(data, static_cast<uint8_t*>(array.mutable_raw_data()))) {
    in.Fail("invalid base64 data");
  }
  return ir::MakeConstant(std::move(array));
}

ir::VirtualDevice ReadVirtualDevice(JsonReader& in) {
  int64_t type = ir::kInvalidDeviceType;
  int64_t id = -1;
  std::string target, host, scope;
  in.Expect('{');
  if (!in.Accept('}')) {
    do {
      std::string key = in.String();
      in.Expect(':');
      if (key == "device_type") {
        type = in.Integer();
      } else if (key == "virtual_device_id") {
        id = in.Integer();
      } else if (key == "target") {
        target = in.String();
      } else if (key == "target_host") {
        host = in.String();
      } else if (key == "memory_scope") {
        scope = in.String();
      } else {
        in.Fail("unknown key \"" + key + "\" in a VirtualDevice");
      }
    } while (in.Accept(','));
    in.Expect('}');
  }
  if (type < -1 || type > 1000 || id < -1 || id > std::numeric_limits<int32_t>::max()) {
    in.Fail("VirtualDevice device_type or virtual_device_id out of range");
  }
  return ir::MakeVirtualDevice(static_cast<int>(type), static_cast<int>(id), std::move(target),
                               std::move(host), std::move(scope));
}

void AppendJsonString(const std::string& s, std::string& out) {
  out += '"';
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  out += '"';
}

}  // namespace

size_t MetaTable::VirtualDeviceIndex(const ir::VirtualDevice& vd) {
  for (size_t i = 0; i < virtual_devices_.size(); ++i) {
    if (ir::VirtualDeviceEqual(virtual_devices_[i], vd)) return i;
  }
  virtual_devices_.push_back(vd ? vd : ir::FullyUnconstrainedVirtualDevice());
  return virtual_devices_.size() - 1;
}

size_t MetaTable::ConstantIndex(const ir::ConstantNode* c) {
  auto [it, inserted] = index_.emplace(c, constants_.size());
  if (inserted) constants_.emplace_back(c);
  return it->second;
}

void MetaTable::AppendJson(std::string& out) const {
  // One reservation for the whole section: the bytes dominate, and growing the string constant
  // by constant would copy everything written so far each time.
  size_t total = 64;
  for (const ir::Constant& c : constants_) {
    total += 96 + 24 * static_cast<size_t>(c->data.ndim()) +
             support::Base64EncodedSize(c->data.nbytes());
  }
  out.reserve(out.size() + total);
  // The encoded weights are written once into fresh memory: on 4 KiB pages the faults cost more
  // than the encoding.
  support::AdviseHugePages(out.data() + out.size(), total);
  out += "{\n  \"relay.Constant\": [";
  for (size_t i = 0; i < constants_.size(); ++i) {
    const ir::NDArray& data = constants_[i]->data;
    out += i ? ",\n    " : "\n    ";
    out += "{\"dtype\": \"";
    out += data.dtype().ToString();
    out += "\", \"shape\": [";
    for (int k = 0; k < data.ndim(); ++k) {
      if (k) out += ", ";
      out += std::to_string(data.shape()[k]);
    }
    out += "], \"data\": \"";
    support::AppendBase64(static_cast<const uint8_t*>(data.raw_data()), data.nbytes(), out);
    out += "\"}";
  }
  out += "\n  ]";
  if (!virtual_devices_.empty()) {
    out += ",\n  \"VirtualDevice\": [";
    for (size_t i = 0; i < virtual_devices_.size(); ++i) {
      const ir::VirtualDevice& vd = virtual_devices_[i];
      out += i ? ",\n    " : "\n    ";
      out += "{\"device_type\": " + std::to_string(vd->device_type) +
             ", \"virtual_device_id\": " + std::to_string(vd->virtual_device_id) + ", \"target\": ";
      AppendJsonString(vd->target, out);
      out += ", \"target_host\": ";
      AppendJsonString(vd->target_host, out);
      out += ", \"memory_scope\": ";
      AppendJsonString(vd->memory_scope, out);
      out += "}";
    }
    out += "\n  ]";
  }
  out += "\n}";
}

std::string MetaTable::ToJson() const {
  std::string out;
  AppendJson(out);
  return out;
}

std::vector<ir::Constant> ParseMetaSection(std::string_view json,
                                           std::vector<ir::VirtualDevice>* virtual_devices) {
  JsonReader in(json);
  std::vector<ir::Constant> out;
  in.Expect('{');
  if (!in.Accept('}')) {
    do {
      std::string key = in.String();
      in.Expect(':');
      if (key == "VirtualDevice") {
        in.Expect('[');
        if (!in.Accept(']')) {
          do {
            ir::VirtualDevice vd = ReadVirtualDevice(in);
            if (virtual_devices) virtual_devices->push_back(std::move(vd));
          } while (in.Accept(','));
          in.Expect(']');
        }
        continue;
      }
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
