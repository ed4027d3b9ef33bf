// nn.dense: out[.., n] = sum_k data[.., k] * weight[n, k]. Float types call BLAS GEMM; integer
// types (e.g. int8 data with out_dtype int32) use a reference loop in the output dtype.
#include <type_traits>

#include "gemm.h"
#include "kernel_util.h"
#include "kernels.h"

namespace relaypass::op::kernels {

Arrays Dense(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 2, "nn.dense");
  const ir::AttrsNode& a = AttrsOf(attrs, "nn.dense");
  const DataType out_dtype = DTypeAttr(a, "out_dtype", in[0].dtype());
  const DataType compute = IsHalf(out_dtype) ? DataType::Float32() : out_dtype;
  if (in[0].ndim() < 1 || in[1].ndim() != 2 || in[0].shape().back() != in[1].shape()[1]) {
    Fail("nn.dense: data " + ShapeString(in[0].shape()) + " and weight " +
         ShapeString(in[1].shape()) + " do not match (weight must be [units, " +
         (in[0].ndim() ? std::to_string(in[0].shape().back()) : std::string("?")) + "])");
  }
  const NDArray data = CastArray(in[0], compute);
  const NDArray weight = CastArray(in[1], compute);
  const int64_t k = data.shape().back(), n = weight.shape()[0];
  const int64_t m = NumElements(Shape(data.shape().begin(), data.shape().end() - 1));
  Shape out_shape = data.shape();
  out_shape.back() = n;
  NDArray out = NDArray::Uninitialized(out_shape, compute);
  DispatchNumeric(compute, "nn.dense", [&](auto tag) {
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
  return {CastArray(out, out_dtype)};
}

}  // namespace relaypass::op::kernels
