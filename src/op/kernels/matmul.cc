// nn.matmul: a [.., M, K] (or [.., K, M] with transpose_a) times b [K, N] (or [N, K] with
// transpose_b), through nn.dense's product.
#include <cstring>

#include "kernel_util.h"
#include "kernels.h"

namespace relaypass::op::kernels {

namespace {

// `x` with its last two axes swapped, copied element by element.
NDArray SwapLastTwo(const NDArray& x, const char* op) {
  if (x.ndim() < 2) Fail(std::string(op) + ": a transposed operand needs rank >= 2");
  Shape shape = x.shape();
  const int64_t rows = shape[shape.size() - 2], cols = shape.back();
  std::swap(shape[shape.size() - 2], shape.back());
  NDArray out = NDArray::Uninitialized(shape, x.dtype());
  const size_t bytes = x.dtype().bytes();
  const int64_t batches = rows * cols == 0 ? 0 : x.size() / (rows * cols);
  const char* src = static_cast<const char*>(x.raw_data());
  char* dst = static_cast<char*>(out.mutable_raw_data());
  for (int64_t b = 0; b < batches; ++b) {
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < cols; ++c) {
        std::memcpy(dst + ((b * cols + c) * rows + r) * bytes,
                    src + ((b * rows + r) * cols + c) * bytes, bytes);
      }
    }
  }
  return out;
}

}  // namespace

Arrays Matmul(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 2, "nn.matmul");
  const ir::AttrsNode& a = AttrsOf(attrs, "nn.matmul");
  const NDArray data = a.get_bool("transpose_a") ? SwapLastTwo(in[0], "nn.matmul") : in[0];
  // DenseProduct takes the weight as [N, K]: b as given with transpose_b, else transposed.
  const NDArray weight = a.get_bool("transpose_b") ? in[1] : SwapLastTwo(in[1], "nn.matmul");
  return {DenseProduct(data, weight, DTypeAttr(a, "out_dtype", in[0].dtype()), "nn.matmul")};
}

}  // namespace relaypass::op::kernels
