// nn.deformable_conv2d as TVM's topi (NCHW / OIHW): each tap (ky, kx) of output (y, x) samples
// input channel c bilinearly at (y * stride - pad_top + ky * dilation + offset_y, x * stride -
// pad_left + kx * dilation + offset_x), the offsets those of c's deformable group; a point
// outside [0, H) x [0, W) samples 0, and so does a corner beyond the data. The samples are then
// convolved with the weight (groups split the channels as conv2d's).
#include <cmath>
#include <string>

#include "kernel_util.h"
#include "kernels.h"

namespace relaypass::op::kernels {

namespace {

double Bilinear(const double* plane, int64_t h, int64_t w, double y, double x) {
  if (y < 0 || x < 0 || y >= static_cast<double>(h) || x >= static_cast<double>(w)) return 0;
  const double fy = std::floor(y), fx = std::floor(x);
  const int64_t y0 = static_cast<int64_t>(fy), x0 = static_cast<int64_t>(fx);
  const double ly = y - fy, lx = x - fx;
  double v = 0;
  for (int dy = 0; dy < 2; ++dy) {
    for (int dx = 0; dx < 2; ++dx) {
      const int64_t yy = y0 + dy, xx = x0 + dx;
      if (yy < h && xx < w) v += (dy ? ly : 1 - ly) * (dx ? lx : 1 - lx) * plane[yy * w + xx];
    }
  }
  return v;
}

}  // namespace

Arrays DeformableConv2D(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  const char* op = "nn.deformable_conv2d";
  CheckInputs(in, 3, op);
  const ir::AttrsNode& a = AttrsOf(attrs, op);
  if (a.get_string("data_layout") != "NCHW" || a.get_string("kernel_layout") != "OIHW") {
    Fail("nn.deformable_conv2d: only the NCHW data and OIHW kernel layouts are supported");
  }
  const std::vector<int64_t> strides = a.get_ints("strides");
  const std::vector<int64_t> dilation = a.get_ints("dilation");
  const std::vector<int64_t> pad = Padding4(a.get_ints("padding"), op);
  const int64_t groups = a.get_int("groups"), dgroups = a.get_int("deformable_groups");
  const NDArray x = CastArray(in[0], DataType::Float(64));
  const NDArray off = CastArray(in[1], DataType::Float(64));
  const NDArray wt = CastArray(in[2], DataType::Float(64));
  if (x.ndim() != 4 || off.ndim() != 4 || wt.ndim() != 4 || strides.size() != 2 ||
      dilation.size() != 2 || groups < 1 || dgroups < 1) {
    Fail("nn.deformable_conv2d: 4-D data, offset and weight and 2 strides and dilations expected");
  }
  const int64_t n = x.shape()[0], c = x.shape()[1], h = x.shape()[2], w = x.shape()[3];
  const int64_t oc = wt.shape()[0], icg = wt.shape()[1], kh = wt.shape()[2], kw = wt.shape()[3];
  const int64_t oh = off.shape()[2], ow = off.shape()[3];
  if (icg * groups != c || oc % groups != 0 || c % dgroups != 0 || off.shape()[0] != n ||
      off.shape()[1] != 2 * dgroups * kh * kw) {
    Fail("nn.deformable_conv2d: data, offset and weight shapes do not fit");
  }
  NDArray out = NDArray::Empty({n, oc, oh, ow}, DataType::Float(64));
  const int64_t per_dgroup = c / dgroups, oc_per_group = oc / groups;
  const double* px = x.data<double>();
  const double* po_ = off.data<double>();
  const double* pw = wt.data<double>();
  double* po = out.mutable_data<double>();
  std::vector<double> col(static_cast<size_t>(icg * kh * kw));
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t y = 0; y < oh; ++y) {
      for (int64_t xo = 0; xo < ow; ++xo) {
        for (int64_t g = 0; g < groups; ++g) {
          // The deformed samples of this group's input channels at (y, xo).
          for (int64_t ci = 0; ci < icg; ++ci) {
            const int64_t ch = g * icg + ci;
            const double* plane = px + (b * c + ch) * h * w;
            const int64_t dg = ch / per_dgroup;
            for (int64_t ky = 0; ky < kh; ++ky) {
              for (int64_t kx = 0; kx < kw; ++kx) {
                const int64_t oc_y = (dg * kh * kw + ky * kw + kx) * 2;
                const double dy = po_[((b * off.shape()[1] + oc_y) * oh + y) * ow + xo];
                const double dx = po_[((b * off.shape()[1] + oc_y + 1) * oh + y) * ow + xo];
                const double sy =
                    static_cast<double>(y * strides[0] - pad[0] + ky * dilation[0]) + dy;
                const double sx =
                    static_cast<double>(xo * strides[1] - pad[1] + kx * dilation[1]) + dx;
                col[(ci * kh + ky) * kw + kx] = Bilinear(plane, h, w, sy, sx);
              }
            }
          }
          for (int64_t o = g * oc_per_group; o < (g + 1) * oc_per_group; ++o) {
            const double* wo = pw + o * icg * kh * kw;
            double acc = 0;
            for (size_t k = 0; k < col.size(); ++k) acc += wo[k] * col[k];
            po[((b * oc + o) * oh + y) * ow + xo] = acc;
          }
        }
      }
    }
  }
  return {CastArray(out, DTypeAttr(a, "out_dtype", in[0].dtype()))};
}

}  // namespace relaypass::op::kernels
