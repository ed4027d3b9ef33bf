// relay.qnn's C++ side: the requantize config that `with relay.qnn.op.requantize_config(...)`
// enters and leaves, and qnn lowering / legalize hooks written in Python. The qnn ops and passes
// need nothing here (make_op_call, create_pass).
#include "relaypass/qnn/qnn.h"
#include "common.h"

namespace relaypass::python {

namespace {

// A hook written in Python, fn(attrs, inputs, types) -> Expr or None, called with the GIL.
passes::LegalizeFunc HookFromPython(const py::object& fn) {
  PyRef hook(fn);
  return [hook](const ir::Attrs& attrs, const std::vector<ir::Expr>& inputs,
                const std::vector<ir::Type>& types) -> ir::Expr {
    py::gil_scoped_acquire gil;
    return CallPython([&]() -> ir::Expr {
      py::object result = hook.get()(attrs, inputs, types);
      if (result.is_none()) return nullptr;
      return result.cast<ir::Expr>();
    });
  };
}

}  // namespace

void BindQnn(py::module_& m) {
  m.def(
      "register_qnn_legalize",
      [](const std::string& op_name, const py::object& fn, int level) {
        return qnn::RegisterQnnLegalize(op_name, HookFromPython(fn), level);
      },
      py::arg("op_name"), py::arg("fn"), py::arg("level") = 10);
  m.def(
      "register_qnn_canonicalize",
      [](const std::string& op_name, const py::object& fn, int level) {
        return qnn::RegisterQnnCanonicalize(op_name, HookFromPython(fn), level);
      },
      py::arg("op_name"), py::arg("fn"), py::arg("level") = 10);
  m.def(
      "qnn_enter_requantize_config",
      [](const std::string& rounding, const std::string& compute_dtype) {
        qnn::EnterRequantizeConfig({rounding, compute_dtype});
      },
      py::arg("rounding"), py::arg("compute_dtype"));
  m.def("qnn_exit_requantize_config", [] { qnn::ExitRequantizeConfig(); });
  m.def("list_fake_quantized_op_freqs", [](const ir::IRModule& mod) {
    std::map<std::string, int64_t> freqs;
    {
      py::gil_scoped_release release;
      freqs = qnn::ListFakeQuantizedOpFreqs(mod);
    }
    return freqs;
  });
  m.def("qnn_current_requantize_config", [] {
    const qnn::RequantizeConfig& config = qnn::CurrentRequantizeConfig();
    return py::make_tuple(config.rounding, config.compute_dtype);
  });
}

}  // namespace relaypass::python
