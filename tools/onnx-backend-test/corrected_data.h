// Expected outputs that ONNX itself corrected after the 1.12 test data Debian ships.
//
// ONNX 1.12 generated test_cast_FLOAT_to_BFLOAT16 and the two CastLike forms by dropping the low
// 16 bits of each float32 (truncation). ONNX later regenerated them with rounding to nearest
// even: onnx/backend/test/case/node/cast.py on ONNX's main branch builds the expected output with
// ml_dtypes' bfloat16 conversion, which rounds to nearest even. That is also what TVM's bfloat16
// legalization and ONNX Runtime compute. The runner checks these tests against the corrected
// values, recomputed here from the test's own input, and reports them apart (docs/onnx.md).
#pragma once

#include <optional>

#include "relaypass/ir/ndarray.h"

namespace onnx_backend_test {

// The corrected expected output of a float32 -> bfloat16 cast whose shipped expected output
// `shipped` (bfloat16) is exactly the truncation of `input` (float32, the same number of
// elements): `input` rounded to nearest even. nullopt when the data are not that erratum.
std::optional<relaypass::ir::NDArray> CorrectedBFloat16Cast(const relaypass::ir::NDArray& input,
                                                            const relaypass::ir::NDArray& shipped);

}  // namespace onnx_backend_test
