// relaypass._core: the extension module. Each Bind* function (one per binding file) adds one
// area of the C++ API; relaypass/*.py give it TVM's Python names.
#include "common.h"

namespace relaypass::python {
void BindQnn(py::module_& m);  // qnn.cc (declared here: common.h is the precompiled header)
void BindAdt(py::module_& m);  // adt.cc
void BindFunctionalPasses(py::module_& m);  // functional_passes.cc
void BindDevices(py::module_& m);           // devices.cc
}  // namespace relaypass::python

PYBIND11_MODULE(_core, m) {
  using namespace relaypass::python;
  m.doc() = "relaypass C++ core (use the relaypass package, not this module)";
  BindErrors(m);
  BindTypes(m);
  BindNDArray(m);
  BindAttrs(m);
  BindExprs(m);
  BindAdt(m);
  BindModule(m);
  BindOps(m);
  BindTransform(m);
  BindInstruments(m);
  BindPassRegistry(m);
  BindEvaluator(m);
  BindWorkloads(m);
  BindLayoutHooks(m);
  BindBenchSupport(m);
  BindFrontend(m);
  BindPatterns(m);
  BindBackend(m);
  BindRuntimeFiles(m);
  BindQnn(m);
  BindFunctionalPasses(m);
  BindDevices(m);
}
