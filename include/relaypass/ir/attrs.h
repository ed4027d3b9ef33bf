// Reflected attributes. Each attrs type is described once by an AttrsSchema (field names in
// declaration order, value kinds, defaults); the printer, parser, structural equality and hashing
// all read that one list.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "relaypass/ir/dtype.h"
#include "relaypass/ir/object.h"
#include "relaypass/ir/virtual_device.h"

namespace relaypass::ir {

/// One attribute value: null, an integer (with the dtype TVM's IntImm would carry), a bool, a
/// double (with the dtype TVM's FloatImm would carry: an op's double field is float32), a string,
/// an array of values, or a map from strings to values (TVM's Map<String, ObjectRef>). The same
/// value type holds pass options and PassContext config entries (transform/option_value.h), which
/// print as Python literals there.
class AttrValue {
 public:
  enum class Kind : uint8_t { kNull, kInt, kBool, kDouble, kString, kArray, kMap, kVirtualDevice };
  using MapEntries = std::vector<std::pair<std::string, AttrValue>>;  // in written order

  AttrValue() = default;  // null
  static AttrValue Null() { return {}; }
  static AttrValue Int(int64_t v, DataType dtype = DataType::Int32());
  static AttrValue Bool(bool v);
  static AttrValue Double(double v, DataType dtype = DataType::Float32());
  static AttrValue Str(std::string v);
  static AttrValue Array(std::vector<AttrValue> v);
  static AttrValue Ints(const std::vector<int64_t>& v);  // array of int32 IntImm
  static AttrValue Map(MapEntries v);
  static AttrValue Device(VirtualDevice v);  // null reads as the fully unconstrained device

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::kNull; }
  int64_t as_int() const;    // kInt or kBool
  bool as_bool() const;      // kBool or kInt
  double as_double() const;  // kDouble or kInt
  const std::string& as_string() const;
  const std::vector<AttrValue>& as_array() const;
  std::vector<int64_t> as_ints() const;  // an array of ints
  const MapEntries& as_map() const;
  /// A kVirtualDevice value's device (never null).
  const VirtualDevice& as_virtual_device() const;
  /// The entry of a map value under `key`, or null.
  const AttrValue* find(const std::string& key) const;
  DataType int_dtype() const { return dtype_; }
  DataType float_dtype() const { return dtype_; }

  /// TVM's printed form: `1`, `1i64`, `True`, `2e-05f`, `0.5f64`, `"NCHW"`, `[1, 1]`, `None`.
  std::string ToString() const;

  /// Structural equality as TVM's attrs use it (doubles within 1e-9, IntImm and FloatImm dtypes
  /// must match).
  friend bool operator==(const AttrValue& a, const AttrValue& b);
  friend bool operator!=(const AttrValue& a, const AttrValue& b) { return !(a == b); }
  size_t Hash() const;

 private:
  Kind kind_ = Kind::kNull;
  DataType dtype_ = DataType::Int32();  // of kInt and kDouble values
  int64_t int_ = 0;
  double double_ = 0;
  std::string string_;
  std::vector<AttrValue> array_;
  MapEntries map_;
  VirtualDevice virtual_device_;
};

/// Python's name of a value's kind: NoneType, int, bool, float, str, list or dict (the kinds of
/// the Python values they come from and go to).
const char* AttrKindName(AttrValue::Kind kind);

/// What a field holds; the parser converts literals to it and rejects what does not fit.
enum class AttrFieldType : uint8_t {
  kInt,            // C++ int: `groups=2`, `axis=-1`
  kBool,           // C++ bool: `ceil_mode=True`
  kDouble,         // C++ double: `epsilon=1e-05f`
  kString,         // String: `data_layout="NCHW"`
  kDType,          // DataType, printed as a string: `out_dtype="float16"`, void is ""
  kIndexExpr,      // an integer or None: `channels=64`, `units=None`
  kIntArray,       // Array<Integer> or None: `strides=[2, 2]`, `axes=None`
  kIntArrayArray,  // Array<Array<Integer>>: `pad_width=[[0, 0], [1, 1]]`
  kIntOrIntArray,  // an Integer or an Array<Integer>: `indices_or_sections=3`, `=[2, 5]`
  kDoubleArray,    // Array<FloatImm> or None: `roi=[0f, 0f, 0f, 0f]`
  kVirtualDevice,  // VirtualDevice: `virtual_device=meta[VirtualDevice][0]`
};

struct AttrField {
  std::string name;
  AttrFieldType type;
  bool has_default = false;
  AttrValue default_value;
  std::string doc;
  /// A field TVM declares without set_default: it prints even when it holds its default (TVM
  /// prints `axes=None`), though a missing value still reads as the default.
  bool printed_when_default = false;
};

/// The description of one attrs type, e.g. "relay.attrs.Conv2DAttrs".
class AttrsSchema {
 public:
  AttrsSchema(std::string type_key, std::vector<AttrField> fields);
  const std::string& type_key() const { return type_key_; }
  const std::vector<AttrField>& fields() const { return fields_; }
  /// Index of the field named `name`, or -1.
  int FieldIndex(const std::string& name) const;

  /// Field constructors, in the words of TVM_ATTR_FIELD(...).set_default(...).
  static AttrField Int(std::string name, int64_t def);
  static AttrField RequiredInt(std::string name);
  static AttrField Bool(std::string name, bool def);
  static AttrField Double(std::string name, double def);
  static AttrField RequiredDouble(std::string name);
  static AttrField String(std::string name, std::string def);
  static AttrField RequiredString(std::string name);
  static AttrField DType(std::string name, std::string def);
  static AttrField RequiredDType(std::string name);
  static AttrField IndexExpr(std::string name);          // default None
  static AttrField RequiredIndexExpr(std::string name);  // no default: always printed
  static AttrField IntArray(std::string name, std::vector<int64_t> def);
  static AttrField NullableIntArray(std::string name);  // default None
  static AttrField UnsetIntArray(std::string name);     // default None, printed as `=None`
  static AttrField RequiredIntArray(std::string name);
  static AttrField RequiredIntArrayArray(std::string name);
  static AttrField RequiredIntOrIntArray(std::string name);
  static AttrField NullableDoubleArray(std::string name);  // default None
  /// A VirtualDevice field, by default the fully unconstrained device.
  static AttrField VirtualDeviceField(std::string name);

 private:
  std::string type_key_;
  std::vector<AttrField> fields_;
};

/// An attrs object: one value per schema field, in field order.
struct AttrsNode : Object {
  AttrsNode(const AttrsSchema* s, std::vector<AttrValue> v) : schema(s), values(std::move(v)) {}
  const AttrsSchema* schema;
  std::vector<AttrValue> values;

  const AttrValue& get(const std::string& name) const;
  int64_t get_int(const std::string& name) const { return get(name).as_int(); }
  bool get_bool(const std::string& name) const { return get(name).as_bool(); }
  double get_double(const std::string& name) const { return get(name).as_double(); }
  const std::string& get_string(const std::string& name) const { return get(name).as_string(); }
  std::vector<int64_t> get_ints(const std::string& name) const { return get(name).as_ints(); }
  /// A copy with one field replaced (fields are immutable once shared).
  Ref<AttrsNode> With(const std::string& name, AttrValue value) const;
};
using Attrs = Ref<AttrsNode>;

/// Converts `value` to what `field` holds (e.g. an int literal for a double field); throws
/// TypeError naming the field when it does not fit.
AttrValue ConvertAttrValue(const AttrField& field, const AttrValue& value);

/// Builds attrs from named values: unnamed fields take their default; unknown names, values of
/// the wrong kind and missing required fields are errors (TypeError naming the attribute).
Attrs MakeAttrs(const AttrsSchema& schema,
                const std::vector<std::pair<std::string, AttrValue>>& values);

bool AttrsEqual(const Attrs& a, const Attrs& b);
size_t AttrsHash(const Attrs& a);

/// A function's ordered attribute dictionary (`Primitive=1`, `Compiler="cublas"`).
class DictAttrs {
 public:
  DictAttrs() = default;
  DictAttrs(std::initializer_list<std::pair<std::string, AttrValue>> entries) : entries_(entries) {}
  const std::vector<std::pair<std::string, AttrValue>>& entries() const { return entries_; }
  bool empty() const { return entries_.empty(); }
  const AttrValue* find(const std::string& key) const;
  /// Sets `key`, keeping its position if present, else appending.
  void Set(const std::string& key, AttrValue value);
  /// Integer value of `key`, or `otherwise` if absent.
  int64_t GetInt(const std::string& key, int64_t otherwise) const;
  friend bool operator==(const DictAttrs& a, const DictAttrs& b) {
    return a.entries_ == b.entries_;
  }

 private:
  std::vector<std::pair<std::string, AttrValue>> entries_;
};

}  // namespace relaypass::ir
