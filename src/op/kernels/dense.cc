// nn.dense: out[.., n] = sum_k data[.., k] * weight[n, k]. Float types call BLAS GEMM; uint8/int8
// operands with out_dtype int32 the int8 GEMM (int8/int8_products.h); other integer types a
// reference loop in the output dtype.
#include <type_traits>

#include "gemm.h"
#include "int8/int8_products.h"
#include "kernel_util.h"
#include "kernels.h"

namespace relaypass::op::kernels {

Arrays Dense(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 2, "nn.dense");
  const ir::AttrsNode& a = AttrsOf(attrs, "nn.dense");
  return {DenseProduct(in[0], in[1], DTypeAttr(a, "out_dtype", in[0].dtype()), "nn.dense")};
}

NDArray DenseProduct(const NDArray& data_in, const NDArray& weight_in, DataType out_dtype,
                     const char* op) {
  const DataType compute = IsHalf(out_dtype) ? DataType::Float32() : out_dtype;
  if (data_in.ndim() < 1 || weight_in.ndim() != 2 ||
      data_in.shape().back() != weight_in.shape()[1]) {
    Fail(std::string(op) + ": data " + ShapeString(data_in.shape()) + " and weight " +
         ShapeString(weight_in.shape()) + " do not match (weight must be [units, " +
         (data_in.ndim() ? std::to_string(data_in.shape().back()) : std::string("?")) + "])");
  }
  if (Int8GemmKindFor(data_in.dtype(), weight_in.dtype(), out_dtype)) {
    return Int8Dense(data_in, weight_in);
  }
  const NDArray data = CastArray(data_in, compute);
  const NDArray weight = CastArray(weight_in, compute);
  const int64_t k = data.shape().back(), n = weight.shape()[0];
  const int64_t m = NumElements(Shape(data.shape().begin(), data.shape().end() - 1));
  Shape out_shape = data.shape();
  out_shape.back() = n;
  NDArray out = NDArray::Uninitialized(out_shape, compute);
  DispatchNumeric(compute, op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* x = data.data<T>();
    const T* w = weight.data<T>();
    T* y = out.mutable_data<T>();
    if constexpr (std::is_floating_point_v<T>) {
      Gemm(true, m, n, k, x, k, w, k, y, n);
    } else {
      for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < n; ++j) {
          T acc = 0;
          for (int64_t p = 0; p < k; ++p) acc = static_cast<T>(acc + x[i * k + p] * w[j * k + p]);
          y[i * n + j] = acc;
        }
      }
    }
  });
  return CastArray(out, out_dtype);
}

}  // namespace relaypass::op::kernels
