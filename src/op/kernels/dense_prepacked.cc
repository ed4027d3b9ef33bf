// nn.dense on PackedSgemm with the weight prepacked (relaypass/op/dense_prepacked.h).
#include "relaypass/op/dense_prepacked.h"

#include <string>

#include "kernel_util.h"
#include "packed_sgemm.h"
#include "prepacked_panels.h"

namespace relaypass::op {

struct PrepackedDenseWeight {
  PrepackedDenseWeight(int64_t units, int64_t k, const float* w) : panels(units, k, w, k) {}
  kernels::PrepackedPanels panels;
};

std::shared_ptr<const PrepackedDenseWeight> PrepackDenseWeight(const ir::NDArray& weight) {
  using namespace kernels;  // NOLINT
  if (!PackedSgemmAvailable() || weight.dtype() != DataType::Float32() || weight.ndim() != 2 ||
      weight.shape()[0] <= 0 || weight.shape()[1] <= 0) {
    return nullptr;
  }
  return std::make_shared<const PrepackedDenseWeight>(weight.shape()[0], weight.shape()[1],
                                                      weight.data<float>());
}

ir::NDArray DenseWithPrepackedWeight(const ir::NDArray& data, const PrepackedDenseWeight& weight) {
  using namespace kernels;  // NOLINT
  const int64_t n = weight.panels.columns(), k = weight.panels.depth();
  if (data.dtype() != DataType::Float32() || data.ndim() < 1 || data.shape().back() != k) {
    Fail("nn.dense: data " + ShapeString(data.shape()) + " (" + data.dtype().ToString() +
         ") does not match the weight [" + std::to_string(n) + ", " + std::to_string(k) +
         "] (float32 data [.., " + std::to_string(k) + "] expected)");
  }
  const int64_t m = NumElements(Shape(data.shape().begin(), data.shape().end() - 1));
  Shape out_shape = data.shape();
  out_shape.back() = n;
  NDArray out = NDArray::Uninitialized(out_shape, DataType::Float32());
  if (m == 0) return out;
  const PackedA a(m, k, data.data<float>(), k);
  PackedSgemm(a, weight.panels, n, out.mutable_data<float>(), n, nullptr, 0, 0);
  return out;
}

}  // namespace relaypass::op
