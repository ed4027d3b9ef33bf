// How a rank-0 constant prints inline: `3`, `3i64`, `3i16`, `2f`, `2f64`, `2f16`, `True`
// (relay_semantics.md 1.5, TVM's support/scalars.cc).
#pragma once

#include <string>

#include "relaypass/ir/ndarray.h"

namespace relaypass::text {

// True for rank-0 arrays of int16/int32/int64/float16/float32/float64/bool; every other constant
// prints as a `meta[relay.Constant][i]` reference.
bool IsSimpleScalar(const ir::NDArray& data);

// Appends the inline text of a simple scalar. Numbers use C++ ostream's default formatting
// (6 significant digits), as TVM does: `1e-05f`, `0.333333f`, `inff`.
void AppendScalarText(const ir::NDArray& data, std::string& out);

}  // namespace relaypass::text
