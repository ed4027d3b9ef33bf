// Comparing evaluation results: numpy.allclose with per-dtype default tolerances, reporting the
// worst element (its index and both values) when they differ.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "relaypass/eval/value.h"
#include "relaypass/ir/ndarray.h"

namespace relaypass::eval {

struct Tolerance {
  double rtol = 0;
  double atol = 0;
};

/// float16/bfloat16: 1e-2 / 1e-2; float32: 1e-5 / 1e-5; float64: 1e-9 / 1e-12; integers and
/// bool: exact.
Tolerance DefaultTolerance(ir::DataType dtype);

struct CloseResult {
  bool ok = true;
  std::string message;       // empty when ok; else what differs, naming the worst element
  int64_t mismatches = 0;    // elements outside the tolerance
  int64_t worst_index = -1;  // row-major index of the element furthest outside (or closest)
  std::vector<int64_t> worst_coords;
  double actual = 0;  // the values at worst_index
  double expected = 0;
  double max_abs_diff = 0;
  explicit operator bool() const { return ok; }
};

/// |actual - expected| <= atol + rtol * |expected| for every element, as numpy.allclose: a NaN
/// differs from every number and, unless `equal_nan` (numpy's equal_nan=True), from NaN too; an
/// infinity matches only the infinity of the same sign, whatever the tolerance. Shapes and dtypes
/// must be equal. Without `tol`, the default of the dtype.
CloseResult AllClose(const ir::NDArray& actual, const ir::NDArray& expected,
                     std::optional<Tolerance> tol = std::nullopt, bool equal_nan = false);
/// Tensors compared as above; tuples field by field (the message names the field path).
CloseResult AllClose(const Value& actual, const Value& expected,
                     std::optional<Tolerance> tol = std::nullopt, bool equal_nan = false);

/// Element `index` (row-major) as a double, for every dtype including float16 and bfloat16.
double ElementAsDouble(const ir::NDArray& array, int64_t index);

}  // namespace relaypass::eval
