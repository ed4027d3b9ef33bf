// ONNX tensors and types as relaypass arrays and dtypes.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "relaypass/ir/dtype.h"
#include "relaypass/ir/ndarray.h"

namespace relaypass::frontend::onnx_import {

// The relaypass dtype of an ONNX TensorProto.DataType; nullopt for strings, complex and the
// other types relaypass has no arrays for.
std::optional<ir::DataType> DTypeFromOnnx(int64_t elem_type);
// The ONNX name of an element type ("FLOAT", "STRING", ...), for messages.
std::string OnnxTypeName(int64_t elem_type);

// The tensor's data (raw_data or the typed fields; external data is read relative to
// `base_dir`). Throws OnnxError naming `what` for an unsupported type or inconsistent size.
// The element count of an array of `shape` made at import; OnnxError naming `what` for a negative
// dimension or more than kMaxImportElements elements (checked before anything is allocated).
inline constexpr int64_t kMaxImportElements = int64_t{1} << 31;
int64_t CheckedElementCount(const std::vector<int64_t>& shape, const std::string& what);

// Element k of `array` as an int64 (exact for int64 arrays, truncated for the others); OnnxError
// naming `what` for NaN, infinities and values beyond int64's range.
int64_t Int64Element(const ir::NDArray& array, int64_t k, const std::string& what);

ir::NDArray TensorFromProto(const onnx::TensorProto& tensor, const std::string& base_dir,
                            const std::string& what);

}  // namespace relaypass::frontend::onnx_import
