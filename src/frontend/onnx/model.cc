// Reading models and tensors: the bytes through ONNX's generated protobuf classes, then the graph
// walk (importer.cc).
#include <onnx/onnx_pb.h>

#include <filesystem>
#include <fstream>
#include <sstream>

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
  std::ifstream in(path, std::ios::binary);
  if (!in) throw OnnxError("cannot open ONNX model '" + path + "'");
  std::ostringstream ss;
  ss << in.rdbuf();
  onnx::ModelProto model = ParseModel(ss.str(), path);
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
