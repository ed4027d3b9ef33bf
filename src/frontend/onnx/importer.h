// The graph walk (importer.cc) behind FromOnnxFile / FromOnnxBytes (model.cc).
#pragma once

#include <onnx/onnx_pb.h>

#include <string>

#include "relaypass/frontend/onnx.h"

namespace relaypass::frontend::onnx_import {

OnnxModel ImportModel(const onnx::ModelProto& model, const OnnxOptions& options,
                      const std::string& base_dir, const std::string& source);

}  // namespace relaypass::frontend::onnx_import
