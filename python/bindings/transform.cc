// The pass infrastructure (tvm.transform): PassInfo, Pass and its Python-made kinds (module
// and function passes whose body is a Python callable), Sequential, PrintIR,
// ApplyPassToFunction, and PassContext as a `with` context. C++ passes run with the GIL
// released; Python callbacks take it again.
#include <string>
#include <utility>
#include <vector>

#include "common.h"
#include "py_convert.h"
#include "relaypass/support/error.h"
#include "relaypass/transform.h"

namespace relaypass::python {
namespace {

using transform::Pass;
using transform::PassContext;
using transform::PassInfo;

const char* KindName(transform::PassKind kind) {
  switch (kind) {
    case transform::PassKind::kModule:
      return "module";
    case transform::PassKind::kFunction:
      return "function";
    case transform::PassKind::kSequential:
      return "sequential";
  }
  return "module";
}

std::vector<std::string> NamesOrEmpty(const py::object& names) {
  if (names.is_none()) return {};
  if (py::isinstance<py::str>(names)) return {names.cast<std::string>()};
  return names.cast<std::vector<std::string>>();
}

std::string TypeNameOf(const py::handle& obj) {
  return py::str(py::type::handle_of(obj).attr("__name__"));
}

Pass MakeModulePass(const py::object& fn, int opt_level, const std::string& name,
                    const py::object& required) {
  PyRef callable(fn);
  auto body = [callable](const ir::IRModule& mod, const PassContext& ctx) {
    py::gil_scoped_acquire gil;
    return CallPython([&] {
      py::object result = callable.get()(mod, ctx);
      if (!py::isinstance<ir::IRModule>(result)) {
        throw py::type_error("a module pass must return an IRModule, not " + TypeNameOf(result));
      }
      return result.cast<ir::IRModule>();
    });
  };
  return transform::CreateModulePass(body, opt_level, name, NamesOrEmpty(required));
}

Pass MakeFunctionPass(const py::object& fn, int opt_level, const std::string& name,
                      const py::object& required) {
  PyRef callable(fn);
  auto body = [callable](const ir::Function& func, const ir::IRModule& mod,
                         const PassContext& ctx) {
    py::gil_scoped_acquire gil;
    return CallPython([&] {
      py::object result = callable.get()(func, mod, ctx);
      if (!py::isinstance<ir::FunctionNode>(result)) {
        throw py::type_error("a function pass must return a relay.Function, not " +
                             TypeNameOf(result));
      }
      return result.cast<ir::Function>();
    });
  };
  return transform::CreateFunctionPass(body, opt_level, name, NamesOrEmpty(required));
}

// The scopes that `with ctx:` entered on this thread, innermost last.
thread_local std::vector<transform::PassContextScope*> entered_scopes;

void EnterContext(const PassContext& ctx) {
  entered_scopes.push_back(new transform::PassContextScope(ctx));
}

void ExitContext(const PassContext& ctx) {
  if (entered_scopes.empty() || !entered_scopes.back()->context().same_as(ctx)) {
    throw py::value_error("PassContext.__exit__ without a matching __enter__");
  }
  transform::PassContextScope* scope = entered_scopes.back();
  entered_scopes.pop_back();
  delete scope;  // calls the instruments' exit_pass_ctx, which may raise
}

}  // namespace

transform::PassInstruments InstrumentsFromPy(const py::object& instruments);
py::list InstrumentsToPy(const transform::PassInstruments& instruments);

void BindTransform(py::module_& m) {
  py::class_<PassInfo>(m, "PassInfo")
      .def(py::init([](int opt_level, const std::string& name, const py::object& required, bool) {
             return PassInfo{opt_level, name, NamesOrEmpty(required)};
           }),
           py::arg("opt_level"), py::arg("name"), py::arg("required") = py::none(),
           py::arg("traceable") = false)
      .def_readonly("opt_level", &PassInfo::opt_level)
      .def_readonly("name", &PassInfo::name)
      .def_readonly("required", &PassInfo::required)
      .def_property_readonly("traceable", [](const PassInfo&) { return false; })
      .def("__str__", &PassInfo::ToString)
      .def("__repr__", &PassInfo::ToString);

  py::class_<Pass>(m, "Pass")
      .def(py::init([](const Pass& other) { return other; }), py::arg("handle"))
      .def_property_readonly("info", &Pass::info)
      .def_property_readonly("_kind", [](const Pass& p) { return KindName(p.kind()); })
      .def_property_readonly("spec", &Pass::spec)
      .def(
          "__call__", [](const Pass& p, const ir::IRModule& mod) { return p(mod); }, py::arg("mod"),
          py::call_guard<py::gil_scoped_release>())
      .def(
          "_run_in",
          [](const Pass& p, const ir::IRModule& mod, const PassContext& ctx) {
            return p(mod, ctx);
          },
          py::call_guard<py::gil_scoped_release>())
      .def("__str__", [](const Pass& p) { return p.info().ToString(); })
      .def("same_as", [](const Pass& a, const Pass& b) { return a.get() == b.get(); });

  m.def("make_module_pass", &MakeModulePass, py::arg("pass_func"), py::arg("opt_level"),
        py::arg("name"), py::arg("required") = py::none());
  m.def("make_function_pass", &MakeFunctionPass, py::arg("pass_func"), py::arg("opt_level"),
        py::arg("name"), py::arg("required") = py::none());
  m.def(
      "sequential",
      [](const std::vector<Pass>& passes, int opt_level, const std::string& name,
         const py::object& required) {
        return transform::Sequential(passes, name, opt_level, NamesOrEmpty(required));
      },
      py::arg("passes"), py::arg("opt_level") = 0, py::arg("name") = "sequential",
      py::arg("required") = py::none());
  m.def("sequential_passes", [](const Pass& p) -> py::object {
    const std::vector<Pass>* members = transform::SequentialPasses(p);
    if (!members) return py::none();
    return py::cast(*members);
  });
  m.def("print_ir", [] { return transform::PrintIR(); });
  m.def("apply_pass_to_function", &transform::ApplyPassToFunction, py::arg("transform"),
        py::arg("func_name_regex"));

  py::class_<PassContext>(m, "PassContext")
      .def(py::init([](int opt_level, const py::object& required, const py::object& disabled,
                       const py::object& instruments, const py::object& config) {
             transform::PassContextOptions options;
             options.opt_level = opt_level;
             options.required_pass = NamesOrEmpty(required);
             options.disabled_pass = NamesOrEmpty(disabled);
             options.instruments = InstrumentsFromPy(instruments);
             if (!config.is_none()) {
               auto dict = CastNamed<py::dict>(config, "PassContext config", "a dict");
               for (auto item : dict) {
                 options.config[ToString(item.first, "PassContext config key")] =
                     AttrValueFromPy(item.second, ValueUse::kOption);
               }
             }
             return PassContext(std::move(options));
           }),
           py::arg("opt_level") = 2, py::arg("required_pass") = py::none(),
           py::arg("disabled_pass") = py::none(), py::arg("instruments") = py::none(),
           py::arg("config") = py::none())
      .def_static("current", &PassContext::Current)
      .def_property("opt_level", &PassContext::opt_level, &PassContext::set_opt_level)
      .def_property(
          "required_pass", &PassContext::required_pass,
          [](PassContext& c, const py::object& v) { c.set_required_pass(NamesOrEmpty(v)); })
      .def_property(
          "disabled_pass", &PassContext::disabled_pass,
          [](PassContext& c, const py::object& v) { c.set_disabled_pass(NamesOrEmpty(v)); })
      .def_property_readonly("instruments",
                             [](const PassContext& c) { return InstrumentsToPy(c.instruments()); })
      .def_property_readonly("config",
                             [](const PassContext& c) {
                               py::dict out;
                               for (auto& [k, v] : c.config())
                                 out[py::str(k)] = AttrValueToPy(v, ValueUse::kOption);
                               return out;
                             })
      .def("get_config",
           [](const PassContext& c, const std::string& key) {
             return AttrValueToPy(c.GetConfig(key), ValueUse::kOption);
           })
      .def(
          "override_instruments",
          [](PassContext& c, const py::object& instruments) {
            c.override_instruments(InstrumentsFromPy(instruments));
          },
          py::arg("instruments"))
      .def("__enter__",
           [](const PassContext& c) {
             EnterContext(c);
             return c;
           })
      .def("__exit__", [](const PassContext& c, const py::args&) { ExitContext(c); })
      .def("same_as", &PassContext::same_as);
}

}  // namespace relaypass::python
