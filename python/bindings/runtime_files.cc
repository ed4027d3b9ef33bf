// TVM's parameter files (runtime.save_param_dict / load_param_dict) and relaypass's artifact
// container (runtime/artifact.h) as bytes and files. Python objects are converted with the GIL
// held; the encoding, decoding and file I/O run with it released.
#include <map>
#include <string>
#include <string_view>

#include "common.h"
#include "relaypass/runtime/artifact.h"
#include "relaypass/runtime/binary_file.h"
#include "relaypass/runtime/param_dict.h"

namespace relaypass::python {

namespace {

// A contiguous bytes-like object (bytes, bytearray, memoryview, a NumPy uint8 array) held for
// the view's life; a bytearray cannot be resized while it is held.
class BytesView {
 public:
  explicit BytesView(const py::object& obj) {
    if (PyObject_GetBuffer(obj.ptr(), &view_, PyBUF_SIMPLE) != 0) throw py::error_already_set();
  }
  ~BytesView() { PyBuffer_Release(&view_); }
  BytesView(const BytesView&) = delete;
  BytesView& operator=(const BytesView&) = delete;
  std::string_view get() const {
    return {static_cast<const char*>(view_.buf), static_cast<size_t>(view_.len)};
  }

 private:
  Py_buffer view_{};
};

std::string PathFrom(const py::object& path) {
  py::object fs_path = py::module_::import("os").attr("fspath")(path);
  return fs_path.cast<std::string>();
}

std::map<std::string, ir::NDArray> ParamsFrom(const py::dict& params) {
  std::map<std::string, ir::NDArray> out;
  for (auto item : params) {
    if (!py::isinstance<py::str>(item.first)) throw py::type_error("parameter names are str");
    if (!py::isinstance<ir::NDArray>(item.second)) {
      throw py::type_error("parameter '" + item.first.cast<std::string>() + "' is not an NDArray");
    }
    out[item.first.cast<std::string>()] = item.second.cast<ir::NDArray>();
  }
  return out;
}

py::dict ParamsToPy(const std::map<std::string, ir::NDArray>& params) {
  py::dict out;
  for (const auto& [name, array] : params) out[py::str(name)] = py::cast(array);
  return out;
}

// Section values are bytes-like; a str is taken as its UTF-8 bytes (the Relay text of "module").
runtime::Artifact ArtifactFrom(const py::dict& sections) {
  runtime::Artifact out;
  for (auto item : sections) {
    if (!py::isinstance<py::str>(item.first)) throw py::type_error("section names are str");
    const std::string name = item.first.cast<std::string>();
    py::object value = py::reinterpret_borrow<py::object>(item.second);
    if (py::isinstance<py::str>(value)) {
      out.sections[name] = value.cast<std::string>();
    } else {
      out.sections[name] = std::string(BytesView(value).get());
    }
  }
  return out;
}

py::dict ArtifactToPy(const runtime::Artifact& artifact) {
  py::dict out;
  for (const auto& [name, bytes] : artifact.sections) out[py::str(name)] = py::bytes(bytes);
  return out;
}

}  // namespace

void BindRuntimeFiles(py::module_& m) {
  m.def(
      "save_param_dict",
      [](const py::dict& params) {
        const auto arrays = ParamsFrom(params);
        std::string bytes;
        {
          py::gil_scoped_release release;
          bytes = runtime::SaveParamDict(arrays);
        }
        return py::bytes(bytes);
      },
      py::arg("params"), "TVM's parameter-file bytes of a dict of NDArrays.");
  m.def(
      "load_param_dict",
      [](const py::object& data, const std::string& source_name) {
        BytesView view(data);
        std::map<std::string, ir::NDArray> params;
        {
          py::gil_scoped_release release;
          params = runtime::LoadParamDict(view.get(), source_name);
        }
        return ParamsToPy(params);
      },
      py::arg("data"), py::arg("source_name") = "<param bytes>",
      "A dict of NDArrays from TVM's parameter-file bytes (any bytes-like object).");
  m.def(
      "save_param_dict_to_file",
      [](const py::dict& params, const py::object& path) {
        const auto arrays = ParamsFrom(params);
        const std::string file = PathFrom(path);
        py::gil_scoped_release release;
        runtime::WriteBinaryFileAtomically(file, runtime::SaveParamDict(arrays));
      },
      py::arg("params"), py::arg("path"));
  m.def(
      "load_param_dict_from_file",
      [](const py::object& path, uint64_t max_bytes) {
        const std::string file = PathFrom(path);
        std::map<std::string, ir::NDArray> params;
        {
          py::gil_scoped_release release;
          params = runtime::LoadParamDict(runtime::ReadBinaryFile(file, max_bytes), file);
        }
        return ParamsToPy(params);
      },
      py::arg("path"), py::arg("max_bytes") = runtime::kDefaultMaxFileBytes);

  m.def(
      "serialize_artifact",
      [](const py::dict& sections) {
        const runtime::Artifact artifact = ArtifactFrom(sections);
        std::string bytes;
        {
          py::gil_scoped_release release;
          bytes = runtime::SerializeArtifact(artifact);
        }
        return py::bytes(bytes);
      },
      py::arg("sections"), "The artifact container's bytes of a dict of named byte sections.");
  m.def(
      "parse_artifact",
      [](const py::object& data, const std::string& source_name) {
        BytesView view(data);
        runtime::Artifact artifact;
        {
          py::gil_scoped_release release;
          artifact = runtime::ParseArtifact(view.get(), source_name);
        }
        return ArtifactToPy(artifact);
      },
      py::arg("data"), py::arg("source_name") = "<artifact bytes>");
  m.def(
      "write_artifact_file",
      [](const py::object& path, const py::dict& sections) {
        const std::string file = PathFrom(path);
        const runtime::Artifact artifact = ArtifactFrom(sections);
        py::gil_scoped_release release;
        runtime::WriteArtifactFile(file, artifact);
      },
      py::arg("path"), py::arg("sections"));
  m.def(
      "read_artifact_file",
      [](const py::object& path, uint64_t max_bytes) {
        const std::string file = PathFrom(path);
        runtime::Artifact artifact;
        {
          py::gil_scoped_release release;
          artifact = runtime::ReadArtifactFile(file, max_bytes);
        }
        return ArtifactToPy(artifact);
      },
      py::arg("path"), py::arg("max_bytes") = runtime::kDefaultMaxFileBytes);
}

}  // namespace relaypass::python
