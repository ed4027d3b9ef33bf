// The ONNX importer (relay.frontend.from_onnx): the model's bytes or path in, (IRModule, params)
// out, params as relaypass NDArrays.
#include "common.h"
#include "relaypass/frontend/onnx.h"

namespace relaypass::python {

namespace {

frontend::OnnxOptions Options(const py::object& shape, const std::string& dtype,
                              const py::object& opset, bool freeze_params) {
  frontend::OnnxOptions options;
  if (!shape.is_none()) {
    for (auto item : shape.cast<py::dict>()) {
      options.shape[item.first.cast<std::string>()] = item.second.cast<std::vector<int64_t>>();
    }
  }
  options.dtype = dtype;
  if (!opset.is_none()) options.opset = opset.cast<int64_t>();
  options.freeze_params = freeze_params;
  return options;
}

py::tuple ToPy(const frontend::OnnxModel& model) {
  py::dict params;
  for (const auto& [name, array] : model.params) params[py::str(name)] = array;
  return py::make_tuple(model.mod, params);
}

}  // namespace

void BindFrontend(py::module_& m) {
  m.def(
      "from_onnx_bytes",
      [](const py::bytes& data, const py::object& shape, const std::string& dtype,
         const py::object& opset, bool freeze_params) {
        const std::string bytes = data;
        frontend::OnnxOptions options = Options(shape, dtype, opset, freeze_params);
        frontend::OnnxModel model;
        {
          py::gil_scoped_release release;
          model = frontend::FromOnnxBytes(bytes, options, "<onnx.ModelProto>");
        }
        return ToPy(model);
      },
      py::arg("data"), py::arg("shape") = py::none(), py::arg("dtype") = "float32",
      py::arg("opset") = py::none(), py::arg("freeze_params") = true);
  m.def(
      "from_onnx_file",
      [](const std::string& path, const py::object& shape, const std::string& dtype,
         const py::object& opset, bool freeze_params) {
        frontend::OnnxOptions options = Options(shape, dtype, opset, freeze_params);
        frontend::OnnxModel model;
        {
          py::gil_scoped_release release;
          model = frontend::FromOnnxFile(path, options);
        }
        return ToPy(model);
      },
      py::arg("path"), py::arg("shape") = py::none(), py::arg("dtype") = "float32",
      py::arg("opset") = py::none(), py::arg("freeze_params") = true);
}

}  // namespace relaypass::python
