// Sparse kernels: sparse_to_dense and sparse_fill_empty_rows (TVM's topi definitions). Indices
// come from run-time values, so every one is checked against the extents it indexes.
#include <cstring>
#include <string>

#include "kernel_util.h"
#include "kernels.h"
#include "relaypass/ir/tensor_size.h"

namespace relaypass::op::kernels {

namespace {

// The elements of an integer tensor as int64; `what` names it in the error for other dtypes.
std::vector<int64_t> Int64Values(const NDArray& t, const std::string& op, const char* what) {
  if (!t.dtype().is_int() && !t.dtype().is_uint()) {
    Fail(op + ": " + what + " must be integers, got " + t.dtype().ToString());
  }
  const NDArray v = CastArray(t, DataType::Int64());
  return std::vector<int64_t>(v.data<int64_t>(), v.data<int64_t>() + v.size());
}

int64_t AddOrFail(int64_t a, int64_t b, const std::string& op) {
  int64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) Fail(op + ": the output's size overflows int64");
  return sum;
}

}  // namespace

// out = default everywhere, then out[indices[i]] = values[i] (values[0]-style scalar values
// fill every listed place). Indices of rank 0 or 1 address a 1-D output; rank 2 (n, d) ones a
// d-D output.
Arrays SparseToDense(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  const std::string op = "sparse_to_dense";
  CheckInputs(in, 3, op.c_str());
  const Shape out_shape = AttrsOf(attrs, op.c_str()).get_ints("output_shape");
  for (int64_t d : out_shape) {
    if (d < 0) Fail(op + ": output_shape " + ShapeString(out_shape) + " has a negative extent");
  }
  const NDArray& indices = in[0];
  const NDArray& values = in[1];
  if (indices.ndim() > 2) Fail(op + ": sparse_indices must be 0-D, 1-D or 2-D");
  if (values.ndim() > 1) Fail(op + ": sparse_values must be 0-D or 1-D");
  if (in[2].size() != 1) Fail(op + ": default_value must be a scalar");
  const std::vector<int64_t> idx = Int64Values(indices, op, "sparse_indices");
  const int64_t n = indices.ndim() == 0 ? 1 : indices.shape()[0];
  const int64_t d = indices.ndim() == 2 ? indices.shape()[1] : 1;
  if (static_cast<int64_t>(out_shape.size()) != d) {
    Fail(op + ": sparse_indices " + ShapeString(indices.shape()) +
         " do not address an output of "
         "shape " +
         ShapeString(out_shape));
  }
  if (values.ndim() == 1 && values.shape()[0] != n) {
    Fail(op + ": " + std::to_string(values.shape()[0]) + " sparse_values for " + std::to_string(n) +
         " indices");
  }
  const DataType dtype = values.dtype();
  const NDArray fill = CastArray(in[2], dtype);
  NDArray out = NDArray::Uninitialized(out_shape, dtype);
  const size_t eb = dtype.bytes();
  auto* po = static_cast<uint8_t*>(out.mutable_raw_data());
  for (int64_t i = 0; i < out.size(); ++i) std::memcpy(po + i * eb, fill.raw_data(), eb);
  const Shape strides = Strides(out_shape);
  const auto* pv = static_cast<const uint8_t*>(values.raw_data());
  for (int64_t i = 0; i < n; ++i) {
    int64_t offset = 0;
    for (int64_t k = 0; k < d; ++k) {
      const int64_t c = idx[static_cast<size_t>(i * d + k)];
      if (c < 0 || c >= out_shape[static_cast<size_t>(k)]) {
        Fail(op + ": index " + std::to_string(c) + " is out of range for output shape " +
             ShapeString(out_shape));
      }
      offset += c * strides[static_cast<size_t>(k)];
    }
    std::memcpy(po + offset * eb, pv + (values.ndim() == 1 ? i : 0) * eb, eb);
  }
  return {out};
}

// TVM's sparse_fill_empty_rows: the entries in order, a (row, 0, ..., 0) entry of
// default_value[0] inserted for each row that no entry from the previous entry's row on reaches,
// and a per-row indicator of the inserted rows. Results are int64, as TVM's relation says.
Arrays SparseFillEmptyRows(const Arrays& in, const ir::Attrs&, const ir::Type&) {
  const std::string op = "sparse_fill_empty_rows";
  CheckInputs(in, 4, op.c_str());
  const NDArray& indices = in[0];
  if (indices.ndim() != 2) Fail(op + ": sparse_indices must be 2-D");
  const int64_t n = indices.shape()[0];
  const int64_t d = indices.shape()[1];
  if (in[1].ndim() != 1 || in[1].shape()[0] != n) {
    Fail(op + ": sparse_values must be 1-D with one value per index row");
  }
  const std::vector<int64_t> dense_shape = Int64Values(in[2], op, "dense_shape");
  if (in[2].ndim() != 1 || dense_shape.empty()) Fail(op + ": dense_shape must be a 1-D tensor");
  if (in[3].size() < 1) Fail(op + ": default_value must hold a value");
  const int64_t rows = dense_shape[0];
  if (rows < 0) Fail(op + ": dense_shape[0] is negative");
  const std::vector<int64_t> idx = Int64Values(indices, op, "sparse_indices");
  if (d < 1 && (n > 0 || rows > 0)) Fail(op + ": sparse_indices must have at least one column");
  // The number of inserted entries, as the loop below inserts them.
  int64_t total = n;
  int64_t current = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t row = idx[static_cast<size_t>(i * d)];
    if (row < 0 || row >= rows) {
      Fail(op + ": row index " + std::to_string(row) + " is out of range for " +
           std::to_string(rows) + " rows");
    }
    if (row > current) total = AddOrFail(total, row - current, op);
    current = row + 1;
  }
  if (current < rows) total = AddOrFail(total, rows - current, op);
  if (!ir::ElementCount({total, d})) Fail(op + ": the output's size overflows int64");

  NDArray new_indices = NDArray::Empty({total, d}, DataType::Int64());
  NDArray new_values = NDArray::Uninitialized({total}, DataType::Int64());
  NDArray empty_rows = NDArray::Empty({rows}, DataType::Int64());
  const NDArray values = CastArray(in[1], DataType::Int64());
  const int64_t fill = CastArray(in[3], DataType::Int64()).data<int64_t>()[0];
  int64_t* pi = new_indices.mutable_data<int64_t>();
  int64_t* pv = new_values.mutable_data<int64_t>();
  int64_t* pe = empty_rows.mutable_data<int64_t>();
  int64_t out = 0;
  auto insert_empty_rows = [&](int64_t from, int64_t to) {
    for (int64_t r = from; r < to; ++r, ++out) {
      pi[out * d] = r;  // the other columns stay 0
      pv[out] = fill;
      pe[r] = 1;
    }
  };
  current = 0;
  for (int64_t i = 0; i < n; ++i, ++out) {
    const int64_t row = idx[static_cast<size_t>(i * d)];
    insert_empty_rows(current, row);
    std::copy(idx.begin() + i * d, idx.begin() + (i + 1) * d, pi + out * d);
    pv[out] = values.data<int64_t>()[i];
    pe[row] = 0;
    current = row + 1;
  }
  insert_empty_rows(current, rows);
  return {new_indices, new_values, empty_rows};
}

}  // namespace relaypass::op::kernels
