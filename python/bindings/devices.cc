// Virtual devices (tvm.target.VirtualDevice), the virtual_device_ of variables and functions,
// and relay.transform.RecoverVirtualDeviceMap: thin bindings of ir/virtual_device.h and
// passes/plan_devices.h. A VirtualDevice's target is held as text; the `target` property gives
// a tvm.target.Target back.
#include <string>

#include "common.h"
#include "relaypass/ir/bind.h"
#include "relaypass/ir/module.h"
#include "relaypass/ir/virtual_device.h"
#include "relaypass/passes/plan_devices.h"

namespace relaypass::python {

void BindDevices(py::module_& m);  // called from core_module.cc

namespace {

using ir::VirtualDevice;

// TVM's VirtualDevice(device=None, target=None, memory_scope=""): the device's type and id, the
// target's text and its host's.
VirtualDevice FromPython(const py::object& device, const py::object& target,
                         const std::string& memory_scope) {
  int device_type = ir::kInvalidDeviceType;
  int device_id = -1;
  if (!device.is_none()) {
    if (!py::hasattr(device, "device_type") || !py::hasattr(device, "device_id")) {
      throw py::type_error("VirtualDevice takes a Device, got " +
                           std::string(py::str(py::type::handle_of(device).attr("__name__"))));
    }
    device_type = device.attr("device_type").cast<int>();
    device_id = device.attr("device_id").cast<int>();
  }
  std::string target_text;
  std::string host_text;
  int target_device_type = ir::kInvalidDeviceType;
  if (!target.is_none()) {
    py::object t =
        py::module_::import("relaypass.target.target").attr("Target").attr("canon_target")(target);
    target_text = py::str(t).cast<std::string>();
    py::object host = t.attr("host");
    if (!host.is_none()) host_text = py::str(host).cast<std::string>();
    target_device_type = t.attr("kind").attr("device_type").cast<int>();
  }
  return ir::MakeVirtualDevice(device_type, device_id, std::move(target_text), std::move(host_text),
                               memory_scope, target_device_type);
}

py::object TargetOf(const ir::VirtualDeviceNode& vd) {
  if (!vd.has_target()) return py::none();
  py::object target_class = py::module_::import("relaypass.target.target").attr("Target");
  py::object host = vd.target_host.empty() ? py::object(py::none()) : py::str(vd.target_host);
  return target_class(vd.target, host);
}

// Adds a read-only property to a class bound elsewhere.
template <typename F>
void AddProperty(py::module_& m, const char* cls, const char* name, F&& getter) {
  py::object klass = m.attr(cls);
  py::object property = py::module_::import("builtins").attr("property");
  klass.attr(name) = property(py::cpp_function(std::forward<F>(getter)));
}

}  // namespace

void BindDevices(py::module_& m) {
  py::class_<ir::VirtualDeviceNode, VirtualDevice>(m, "VirtualDevice")
      .def(py::init(&FromPython), py::arg("device") = py::none(), py::arg("target") = py::none(),
           py::arg("memory_scope") = "")
      .def_property_readonly("device_type_int",
                             [](const ir::VirtualDeviceNode& vd) { return vd.device_type; })
      .def_property_readonly("device_type",
                             [](const ir::VirtualDeviceNode& vd) { return vd.device_type; })
      .def_property_readonly("virtual_device_id",
                             [](const ir::VirtualDeviceNode& vd) { return vd.virtual_device_id; })
      .def_property_readonly("memory_scope",
                             [](const ir::VirtualDeviceNode& vd) { return vd.memory_scope; })
      .def_property_readonly("target", &TargetOf)
      .def("is_fully_unconstrained", &ir::VirtualDeviceNode::IsFullyUnconstrained)
      .def("is_fully_constrained", &ir::VirtualDeviceNode::IsFullyConstrained)
      .def("__eq__",
           [](const VirtualDevice& a, const py::object& b) {
             return py::isinstance<ir::VirtualDeviceNode>(b) &&
                    ir::VirtualDeviceEqual(a, b.cast<VirtualDevice>());
           })
      .def("__ne__",
           [](const VirtualDevice& a, const py::object& b) {
             return !(py::isinstance<ir::VirtualDeviceNode>(b) &&
                      ir::VirtualDeviceEqual(a, b.cast<VirtualDevice>()));
           })
      .def("__hash__", [](const VirtualDevice& vd) { return ir::VirtualDeviceHash(vd); })
      .def("__repr__", [](const VirtualDevice& vd) { return ir::VirtualDeviceToString(vd); });

  // None when never set (as TVM's field is after loading JSON that predates it), else the device.
  AddProperty(m, "Var", "virtual_device_", [](const ir::VarNode& v) -> py::object {
    return v.virtual_device ? py::cast(v.virtual_device) : py::object(py::none());
  });
  AddProperty(m, "Function", "virtual_device_", [](const ir::FunctionNode& f) -> py::object {
    return f.virtual_device ? py::cast(f.virtual_device) : py::object(py::none());
  });

  m.def("fully_unconstrained_virtual_device",
        []() { return ir::FullyUnconstrainedVirtualDevice(); });
  // TVM's FunctionOnDevice: the function with parameters carrying `params`' devices (uses in
  // the body follow) and `result` as its own.
  m.def("function_on_device", [](const ir::Function& fn, const std::vector<VirtualDevice>& params,
                                 const VirtualDevice& result) {
    if (params.size() != fn->params.size()) {
      throw py::value_error("There should be one virtual device per function parameter.");
    }
    std::unordered_map<const ir::VarNode*, ir::Expr> bindings;
    std::vector<ir::Var> new_params;
    for (size_t i = 0; i < params.size(); ++i) {
      ir::Expr copy = ir::CopyNode(fn->params[i]);
      const_cast<ir::VarNode*>(copy.as<ir::VarNode>())->virtual_device = params[i];
      bindings[fn->params[i].get()] = copy;
      new_params.emplace_back(copy.as<ir::VarNode>());
    }
    ir::Expr out = ir::CopyNode(fn);
    auto* node = const_cast<ir::FunctionNode*>(out.as<ir::FunctionNode>());
    node->body = ir::Bind(fn->body, bindings);
    node->params = std::move(new_params);
    node->virtual_device = result;
    return ir::Function(node);
  });
  m.def("recover_virtual_device_map", [](const ir::IRModule& mod, const ir::Expr& expr) {
    py::dict out;
    for (const auto& [e, vd] : passes::RecoverVirtualDeviceMap(mod, expr)) out[py::cast(e)] = vd;
    return out;
  });
}

}  // namespace relaypass::python
