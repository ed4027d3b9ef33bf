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
            opt.name, required ? py::none() : AttrValueToPy(*opt.default_value, ValueUse::kOption),
            required));
      }
      out.append(py::make_tuple(name, options, reg->doc));
    }
    return out;
  });
  m.def("create_pass", [](const std::string& name, const py::list& options) {
    std::vector<std::pair<std::string, transform::OptionValue>> values;
    for (py::handle item : options) {
      auto pair = py::reinterpret_borrow<py::tuple>(item);
      values.emplace_back(pair[0].cast<std::string>(), AttrValueFromPy(pair[1], ValueUse::kOption));
    }
    return transform::PassRegistry::Global().Create(name, values);
  });
  m.def("parse_pipeline", [](const std::string& text) { return transform::ParsePipeline(text); });
  m.def("print_pipeline", &transform::PrintPipeline);
}

}  // namespace relaypass::python
