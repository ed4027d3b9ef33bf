// relay.qnn's C++ side: the requantize config that `with relay.qnn.op.requantize_config(...)`
// enters and leaves. The qnn ops and passes need nothing here (make_op_call, create_pass).
#include "relaypass/qnn/qnn.h"
#include "common.h"

namespace relaypass::python {

void BindQnn(py::module_& m) {
  m.def(
      "qnn_enter_requantize_config",
      [](const std::string& rounding, const std::string& compute_dtype) {
        qnn::EnterRequantizeConfig({rounding, compute_dtype});
      },
      py::arg("rounding"), py::arg("compute_dtype"));
  m.def("qnn_exit_requantize_config", [] { qnn::ExitRequantizeConfig(); });
  m.def("qnn_current_requantize_config", [] {
    const qnn::RequantizeConfig& config = qnn::CurrentRequantizeConfig();
    return py::make_tuple(config.rounding, config.compute_dtype);
  });
}

}  // namespace relaypass::python
