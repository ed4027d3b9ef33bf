#include "relaypass/ir/attrs.h"

#include <cmath>
#include <functional>
#include <limits>
#include <sstream>

#include "relaypass/support/error.h"

namespace relaypass::ir {

namespace {

std::string EscapeString(const std::string& s) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\n':
        out += "\\n";
        break;
      default:
        if (c >= 0x20 && c <= 0x7E) {
          out += static_cast<char>(c);
        } else {
          out += "\\x";
          out += kHex[c >> 4];
          out += kHex[c & 15];
        }
    }
  }
  return out + "\"";
}

size_t Combine(size_t seed, size_t v) {
  return seed ^ (v + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}

}  // namespace

const char* AttrKindName(AttrValue::Kind kind) {
  switch (kind) {
    case AttrValue::Kind::kNull:
      return "NoneType";
    case AttrValue::Kind::kInt:
      return "int";
    case AttrValue::Kind::kBool:
      return "bool";
    case AttrValue::Kind::kDouble:
      return "float";
    case AttrValue::Kind::kString:
      return "str";
    case AttrValue::Kind::kArray:
      return "list";
    case AttrValue::Kind::kMap:
      return "dict";
    case AttrValue::Kind::kVirtualDevice:
      return "VirtualDevice";
  }
  return "?";
}

AttrValue AttrValue::Int(int64_t v, DataType dtype) {
  AttrValue a;
  a.kind_ = Kind::kInt;
  a.int_ = v;
  a.dtype_ = dtype;
  return a;
}
AttrValue AttrValue::Bool(bool v) {
  AttrValue a;
  a.kind_ = Kind::kBool;
  a.int_ = v;
  return a;
}
AttrValue AttrValue::Double(double v, DataType dtype) {
  AttrValue a;
  a.kind_ = Kind::kDouble;
  a.double_ = v;
  a.dtype_ = dtype;
  return a;
}
AttrValue AttrValue::Str(std::string v) {
  AttrValue a;
  a.kind_ = Kind::kString;
  a.string_ = std::move(v);
  return a;
}
AttrValue AttrValue::Array(std::vector<AttrValue> v) {
  AttrValue a;
  a.kind_ = Kind::kArray;
  a.array_ = std::move(v);
  return a;
}
AttrValue AttrValue::Ints(const std::vector<int64_t>& v) {
  std::vector<AttrValue> items;
  items.reserve(v.size());
  for (int64_t x : v) items.push_back(Int(x));
  return Array(std::move(items));
}

int64_t AttrValue::as_int() const {
  if (kind_ != Kind::kInt && kind_ != Kind::kBool) {
    throw InternalError(std::string("attribute value is ") + AttrKindName(kind_) +
                        ", not an integer");
  }
  return int_;
}
bool AttrValue::as_bool() const {
  return as_int() != 0;
}
double AttrValue::as_double() const {
  if (kind_ == Kind::kDouble) return double_;
  return static_cast<double>(as_int());
}
const std::string& AttrValue::as_string() const {
  if (kind_ != Kind::kString) {
    throw InternalError(std::string("attribute value is ") + AttrKindName(kind_) +
                        ", not a string");
  }
  return string_;
}
const std::vector<AttrValue>& AttrValue::as_array() const {
  if (kind_ != Kind::kArray) {
    throw InternalError(std::string("attribute value is ") + AttrKindName(kind_) +
                        ", not an array");
  }
  return array_;
}
AttrValue AttrValue::Map(MapEntries v) {
  AttrValue a;
  a.kind_ = Kind::kMap;
  a.map_ = std::move(v);
  return a;
}
const AttrValue::MapEntries& AttrValue::as_map() const {
  if (kind_ != Kind::kMap) {
    throw InternalError(std::string("attribute value is ") + AttrKindName(kind_) + ", not a map");
  }
  return map_;
}
AttrValue AttrValue::Device(VirtualDevice v) {
  AttrValue a;
  a.kind_ = Kind::kVirtualDevice;
  a.virtual_device_ = v ? std::move(v) : FullyUnconstrainedVirtualDevice();
  return a;
}
const VirtualDevice& AttrValue::as_virtual_device() const {
  if (kind_ != Kind::kVirtualDevice) {
    throw InternalError(std::string("attribute value is ") + AttrKindName(kind_) +
                        ", not a VirtualDevice");
  }
  return virtual_device_;
}
const AttrValue* AttrValue::find(const std::string& key) const {
  for (const auto& [k, v] : as_map()) {
    if (k == key) return &v;
  }
  return nullptr;
}
std::vector<int64_t> AttrValue::as_ints() const {
  std::vector<int64_t> out;
  for (const AttrValue& v : as_array()) out.push_back(v.as_int());
  return out;
}

std::string AttrValue::ToString() const {
  switch (kind_) {
    case Kind::kNull:
      return "None";
    case Kind::kBool:
      return int_ ? "True" : "False";
    case Kind::kInt:
      if (dtype_.is_bool()) return int_ ? "True" : "False";
      if (dtype_ == DataType::Int64()) return std::to_string(int_) + "i64";
      if (dtype_ == DataType::Int(16)) return std::to_string(int_) + "i16";
      return std::to_string(int_);
    case Kind::kDouble: {
      std::ostringstream os;
      os << double_;
      if (dtype_ == DataType::Float(64)) return os.str() + "f64";
      if (dtype_ == DataType::Float(16)) return os.str() + "f16";
      // TVM's `f` suffix; beyond float32's range that would not read back, so say f64 there.
      const bool wide =
          std::isfinite(double_) && std::fabs(double_) > std::numeric_limits<float>::max();
      return os.str() + (wide ? "f64" : "f");
    }
    case Kind::kString:
      return EscapeString(string_);
    case Kind::kArray: {
      std::string out = "[";
      for (size_t i = 0; i < array_.size(); ++i) {
        if (i) out += ", ";
        out += array_[i].ToString();
      }
      return out + "]";
    }
    case Kind::kMap: {  // TVM's text of a Map: {"key": value, ...}
      std::string out = "{";
      for (size_t i = 0; i < map_.size(); ++i) {
        if (i) out += ", ";
        out += EscapeString(map_[i].first) + ": " + map_[i].second.ToString();
      }
      return out + "}";
    }
    case Kind::kVirtualDevice:
      return VirtualDeviceToString(virtual_device_);
  }
  return "None";
}

bool operator==(const AttrValue& a, const AttrValue& b) {
  if (a.kind_ != b.kind_) return false;
  switch (a.kind_) {
    case AttrValue::Kind::kNull:
      return true;
    case AttrValue::Kind::kBool:
      return a.int_ == b.int_;
    case AttrValue::Kind::kInt:
      return a.int_ == b.int_ && a.dtype_ == b.dtype_;
    case AttrValue::Kind::kDouble:  // equal infinities and NaNs are equal too
      if (a.dtype_ != b.dtype_) return false;
      return a.double_ == b.double_ || (std::isnan(a.double_) && std::isnan(b.double_)) ||
             std::fabs(a.double_ - b.double_) < 1e-9;
    case AttrValue::Kind::kString:
      return a.string_ == b.string_;
    case AttrValue::Kind::kArray:
      return a.array_ == b.array_;
    case AttrValue::Kind::kMap:
      return a.map_ == b.map_;
    case AttrValue::Kind::kVirtualDevice:
      return VirtualDeviceEqual(a.virtual_device_, b.virtual_device_);
  }
  return false;
}

size_t AttrValue::Hash() const {
  size_t h = static_cast<size_t>(kind_) * 31 + 7;
  switch (kind_) {
    case Kind::kNull:
      return h;
    case Kind::kBool:
    case Kind::kInt:
      return Combine(h, std::hash<int64_t>()(int_));
    // Doubles compare with a tolerance, so hash only their kind.
    case Kind::kDouble:
      return h;
    case Kind::kString:
      return Combine(h, std::hash<std::string>()(string_));
    case Kind::kArray:
      for (const AttrValue& v : array_) h = Combine(h, v.Hash());
      return h;
    case Kind::kMap:
      for (const auto& [k, v] : map_) {
        h = Combine(Combine(h, std::hash<std::string>()(k)), v.Hash());
      }
      return h;
    case Kind::kVirtualDevice:
      return Combine(h, VirtualDeviceHash(virtual_device_));
  }
  return h;
}

AttrsSchema::AttrsSchema(std::string type_key, std::vector<AttrField> fields)
    : type_key_(std::move(type_key)), fields_(std::move(fields)) {}

int AttrsSchema::FieldIndex(const std::string& name) const {
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (fields_[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

static AttrField WithDefault(std::string name, AttrFieldType type, AttrValue def) {
  return AttrField{std::move(name), type, true, std::move(def), ""};
}
static AttrField Required(std::string name, AttrFieldType type) {
  return AttrField{std::move(name), type, false, AttrValue(), ""};
}

AttrField AttrsSchema::Int(std::string name, int64_t def) {
  return WithDefault(std::move(name), AttrFieldType::kInt, AttrValue::Int(def));
}
AttrField AttrsSchema::RequiredInt(std::string name) {
  return Required(std::move(name), AttrFieldType::kInt);
}
AttrField AttrsSchema::Bool(std::string name, bool def) {
  return WithDefault(std::move(name), AttrFieldType::kBool, AttrValue::Bool(def));
}
AttrField AttrsSchema::Double(std::string name, double def) {
  return WithDefault(std::move(name), AttrFieldType::kDouble, AttrValue::Double(def));
}
AttrField AttrsSchema::RequiredDouble(std::string name) {
  return Required(std::move(name), AttrFieldType::kDouble);
}
AttrField AttrsSchema::String(std::string name, std::string def) {
  return WithDefault(std::move(name), AttrFieldType::kString, AttrValue::Str(std::move(def)));
}
AttrField AttrsSchema::RequiredString(std::string name) {
  return Required(std::move(name), AttrFieldType::kString);
}
AttrField AttrsSchema::DType(std::string name, std::string def) {
  return WithDefault(std::move(name), AttrFieldType::kDType, AttrValue::Str(std::move(def)));
}
AttrField AttrsSchema::RequiredDType(std::string name) {
  return Required(std::move(name), AttrFieldType::kDType);
}
AttrField AttrsSchema::IndexExpr(std::string name) {
  return WithDefault(std::move(name), AttrFieldType::kIndexExpr, AttrValue::Null());
}
AttrField AttrsSchema::RequiredIndexExpr(std::string name) {
  return Required(std::move(name), AttrFieldType::kIndexExpr);
}
AttrField AttrsSchema::IntArray(std::string name, std::vector<int64_t> def) {
  return WithDefault(std::move(name), AttrFieldType::kIntArray, AttrValue::Ints(def));
}
AttrField AttrsSchema::NullableIntArray(std::string name) {
  return WithDefault(std::move(name), AttrFieldType::kIntArray, AttrValue::Null());
}
AttrField AttrsSchema::UnsetIntArray(std::string name) {
  AttrField field = NullableIntArray(std::move(name));
  field.printed_when_default = true;
  return field;
}
AttrField AttrsSchema::RequiredIntArray(std::string name) {
  return Required(std::move(name), AttrFieldType::kIntArray);
}
AttrField AttrsSchema::RequiredIntArrayArray(std::string name) {
  return Required(std::move(name), AttrFieldType::kIntArrayArray);
}
AttrField AttrsSchema::RequiredIntOrIntArray(std::string name) {
  return Required(std::move(name), AttrFieldType::kIntOrIntArray);
}
AttrField AttrsSchema::NullableDoubleArray(std::string name) {
  return WithDefault(std::move(name), AttrFieldType::kDoubleArray, AttrValue::Null());
}
AttrField AttrsSchema::VirtualDeviceField(std::string name) {
  return WithDefault(std::move(name), AttrFieldType::kVirtualDevice,
                     AttrValue::Device(FullyUnconstrainedVirtualDevice()));
}

const AttrValue& AttrsNode::get(const std::string& name) const {
  int i = schema->FieldIndex(name);
  if (i < 0) throw InternalError(schema->type_key() + " has no attribute '" + name + "'");
  return values[i];
}

Attrs AttrsNode::With(const std::string& name, AttrValue value) const {
  int i = schema->FieldIndex(name);
  if (i < 0) throw InternalError(schema->type_key() + " has no attribute '" + name + "'");
  std::vector<AttrValue> copy = values;
  copy[i] = ConvertAttrValue(schema->fields()[i], value);
  return make_ref<AttrsNode>(schema, std::move(copy));
}

AttrValue ConvertAttrValue(const AttrField& field, const AttrValue& value) {
  using K = AttrValue::Kind;
  auto fail = [&](const std::string& want) -> AttrValue {
    throw TypeError("attribute '" + field.name + "' expects " + want + ", got " +
                    AttrKindName(value.kind()) + " " + value.ToString());
  };
  auto is_int = [](const AttrValue& v) { return v.kind() == K::kInt || v.kind() == K::kBool; };
  switch (field.type) {
    case AttrFieldType::kInt:
      if (!is_int(value)) return fail("an integer");
      return AttrValue::Int(value.as_int());
    case AttrFieldType::kBool:
      if (!is_int(value)) return fail("a bool");
      return AttrValue::Bool(value.as_int() != 0);
    case AttrFieldType::kDouble:
      if (!is_int(value) && value.kind() != K::kDouble) return fail("a float");
      return AttrValue::Double(value.as_double());
    case AttrFieldType::kString:
      if (value.kind() != K::kString) return fail("a string");
      return value;
    case AttrFieldType::kDType:
      if (value.kind() != K::kString) return fail("a dtype string");
      if (!value.as_string().empty() && !DataType::Parse(value.as_string())) {
        return fail("a dtype string such as \"float32\"");
      }
      return value;
    case AttrFieldType::kIndexExpr:
      if (value.is_null()) return value;
      if (value.kind() != K::kInt) return fail("an integer or None");
      return value;
    case AttrFieldType::kIntArray:
      if (value.is_null()) return value;
      if (value.kind() != K::kArray) return fail("an array of integers");
      for (const AttrValue& v : value.as_array()) {
        if (v.kind() != K::kInt) return fail("an array of integers");
      }
      return value;
    case AttrFieldType::kIntOrIntArray:
      if (value.kind() == K::kInt) return value;
      if (value.kind() != K::kArray) return fail("an integer or an array of integers");
      for (const AttrValue& v : value.as_array()) {
        if (v.kind() != K::kInt) return fail("an integer or an array of integers");
      }
      return value;
    case AttrFieldType::kVirtualDevice:
      // None is TVM's default: the fully unconstrained device.
      if (value.is_null()) return AttrValue::Device(nullptr);
      if (value.kind() != K::kVirtualDevice) return fail("a VirtualDevice");
      return value;
    case AttrFieldType::kDoubleArray: {
      if (value.is_null()) return value;
      if (value.kind() != K::kArray) return fail("an array of floats");
      std::vector<AttrValue> doubles;
      for (const AttrValue& v : value.as_array()) {
        if (!is_int(v) && v.kind() != K::kDouble) return fail("an array of floats");
        doubles.push_back(AttrValue::Double(v.as_double()));
      }
      return AttrValue::Array(std::move(doubles));
    }
    case AttrFieldType::kIntArrayArray:
      if (value.kind() != K::kArray) return fail("an array of integer arrays");
      for (const AttrValue& row : value.as_array()) {
        if (row.kind() != K::kArray) return fail("an array of integer arrays");
        for (const AttrValue& v : row.as_array()) {
          if (v.kind() != K::kInt) return fail("an array of integer arrays");
        }
      }
      return value;
  }
  return value;
}

Attrs MakeAttrs(const AttrsSchema& schema,
                const std::vector<std::pair<std::string, AttrValue>>& values) {
  const auto& fields = schema.fields();
  std::vector<AttrValue> out(fields.size());
  std::vector<bool> given(fields.size(), false);
  for (const auto& [name, value] : values) {
    int i = schema.FieldIndex(name);
    if (i < 0) {
      std::string valid;
      for (const AttrField& f : fields) valid += (valid.empty() ? "" : ", ") + f.name;
      throw TypeError("unknown attribute '" + name + "' for " + schema.type_key() +
                      " (valid: " + valid + ")");
    }
    if (given[i]) throw TypeError("attribute '" + name + "' given twice");
    out[i] = ConvertAttrValue(fields[i], value);
    given[i] = true;
  }
  for (size_t i = 0; i < fields.size(); ++i) {
    if (given[i]) continue;
    if (!fields[i].has_default) {
      throw TypeError("attribute '" + fields[i].name + "' of " + schema.type_key() +
                      " is required");
    }
    out[i] = fields[i].default_value;
  }
  return make_ref<AttrsNode>(&schema, std::move(out));
}

bool AttrsEqual(const Attrs& a, const Attrs& b) {
  if (a.same_as(b)) return true;
  if (!a || !b) return false;
  return a->schema == b->schema && a->values == b->values;
}

size_t AttrsHash(const Attrs& a) {
  if (!a) return 0;
  size_t h = std::hash<std::string>()(a->schema->type_key());
  for (const AttrValue& v : a->values) h = Combine(h, v.Hash());
  return h;
}

const AttrValue* DictAttrs::find(const std::string& key) const {
  for (const auto& [k, v] : entries_) {
    if (k == key) return &v;
  }
  return nullptr;
}

void DictAttrs::Set(const std::string& key, AttrValue value) {
  for (auto& [k, v] : entries_) {
    if (k == key) {
      v = std::move(value);
      return;
    }
  }
  entries_.emplace_back(key, std::move(value));
}

int64_t DictAttrs::GetInt(const std::string& key, int64_t otherwise) const {
  const AttrValue* v = find(key);
  if (!v || (v->kind() != AttrValue::Kind::kInt && v->kind() != AttrValue::Kind::kBool)) {
    return otherwise;
  }
  return v->as_int();
}

}  // namespace relaypass::ir
