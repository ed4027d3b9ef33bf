// TVM's function-level transformations of functional programs (relay.transform.to_cps, un_cps,
// Defunctionalization):
// functions of a Function (and the module they add globals to), not passes.
#include "common.h"
#include "relaypass/passes/defunctionalization.h"
#include "relaypass/passes/lazy_gradient_init.h"
#include "relaypass/passes/to_cps.h"

namespace relaypass::python {

void BindFunctionalPasses(py::module_& m) {
  // `mod` receives the converted global functions (TVM mutates the module it is given); without
  // one, a fresh module does.
  m.def(
      "to_cps",
      [](const ir::Function& func, ir::IRModule* mod) {
        ir::IRModule fresh;
        return passes::ToCPS(func, mod != nullptr ? *mod : fresh);
      },
      py::arg("func"), py::arg("mod") = py::none());
  m.def("un_cps", &passes::UnCPS, py::arg("func"));
  // IRModule.import_from_std("gradient.rly"): GradCell and its functions, added to `mod`.
  m.def("import_grad_cell", &passes::ImportGradCell, py::arg("mod"));
  // `mod` receives the specialized globals, the apply globals and their ADTs.
  m.def(
      "defunctionalization",
      [](const ir::Function& func, ir::IRModule& mod) {
        return passes::Defunctionalization(func, mod);
      },
      py::arg("func"), py::arg("mod"));
}

}  // namespace relaypass::python
