// Reading models and tensors: the bytes through ONNX's generated protobuf classes, then the graph
// walk (importer.cc).
#include <onnx/onnx_pb.h>

#include <fcntl.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "context.h"
#include "importer.h"
#include "relaypass/frontend/onnx.h"
#include "tensor.h"

namespace relaypass::frontend {

namespace {

onnx::ModelProto ParseModel(const std::string& bytes, const std::string& source) {
  onnx::ModelProto model;
  if (bytes.empty()) throw OnnxError(source + ": empty file, not an ONNX model");
  if (!model.ParseFromString(bytes)) {
    throw OnnxError(source + ": malformed or truncated ONNX model (protobuf parse failed)");
  }
  return model;
}

}  // namespace

OnnxModel FromOnnxBytes(const std::string& bytes, const OnnxOptions& options,
                        const std::string& source_name) {
  onnx::ModelProto model = ParseModel(bytes, source_name);
  return onnx_import::ImportModel(model, options, ".", source_name);
}

OnnxModel FromOnnxFile(const std::string& path, const OnnxOptions& options) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw OnnxError("cannot read ONNX model '" + path + "': it is a directory");
  }
  // Parsed straight from the file in blocks (protobuf's FileInputStream): no copy of the whole
  // file in memory before the parse, and an impossible first byte stops the read at once.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw OnnxError("cannot open ONNX model '" + path + "': " + std::strerror(errno));
  onnx::ModelProto model;
  bool parsed = false;
  bool empty = false;
  {
    google::protobuf::io::FileInputStream stream(fd);
    stream.SetCloseOnDelete(true);
    const void* first = nullptr;
    int size = 0;
    empty = !stream.Next(&first, &size);
    if (!empty) {
      stream.BackUp(size);
      parsed = model.ParseFromZeroCopyStream(&stream);
    }
    if (stream.GetErrno() != 0) {
      throw OnnxError("cannot read ONNX model '" + path + "': " + std::strerror(stream.GetErrno()));
    }
  }
  if (empty) throw OnnxError(path + ": empty file, not an ONNX model");
  if (!parsed)
    throw OnnxError(path + ": malformed or truncated ONNX model (protobuf parse failed)");
  std::string dir = std::filesystem::path(path).parent_path().string();
  return onnx_import::ImportModel(model, options, dir.empty() ? "." : dir, path);
}

ir::NDArray ReadOnnxTensor(const std::string& bytes, const std::string& source_name) {
  onnx::TensorProto tensor;
  if (!tensor.ParseFromString(bytes)) {
    throw OnnxError(source_name + ": malformed or truncated ONNX tensor");
  }
  std::string dir = std::filesystem::path(source_name).parent_path().string();
  return onnx_import::TensorFromProto(tensor, dir.empty() ? "." : dir, source_name);
}

std::string OnnxTensorName(const std::string& bytes) {
  onnx::TensorProto tensor;
  if (!tensor.ParseFromString(bytes)) return "";
  return tensor.name();
}

std::vector<std::string> SupportedOnnxOps() {
  return onnx_import::ConverterTable::Global().OpTypes();
}

}  // namespace relaypass::frontend
