// vision.roi_align as TVM's CPU topi (the Caffe2 / torchvision aligned=False sampling): each
// output bin averages (or takes the largest of) grid_h x grid_w bilinear samples at the centres
// of its sub-bins; a sample beyond a pixel outside the data is 0; rois scale by spatial_scale,
// at least 1 x 1; grid = sample_ratio, or ceil(roi extent / pooled extent) when it is not
// positive.
#include <algorithm>
#include <cmath>
#include <string>

#include "kernel_util.h"
#include "kernels.h"

namespace relaypass::op::kernels {

namespace {

// The bilinear sample of plane [h, w] (row stride `ys`, column stride `xs`) at (y, x).
double Sample(const double* plane, int64_t h, int64_t w, int64_t ys, int64_t xs, double y,
              double x) {
  if (y < -1.0 || y > static_cast<double>(h) || x < -1.0 || x > static_cast<double>(w)) return 0;
  y = std::max(y, 0.0);
  x = std::max(x, 0.0);
  int64_t y0 = static_cast<int64_t>(y), x0 = static_cast<int64_t>(x), y1 = y0 + 1, x1 = x0 + 1;
  if (y0 >= h - 1) {
    y0 = y1 = h - 1;
    y = static_cast<double>(y0);
  }
  if (x0 >= w - 1) {
    x0 = x1 = w - 1;
    x = static_cast<double>(x0);
  }
  const double ly = y - static_cast<double>(y0), lx = x - static_cast<double>(x0);
  const double hy = 1 - ly, hx = 1 - lx;
  return hy * hx * plane[y0 * ys + x0 * xs] + hy * lx * plane[y0 * ys + x1 * xs] +
         ly * hx * plane[y1 * ys + x0 * xs] + ly * lx * plane[y1 * ys + x1 * xs];
}

}  // namespace

Arrays ROIAlign(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  const char* op = "vision.roi_align";
  CheckInputs(in, 2, op);
  const ir::AttrsNode& a = AttrsOf(attrs, op);
  const bool nhwc = a.get_string("layout") == "NHWC";
  const bool max_mode = a.get_string("mode") == "max";
  const std::vector<int64_t> pooled = a.get_ints("pooled_size");
  if (pooled.size() != 2 || pooled[0] < 1 || pooled[1] < 1) {
    Fail("vision.roi_align: pooled_size must be 2 positive values");
  }
  const double scale = a.get_double("spatial_scale");
  const int64_t ratio = a.get_int("sample_ratio");
  const NDArray x = CastArray(in[0], DataType::Float(64));
  const NDArray rois = CastArray(in[1], DataType::Float(64));
  if (x.ndim() != 4 || rois.ndim() != 2 || rois.shape()[1] != 5) {
    Fail("vision.roi_align: data must be 4-D and rois [num_roi, 5]");
  }
  const Shape& s = x.shape();
  const int64_t n = s[0], c = nhwc ? s[3] : s[1], h = nhwc ? s[1] : s[2], w = nhwc ? s[2] : s[3];
  // Element strides of a channel plane: rows, columns, and from one channel to the next.
  const int64_t ys = nhwc ? w * c : w, xs = nhwc ? c : 1, cs = nhwc ? 1 : h * w;
  const int64_t num = rois.shape()[0], ph = pooled[0], pw = pooled[1];
  NDArray out = NDArray::Uninitialized(nhwc ? Shape{num, ph, pw, c} : Shape{num, c, ph, pw},
                                       DataType::Float(64));
  if (out.size() == 0) return {CastArray(out, in[0].dtype())};
  if (h == 0 || w == 0) Fail("vision.roi_align: the data is empty");
  const double* px = x.data<double>();
  const double* pr = rois.data<double>();
  double* po = out.mutable_data<double>();
  for (int64_t r = 0; r < num; ++r) {
    const double* roi = pr + r * 5;
    const double index = roi[0];
    if (!(index >= 0 && index < static_cast<double>(n))) {
      Fail("vision.roi_align: roi " + std::to_string(r) + " names batch " + std::to_string(index) +
           " of " + std::to_string(n));
    }
    const int64_t b = static_cast<int64_t>(index);
    const double x1 = roi[1] * scale, y1 = roi[2] * scale;
    const double roi_w = std::max(roi[3] * scale - x1, 1.0);
    const double roi_h = std::max(roi[4] * scale - y1, 1.0);
    const double bin_h = roi_h / static_cast<double>(ph), bin_w = roi_w / static_cast<double>(pw);
    const double grid_hd = ratio > 0 ? static_cast<double>(ratio) : std::ceil(bin_h);
    const double grid_wd = ratio > 0 ? static_cast<double>(ratio) : std::ceil(bin_w);
    if (!(grid_hd * grid_wd <= 1e9)) Fail("vision.roi_align: too many samples per bin");
    const int64_t grid_h = static_cast<int64_t>(grid_hd), grid_w = static_cast<int64_t>(grid_wd);
    const double count = std::max<double>(static_cast<double>(grid_h * grid_w), 1.0);
    for (int64_t ch = 0; ch < c; ++ch) {
      const double* plane = px + b * h * w * c + ch * cs;
      for (int64_t i = 0; i < ph; ++i) {
        for (int64_t j = 0; j < pw; ++j) {
          double acc = max_mode ? -3.402823e38 : 0.0;
          for (int64_t iy = 0; iy < grid_h; ++iy) {
            const double y = y1 + static_cast<double>(i) * bin_h +
                             (static_cast<double>(iy) + 0.5) * bin_h / static_cast<double>(grid_h);
            for (int64_t ix = 0; ix < grid_w; ++ix) {
              const double xx =
                  x1 + static_cast<double>(j) * bin_w +
                  (static_cast<double>(ix) + 0.5) * bin_w / static_cast<double>(grid_w);
              const double v = Sample(plane, h, w, ys, xs, y, xx);
              acc = max_mode ? std::max(acc, v) : acc + v;
            }
          }
          const int64_t at =
              nhwc ? ((r * ph + i) * pw + j) * c + ch : ((r * c + ch) * ph + i) * pw + j;
          po[at] = max_mode ? acc : acc / count;
        }
      }
    }
  }
  return {CastArray(out, in[0].dtype())};
}

}  // namespace relaypass::op::kernels
