// Call attributes (relay.attrs.*: `call.attrs["data_layout"]`, `dict(call.attrs)`,
// `call.attrs.strides`) and the conversions between attribute values and Python values.
#include <climits>
#include <string>

#include "common.h"
#include "py_convert.h"
#include "relaypass/support/error.h"

namespace relaypass::python {

py::object AttrValueToPy(const ir::AttrValue& value, ValueUse use) {
  using K = ir::AttrValue::Kind;
  const bool objects = use == ValueUse::kAttribute;
  switch (value.kind()) {
    case K::kNull:
      return py::none();
    case K::kInt:
      if (!objects) return py::int_(value.as_int());
      return py::module_::import("relaypass._values")
          .attr(value.int_dtype() == ir::DataType::Int64() ? "IntImm64" : "IntImm")(value.as_int());
    case K::kBool:
      return py::bool_(value.as_bool());
    case K::kDouble:
      if (!objects) return py::float_(value.as_double());
      return py::module_::import("relaypass._values").attr("FloatImm")(value.as_double());
    case K::kString:
      return py::str(value.as_string());
    case K::kArray: {
      py::list out;
      for (const ir::AttrValue& v : value.as_array()) out.append(AttrValueToPy(v, use));
      return out;
    }
    case K::kMap: {
      py::dict out;
      for (const auto& [k, v] : value.as_map()) out[py::str(k)] = AttrValueToPy(v, use);
      return out;
    }
    case K::kVirtualDevice:
      return py::cast(value.as_virtual_device());
  }
  return py::none();
}

ir::AttrValue AttrValueFromPy(py::handle value, ValueUse use) {
  const char* what = use == ValueUse::kAttribute ? "attribute value" : "option value";
  if (value.is_none()) return ir::AttrValue::Null();
  if (py::isinstance<py::bool_>(value)) return ir::AttrValue::Bool(value.cast<bool>());
  if (py::isinstance<py::int_>(value)) {
    int64_t v = ToInt64(value, what);
    bool fits = v >= INT_MIN && v <= INT_MAX;
    return ir::AttrValue::Int(v, fits ? ir::DataType::Int32() : ir::DataType::Int64());
  }
  if (py::isinstance<py::float_>(value)) return ir::AttrValue::Double(value.cast<double>());
  if (py::isinstance<py::str>(value)) return ir::AttrValue::Str(value.cast<std::string>());
  if (py::isinstance<ir::VirtualDeviceNode>(value)) {
    return ir::AttrValue::Device(value.cast<ir::VirtualDevice>());
  }
  NestingGuard guard(value, what);
  if (py::isinstance<py::tuple>(value) || py::isinstance<py::list>(value)) {
    std::vector<ir::AttrValue> items;
    for (py::handle item : value) items.push_back(AttrValueFromPy(item, use));
    return ir::AttrValue::Array(std::move(items));
  }
  if (py::isinstance<py::dict>(value) || py::hasattr(value, "items")) {
    ir::AttrValue::MapEntries entries;
    for (py::handle item : value.attr("items")()) {
      auto pair = py::reinterpret_borrow<py::tuple>(item);
      if (use == ValueUse::kAttribute && !py::isinstance<py::str>(pair[0])) {
        // TVM's Map<String, ObjectRef>; a map keyed by IR nodes is not an attribute value here.
        throw relaypass::TypeError(
            "cannot use a dict with a " +
            std::string(py::str(py::type::handle_of(pair[0]).attr("__name__"))) +
            " key as an attribute value: " + std::string(py::repr(value)));
      }
      entries.emplace_back(py::str(pair[0]).cast<std::string>(), AttrValueFromPy(pair[1], use));
    }
    return ir::AttrValue::Map(std::move(entries));
  }
  // NumPy scalars and TVM-style IntImm/FloatImm objects.
  if (py::hasattr(value, "item")) return AttrValueFromPy(value.attr("item")(), use);
  if (py::hasattr(value, "value")) return AttrValueFromPy(value.attr("value"), use);
  const std::string message = "cannot use a " +
                              std::string(py::str(py::type::handle_of(value).attr("__name__"))) +
                              " as an " + what + ": " + std::string(py::repr(value));
  if (use == ValueUse::kOption) throw relaypass::PassError(message);
  throw relaypass::TypeError(message);
}

py::object DictAttrsToPy(const ir::DictAttrs& attrs) {
  if (attrs.empty()) return py::none();
  py::dict out;
  for (const auto& [key, value] : attrs.entries()) out[py::str(key)] = AttrValueToPy(value);
  return out;
}

ir::DictAttrs DictAttrsFromPy(const py::object& attrs) {
  ir::DictAttrs out;
  if (attrs.is_none()) return out;
  py::object items = py::hasattr(attrs, "items") ? attrs.attr("items")() : attrs;
  for (py::handle item : items) {
    auto pair = py::reinterpret_borrow<py::tuple>(item);
    out.Set(ToString(pair[0], "function attribute name"), AttrValueFromPy(pair[1]));
  }
  return out;
}

namespace {

const ir::AttrValue& Field(const ir::AttrsNode& attrs, const std::string& name) {
  if (attrs.schema->FieldIndex(name) < 0) {
    throw py::attribute_error(attrs.schema->type_key() + " has no attribute '" + name + "'");
  }
  return attrs.get(name);
}

py::list Keys(const ir::AttrsNode& attrs) {
  py::list out;
  for (const ir::AttrField& f : attrs.schema->fields()) out.append(f.name);
  return out;
}

}  // namespace

void BindAttrs(py::module_& m) {
  py::class_<ir::AttrsNode, ir::Attrs>(m, "Attrs")
      .def_property_readonly("type_key",
                             [](const ir::AttrsNode& a) { return a.schema->type_key(); })
      .def("keys", &Keys)
      .def("list_field_info", &Keys)
      .def("__getitem__",
           [](const ir::AttrsNode& a, const std::string& name) {
             if (a.schema->FieldIndex(name) < 0) throw py::key_error(name);
             return AttrValueToPy(a.get(name));
           })
      .def("__contains__", [](const ir::AttrsNode& a,
                              const std::string& name) { return a.schema->FieldIndex(name) >= 0; })
      .def("__getattr__", [](const ir::AttrsNode& a,
                             const std::string& name) { return AttrValueToPy(Field(a, name)); })
      .def("__iter__", [](const ir::AttrsNode& a) { return py::iter(Keys(a)); })
      .def("__len__", [](const ir::AttrsNode& a) { return a.schema->fields().size(); })
      .def("items",
           [](const ir::AttrsNode& a) {
             py::list out;
             for (size_t i = 0; i < a.values.size(); ++i) {
               out.append(py::make_tuple(a.schema->fields()[i].name, AttrValueToPy(a.values[i])));
             }
             return out;
           })
      .def("get_int",
           [](const ir::AttrsNode& a, const std::string& n) { return Field(a, n).as_int(); })
      .def("get_str",
           [](const ir::AttrsNode& a, const std::string& n) { return Field(a, n).as_string(); })
      .def("get_int_tuple",
           [](const ir::AttrsNode& a, const std::string& n) {
             return py::tuple(py::cast(Field(a, n).as_ints()));
           })
      .def("__eq__", [](const ir::Attrs& a, const ir::Attrs& b) { return ir::AttrsEqual(a, b); })
      .def("__hash__", [](const ir::Attrs& a) { return ir::AttrsHash(a); })
      .def("__repr__", [](const ir::AttrsNode& a) {
        std::string out = a.schema->type_key() + "(";
        for (size_t i = 0; i < a.values.size(); ++i) {
          if (i) out += ", ";
          out += a.schema->fields()[i].name + "=" + a.values[i].ToString();
        }
        return out + ")";
      });
}

}  // namespace relaypass::python
