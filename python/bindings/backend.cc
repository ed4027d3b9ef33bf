// relay.build and the executors: backend::Optimize / Build (relay.optimize, relay.build), the
// built module, runtime::GraphExecutor (tvm.contrib.graph_executor) and a persistent evaluator of
// a module (the VM and the debug executor). The heavy calls release the GIL.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common.h"
#include "relaypass/backend/build.h"
#include "relaypass/backend/kernel_source.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/op/int8_isa.h"
#include "relaypass/runtime/graph_executor.h"
#include "relaypass/runtime/module_file.h"

namespace relaypass::python {
namespace {

backend::ParamMap ParamsFromPy(const py::dict& params) {
  backend::ParamMap out;
  for (auto item : params) out[item.first.cast<std::string>()] = item.second.cast<ir::NDArray>();
  return out;
}

py::dict ParamsToPy(const std::map<std::string, ir::NDArray>& params) {
  py::dict out;
  for (const auto& [name, array] : params) out[py::str(name)] = array;
  return out;
}

py::tuple ShapeToPy(const ir::TensorTypeNode* type) {
  py::list dims;
  for (ir::Dim d : type->shape) dims.append(d);
  return py::tuple(dims);
}

// A module's functions on one interpreter made once, so repeated calls reuse its plan and packed
// weights (the VM's executable, the debug executor's evaluate()).
class ModuleRunner {
 public:
  explicit ModuleRunner(ir::IRModule mod) : mod_(std::move(mod)), interpreter_(mod_) {}
  py::object RunMain(const py::list& args) {
    std::vector<eval::Value> values;
    for (py::handle a : args) values.push_back(ValueFromPy(a));
    eval::Value result;
    {
      py::gil_scoped_release release;
      result = interpreter_.RunMain(values);
    }
    return ValueToPy(result);
  }
  const ir::IRModule& mod() const { return mod_; }

 private:
  ir::IRModule mod_;
  eval::Interpreter interpreter_;
};

}  // namespace

void BindBackend(py::module_& m) {
  m.def(
      "optimize",
      [](const ir::IRModule& mod, const py::dict& params) {
        backend::ParamMap values = ParamsFromPy(params);
        py::gil_scoped_release release;
        return backend::Optimize(mod, values);
      },
      py::arg("mod"), py::arg("params"));

  py::class_<backend::BuiltModule, std::shared_ptr<backend::BuiltModule>>(m, "BuiltModule")
      .def_property_readonly("mod", [](const backend::BuiltModule& b) { return b.mod; })
      .def_property_readonly("mod_name", [](const backend::BuiltModule& b) { return b.mod_name; })
      .def_property_readonly("graph_json",
                             [](const backend::BuiltModule& b) { return b.graph.json; })
      .def_property_readonly(
          "params", [](const backend::BuiltModule& b) { return ParamsToPy(b.graph.params); })
      .def_property_readonly("function_names",
                             [](const backend::BuiltModule& b) { return b.graph.function_names; })
      // The int8 GEMM variant of the target (op/int8_isa.h), by name ("avx512vnni", ...).
      .def_property(
          "int8_isa", [](const backend::BuiltModule& b) { return op::Int8IsaName(b.int8_isa); },
          [](backend::BuiltModule& b, const std::string& name) {
            const std::optional<op::Int8Isa> isa = op::ParseInt8Isa(name);
            if (!isa) throw ValueError("unknown int8 instruction set '" + name + "'");
            b.int8_isa = *isa;
          })
      .def("kernel_assembly_source",
           [](const backend::BuiltModule& b) { return backend::KernelAssemblySource(b); });
  m.def(
      "int8_isa_for_target",
      [](const std::string& mcpu, const std::vector<std::string>& mattr) {
        return op::Int8IsaName(op::Int8IsaForTarget(mcpu, mattr));
      },
      py::arg("mcpu"), py::arg("mattr"));
  m.def("host_int8_isa", [] { return op::Int8IsaName(op::BestHostInt8Isa()); });
  m.def(
      "build_graph",
      [](const ir::IRModule& mod, const py::dict& params, const std::string& mod_name) {
        backend::ParamMap values = ParamsFromPy(params);
        py::gil_scoped_release release;
        return std::make_shared<backend::BuiltModule>(backend::Build(mod, values, mod_name));
      },
      py::arg("mod"), py::arg("params"), py::arg("mod_name"));

  m.def(
      "rebuild_graph",
      [](const ir::IRModule& optimized, const std::string& mod_name) {
        py::gil_scoped_release release;
        return std::make_shared<backend::BuiltModule>(backend::FromOptimized(optimized, mod_name));
      },
      py::arg("optimized"), py::arg("mod_name"));

  m.def(
      "export_built_module",
      [](const backend::BuiltModule& built, const std::string& path) {
        py::gil_scoped_release release;
        runtime::ExportBuiltModule(built, path);
      },
      py::arg("built"), py::arg("path"));
  m.def(
      "load_built_module",
      [](const std::string& path) {
        py::gil_scoped_release release;
        return std::make_shared<backend::BuiltModule>(runtime::LoadBuiltModule(path));
      },
      py::arg("path"));

  py::class_<runtime::GraphExecutor>(m, "GraphExecutor")
      .def(py::init([](const backend::BuiltModule& built) {
             py::gil_scoped_release release;
             return std::make_unique<runtime::GraphExecutor>(built);
           }),
           py::arg("built"))
      .def_property_readonly("num_inputs", &runtime::GraphExecutor::num_inputs)
      .def_property_readonly("num_outputs", &runtime::GraphExecutor::num_outputs)
      .def("input_index", &runtime::GraphExecutor::InputIndex)
      .def("input_name", &runtime::GraphExecutor::InputName)
      .def("is_param", &runtime::GraphExecutor::IsParam)
      .def("input_shape",
           [](const runtime::GraphExecutor& g, size_t i) { return ShapeToPy(g.InputType(i)); })
      .def("input_dtype", [](const runtime::GraphExecutor& g,
                             size_t i) { return g.InputType(i)->dtype.ToString(); })
      .def("output_shape",
           [](const runtime::GraphExecutor& g, size_t i) { return ShapeToPy(g.OutputType(i)); })
      .def("output_dtype", [](const runtime::GraphExecutor& g,
                              size_t i) { return g.OutputType(i)->dtype.ToString(); })
      .def("set_input", &runtime::GraphExecutor::SetInput)
      .def("get_input", &runtime::GraphExecutor::GetInput)
      .def("get_output", &runtime::GraphExecutor::GetOutput)
      .def("run", &runtime::GraphExecutor::Run, py::call_guard<py::gil_scoped_release>())
      .def_property_readonly("built", [](const runtime::GraphExecutor& g) {
        return std::make_shared<backend::BuiltModule>(g.built());
      });

  py::class_<ModuleRunner>(m, "ModuleRunner")
      .def(py::init([](const ir::IRModule& mod) {
             py::gil_scoped_release release;
             return std::make_unique<ModuleRunner>(mod);
           }),
           py::arg("mod"))
      .def_property_readonly("mod", &ModuleRunner::mod)
      .def("run_main", &ModuleRunner::RunMain);
}

}  // namespace relaypass::python
