// nn.correlation (topi.nn.correlation_nchw): output (n, q, i, j) is the mean over the channels
// and a kernel_size^2 patch of data1 at (i, j) * stride1 + max_displacement (padded
// coordinates) times (or the absolute difference with) data2's patch displaced by
// (q / grid - r, q % grid - r) * stride2, r = max_displacement / stride2; zero outside the data.
#include <cmath>
#include <limits>

#include "correlation.h"
#include "kernel_util.h"

namespace relaypass::op::kernels {

Arrays Correlation(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  const char* op = "nn.correlation";
  CheckInputs(in, 2, op);
  const ir::AttrsNode& a = AttrsOf(attrs, op);
  if (in[0].ndim() != 4 || in[0].shape() != in[1].shape()) {
    Fail("nn.correlation: data1 and data2 must be 4-D of one shape");
  }
  const int64_t k = a.get_int("kernel_size"), md = a.get_int("max_displacement");
  const int64_t s1 = a.get_int("stride1"), s2 = a.get_int("stride2");
  std::vector<int64_t> padding = a.get_ints("padding");
  if (padding.size() == 1) padding.push_back(padding[0]);
  if (k < 1 || k % 2 == 0 || md < 0 || s1 < 1 || s2 < 1 || padding.size() != 2 || padding[0] < 0 ||
      padding[1] < 0) {
    Fail("nn.correlation: invalid kernel_size, max_displacement, strides or padding");
  }
  const Shape& shape = in[0].shape();
  const int64_t batch = shape[0], channels = shape[1], h = shape[2], w = shape[3];
  int64_t border = 0, out_dims[2] = {0, 0};
  if (__builtin_add_overflow(md, (k - 1) / 2, &border)) Fail("nn.correlation: attributes overflow");
  for (int i = 0; i < 2; ++i) {
    int64_t span = 0;
    // padded extent - 2 * border, each term checked (attributes from text may be anything)
    if (__builtin_mul_overflow(padding[i], 2, &span) ||
        __builtin_add_overflow(span, shape[2 + i], &span) ||
        __builtin_sub_overflow(span, border, &span) ||
        __builtin_sub_overflow(span, border, &span)) {
      Fail("nn.correlation: attributes overflow");
    }
    if (span < 0) Fail("nn.correlation: the displacements exceed the padded input");
    out_dims[i] = span / s1 + (span % s1 != 0 ? 1 : 0);
  }
  const int64_t radius = md / s2, grid = 2 * radius + 1;  // md >= grid - 1: no overflow
  int64_t planes = 0;
  if (__builtin_mul_overflow(grid, grid, &planes)) Fail("nn.correlation: attributes overflow");
  const bool multiply = a.get_bool("is_multiply");
  NDArray out =
      NDArray::Uninitialized({batch, planes, out_dims[0], out_dims[1]}, DataType::Float(64));
  if (out.size() == 0) return {NDArray::Uninitialized(out.shape(), in[0].dtype())};
  const NDArray x1 = CastArray(in[0], DataType::Float(64));
  const NDArray x2 = CastArray(in[1], DataType::Float(64));
  const double* p1 = x1.data<double>();
  const double* p2 = x2.data<double>();
  // A value of a zero-padded map at padded coordinates (y, x); every coordinate here is at most
  // (out - 1) * stride1 + 2 * border + kernel_size, below the padded extent plus stride1.
  auto at = [&](const double* p, int64_t n, int64_t c, int64_t y, int64_t x) {
    y -= padding[0];
    x -= padding[1];
    return y < 0 || y >= h || x < 0 || x >= w ? 0.0 : p[((n * channels + c) * h + y) * w + x];
  };
  // TVM divides by kernel_size^2 * channels; with no channels that is its 0 / 0, NaN.
  const double scale =
      channels == 0
          ? std::numeric_limits<double>::quiet_NaN()
          : 1.0 / (static_cast<double>(k) * static_cast<double>(k) * static_cast<double>(channels));
  double* po = out.mutable_data<double>();
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t q = 0; q < planes; ++q) {
      const int64_t dy = (q / grid - radius) * s2, dx = (q % grid - radius) * s2;
      for (int64_t i = 0; i < out_dims[0]; ++i) {
        for (int64_t j = 0; j < out_dims[1]; ++j) {
          const int64_t y1 = i * s1 + md, x1c = j * s1 + md;
          double acc = 0;
          for (int64_t c = 0; c < channels; ++c) {
            for (int64_t r = 0; r < k; ++r) {
              for (int64_t t = 0; t < k; ++t) {
                const double va = at(p1, n, c, y1 + r, x1c + t);
                const double vb = at(p2, n, c, y1 + dy + r, x1c + dx + t);
                acc += multiply ? va * vb : std::abs(va - vb);
              }
            }
          }
          *po++ = acc * scale;
        }
      }
    }
  }
  return {CastArray(out, in[0].dtype())};
}

}  // namespace relaypass::op::kernels
