// nn.conv2d_backward_weight on NCHW gradient and data (OIHW result):
// dw[k, c, r, s] = sum over n, p, q of grad[n, k, p, q] *
//                  data[n, g * C/groups + c, p * sh - pt + r * dh, q * sw - pl + s * dw]
// (zero outside the data), g the group of output channel k; accumulated in double.
#include "conv_backward_weight.h"
#include "kernel_util.h"

namespace relaypass::op::kernels {

Arrays Conv2DBackwardWeight(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  const char* op = "nn.conv2d_backward_weight";
  CheckInputs(in, 2, op);
  const ir::AttrsNode& a = AttrsOf(attrs, op);
  if (in[0].ndim() != 4 || in[1].ndim() != 4 || in[0].shape()[0] != in[1].shape()[0]) {
    Fail("nn.conv2d_backward_weight: grad and data must be 4-D (NCHW) of one batch, got " +
         ShapeString(in[0].shape()) + " and " + ShapeString(in[1].shape()));
  }
  const std::vector<int64_t> kernel = a.get_ints("kernel_size");
  const std::vector<int64_t> strides = a.get_ints("strides");
  const std::vector<int64_t> dilation = a.get_ints("dilation");
  const std::vector<int64_t> pad = Padding4(a.get_ints("padding"), op);
  if (kernel.size() != 2 || strides.size() != 2 || dilation.size() != 2) {
    Fail("nn.conv2d_backward_weight: kernel_size, strides and dilation need 2 values");
  }
  for (int i = 0; i < 2; ++i) {
    if (kernel[i] < 1 || strides[i] < 1 || dilation[i] < 1) {
      Fail("nn.conv2d_backward_weight: kernel_size, strides and dilation must be positive");
    }
  }
  for (int64_t p : pad) {
    if (p < 0) Fail("nn.conv2d_backward_weight: padding must not be negative");
  }
  const Shape& gs = in[0].shape();
  const Shape& ds = in[1].shape();
  const int64_t batch = gs[0], out_c = gs[1], oh = gs[2], ow = gs[3];
  const int64_t in_c = ds[1], h = ds[2], w = ds[3];
  const int64_t groups = a.get_int("groups");
  if (groups < 1 || in_c % groups != 0 || out_c % groups != 0) {
    Fail("nn.conv2d_backward_weight: groups must divide both channel counts");
  }
  const int64_t cg = in_c / groups, kg = out_c / groups;
  // The farthest data index a tap reaches, before padding, must be an int64 (attrs from text may
  // be anything).
  for (int i = 0; i < 2; ++i) {
    int64_t reach = 0, tap = 0;
    const int64_t out_extent = gs[2 + i];
    if (out_extent > 0 && (__builtin_mul_overflow(out_extent - 1, strides[i], &reach) ||
                           __builtin_mul_overflow(kernel[i] - 1, dilation[i], &tap) ||
                           __builtin_add_overflow(reach, tap, &reach))) {
      Fail("nn.conv2d_backward_weight: strides and dilation reach beyond int64");
    }
  }
  const DataType out_dtype = DTypeAttr(a, "out_dtype", in[0].dtype());
  NDArray dw = NDArray::Empty({out_c, cg, kernel[0], kernel[1]}, DataType::Float(64));
  if (dw.size() == 0) return {NDArray::Empty(dw.shape(), out_dtype)};
  const NDArray grad = CastArray(in[0], DataType::Float(64));
  const NDArray data = CastArray(in[1], DataType::Float(64));
  const double* pg = grad.data<double>();
  const double* px = data.data<double>();
  double* pw = dw.mutable_data<double>();
  for (int64_t k = 0; k < out_c; ++k) {
    const int64_t first_c = (k / kg) * cg;
    for (int64_t c = 0; c < cg; ++c) {
      for (int64_t r = 0; r < kernel[0]; ++r) {
        for (int64_t s = 0; s < kernel[1]; ++s) {
          double acc = 0;
          for (int64_t n = 0; n < batch; ++n) {
            const double* g = pg + (n * out_c + k) * oh * ow;
            const double* x = px + (n * in_c + first_c + c) * h * w;
            for (int64_t p = 0; p < oh; ++p) {
              const int64_t y = p * strides[0] - pad[0] + r * dilation[0];
              if (y < 0 || y >= h) continue;
              for (int64_t q = 0; q < ow; ++q) {
                const int64_t xx = q * strides[1] - pad[1] + s * dilation[1];
                if (xx >= 0 && xx < w) acc += g[p * ow + q] * x[y * w + xx];
              }
            }
          }
          pw[((k * cg + c) * kernel[0] + r) * kernel[1] + s] = acc;
        }
      }
    }
  }
  return {CastArray(dw, out_dtype)};
}

}  // namespace relaypass::op::kernels
