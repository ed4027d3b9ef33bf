// The pass registry as Python sees it: every registered pass with its options (from which
// relaypass/relay/transform.py makes TVM's relay.transform.<Name>(...) functions), creating a
// pass by name, and option values as Python values.
#include <string>
#include <utility>
#include <vector>

#include "common.h"
#include "py_convert.h"
#include "relaypass/passes/default_pipeline.h"
#include "relaypass/support/error.h"
#include "relaypass/transform.h"

namespace relaypass::python {

transform::OptionValue OptionValueFromPy(py::handle value) {
  using transform::OptionValue;
  if (value.is_none()) return OptionValue::None();
  if (py::isinstance<py::bool_>(value)) return OptionValue::Bool(value.cast<bool>());
  if (py::isinstance<py::int_>(value)) return OptionValue::Int(ToInt64(value, "option value"));
  if (py::isinstance<py::float_>(value)) return OptionValue::Float(value.cast<double>());
  if (py::isinstance<py::str>(value)) return OptionValue::Str(value.cast<std::string>());
  NestingGuard guard(value, "option value");
  if (py::isinstance<py::dict>(value) || py::hasattr(value, "items")) {
    OptionValue::Dict dict;
    for (py::handle item : value.attr("items")()) {
      auto pair = py::reinterpret_borrow<py::tuple>(item);
      dict.emplace_back(py::str(pair[0]).cast<std::string>(), OptionValueFromPy(pair[1]));
    }
    return OptionValue::MakeDict(std::move(dict));
  }
  if (py::isinstance<py::tuple>(value) || py::isinstance<py::list>(value)) {
    OptionValue::List list;
    for (py::handle item : value) list.push_back(OptionValueFromPy(item));
    return OptionValue::MakeList(std::move(list));
  }
  if (py::hasattr(value, "item")) return OptionValueFromPy(value.attr("item")());
  throw relaypass::PassError("cannot use a " +
                             std::string(py::str(py::type::handle_of(value).attr("__name__"))) +
                             " as an option value: " + std::string(py::repr(value)));
}

py::object OptionValueToPy(const transform::OptionValue& value) {
  using K = transform::OptionValue::Kind;
  switch (value.kind()) {
    case K::kNone:
      return py::none();
    case K::kBool:
      return py::bool_(value.as_bool());
    case K::kInt:
      return py::int_(value.as_int());
    case K::kFloat:
      return py::float_(value.as_float());
    case K::kString:
      return py::str(value.as_string());
    case K::kList: {
      py::list out;
      for (const auto& v : value.as_list()) out.append(OptionValueToPy(v));
      return out;
    }
    case K::kDict: {
      py::dict out;
      for (const auto& [k, v] : value.as_dict()) out[py::str(k)] = OptionValueToPy(v);
      return out;
    }
  }
  return py::none();
}

void BindPassRegistry(py::module_& m) {
  // TVM's relay.optimize pass list for one llvm target, restricted to the registered passes.
  m.def("default_pipeline_names", [] { return passes::DefaultPipelineNames(); });
  m.def("default_pipeline_missing", [] { return passes::DefaultPipelineMissing(); });
  // [(name, [(option, default or None, required), ...], doc), ...]
  m.def("list_passes", [] {
    const transform::PassRegistry& registry = transform::PassRegistry::Global();
    py::list out;
    for (const std::string& name : registry.Names()) {
      const transform::PassRegistration* reg = registry.Find(name);
      py::list options;
      for (const transform::PassOption& opt : reg->options) {
        bool required = !opt.default_value.has_value();
        options.append(py::make_tuple(
            opt.name, required ? py::none() : OptionValueToPy(*opt.default_value), required));
      }
      out.append(py::make_tuple(name, options, reg->doc));
    }
    return out;
  });
  m.def("create_pass", [](const std::string& name, const py::list& options) {
    std::vector<std::pair<std::string, transform::OptionValue>> values;
    for (py::handle item : options) {
      auto pair = py::reinterpret_borrow<py::tuple>(item);
      values.emplace_back(pair[0].cast<std::string>(), OptionValueFromPy(pair[1]));
    }
    return transform::PassRegistry::Global().Create(name, values);
  });
  m.def("parse_pipeline", [](const std::string& text) { return transform::ParsePipeline(text); });
  m.def("print_pipeline", &transform::PrintPipeline);
}

}  // namespace relaypass::python
