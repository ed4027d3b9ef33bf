// A dense tensor value: dtype, shape and contiguous (row-major) storage shared between copies.
// Copies of an NDArray alias the same buffer; the IR never writes into a buffer once a Constant
// holds it.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "relaypass/ir/dtype.h"

namespace relaypass::ir {

using Shape = std::vector<int64_t>;

class NDArray {
 public:
  NDArray() = default;
  /// A zero-filled array.
  static NDArray Empty(const Shape& shape, DataType dtype);
  /// An array whose contents are unspecified, for writers that fill every element (the
  /// evaluator's kernels): skips Empty's zero fill.
  static NDArray Uninitialized(const Shape& shape, DataType dtype);
  /// A tensor holding a copy of `nbytes()` bytes from outside (a file, NumPy, a protobuf). A bool
  /// byte other than 0 is stored as 1: kernels read bool elements as C++ bool, for which any
  /// other byte is undefined behaviour.
  static NDArray FromBytes(const Shape& shape, DataType dtype, const void* bytes);
  template <typename T>
  static NDArray Scalar(T value, DataType dtype) {
    NDArray out = Empty({}, dtype);
    *out.mutable_data<T>() = value;
    return out;
  }

  bool defined() const { return storage_ != nullptr; }
  DataType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  int ndim() const { return static_cast<int>(shape_.size()); }
  int64_t size() const;  // number of elements
  size_t nbytes() const { return static_cast<size_t>(size()) * dtype_.bytes(); }

  const void* raw_data() const { return storage_.get(); }
  void* mutable_raw_data() { return storage_.get(); }
  template <typename T>
  const T* data() const {
    return static_cast<const T*>(raw_data());
  }
  template <typename T>
  T* mutable_data() {
    return static_cast<T*>(mutable_raw_data());
  }

  /// The element at `index` (row-major) converted to double; for printing and small checks.
  double GetAsDouble(int64_t index) const;
  /// A deep copy with its own buffer.
  NDArray Copy() const;
  /// Same bytes, dtype and shape.
  bool BitwiseEqual(const NDArray& other) const;

 private:
  std::shared_ptr<uint8_t[]> storage_;
  Shape shape_;
  DataType dtype_;
};

}  // namespace relaypass::ir
