// NumPy's .npy format (versions 1.0 to 3.0, C order), so tensors can be exchanged with NumPy,
// TVM or ONNX Runtime: numpy.load / numpy.save read and write the same files.
#pragma once

#include <string>
#include <string_view>

#include "relaypass/ir/ndarray.h"

namespace relaypass::tools {

/// The array in `bytes` (the whole content of a .npy file). Little- and big-endian data of
/// bool, int8..int64, uint8..uint64, float16, float32 and float64 are read; Fortran order,
/// object arrays and other dtypes are errors. `source_name` prefixes error messages.
ir::NDArray ParseNpy(std::string_view bytes, const std::string& source_name = "<npy>");
/// The array in the .npy file at `path`; relaypass::Error if it cannot be read or parsed.
ir::NDArray ReadNpy(const std::string& path);

/// The .npy bytes of `array` (format 1.0, or 2.0 for a header longer than 65535 bytes;
/// little-endian, C order, header padded to a multiple of 64 bytes as NumPy does).
/// relaypass::Error for a dtype NumPy has no type for (bfloat16, vector lanes).
std::string SerializeNpy(const ir::NDArray& array);
/// Writes SerializeNpy(array) to `path`; relaypass::Error if the file cannot be written.
void WriteNpy(const std::string& path, const ir::NDArray& array);

}  // namespace relaypass::tools
