// ONNX tensors and types as relaypass arrays and dtypes.
#pragma once

#include <onnx/onnx_pb.h>

#include <optional>
#include <string>

#include "relaypass/ir/dtype.h"
#include "relaypass/ir/ndarray.h"

namespace relaypass::frontend::onnx_import {

// The relaypass dtype of an ONNX TensorProto.DataType; nullopt for strings, complex and the
// other types relaypass has no arrays for.
std::optional<ir::DataType> DTypeFromOnnx(int elem_type);
// The ONNX name of an element type ("FLOAT", "STRING", ...), for messages.
std::string OnnxTypeName(int elem_type);

// The tensor's data (raw_data or the typed fields; external data is read relative to
// `base_dir`). Throws OnnxError naming `what` for an unsupported type or inconsistent size.
ir::NDArray TensorFromProto(const onnx::TensorProto& tensor, const std::string& base_dir,
                            const std::string& what);

}  // namespace relaypass::frontend::onnx_import
