// image.grid_sample as PyTorch's grid_sample (which ONNX's GridSample follows): NCHW data with a
// grid [N, 2, H', W'] (bilinear, nearest or bicubic) or NCDHW data with a grid [N, 3, D', H', W']
// (trilinear or nearest, as TVM's topi 3-D grid_sample); zeros, border or reflection padding.
#include <algorithm>
#include <cmath>
#include <string>

#include "kernel_util.h"
#include "kernels.h"

namespace relaypass::op::kernels {

namespace {

// PyTorch's grid_sampler_compute_source_index pieces: unnormalise, then clip or reflect.
double Unnormalize(double c, int64_t size, bool align) {
  return align ? (c + 1) / 2 * (size - 1) : ((c + 1) * size - 1) / 2;
}
double Reflect(double c, double twice_low, double twice_high) {
  if (twice_low == twice_high) return 0;
  const double lo = twice_low / 2, span = (twice_high - twice_low) / 2;
  c = std::abs(c - lo);
  const double extra = std::fmod(c, span);
  const int64_t flips = static_cast<int64_t>(std::floor(c / span));
  return flips % 2 == 0 ? extra + lo : span - extra + lo;
}
double Pad(double c, int64_t size, const std::string& mode, bool align) {
  if (mode == "border") return std::clamp(c, 0.0, size - 1.0);
  if (mode == "reflection") {
    c = align ? Reflect(c, 0, 2.0 * (size - 1)) : Reflect(c, -1, 2.0 * size - 1);
    return std::clamp(c, 0.0, size - 1.0);
  }
  return c;
}
double CubicA(double t, double a) {
  t = std::abs(t);
  if (t <= 1) return ((a + 2) * t - (a + 3)) * t * t + 1;
  if (t < 2) return ((a * t - 5 * a) * t + 8 * a) * t - 4 * a;
  return 0;
}

// NCHW data, grid [N, 2, H', W'] (x then y): bilinear, nearest (half to even) or bicubic
// (A = -0.75) sampling.
NDArray GridSample2D(const Arrays& in, const ir::AttrsNode& a) {
  const std::string& method = a.get_string("method");
  const std::string& padding = a.get_string("padding_mode");
  const bool align = a.get_bool("align_corners");
  const NDArray x = CastArray(in[0], DataType::Float(64));
  const NDArray g = CastArray(in[1], DataType::Float(64));
  if (x.ndim() != 4 || g.ndim() != 4 || g.shape()[1] != 2 || g.shape()[0] != x.shape()[0]) {
    Fail("image.grid_sample: data [N, C, H, W] and grid [N, 2, H', W'] expected");
  }
  const int64_t n = x.shape()[0], c = x.shape()[1], h = x.shape()[2], w = x.shape()[3];
  const int64_t oh = g.shape()[2], ow = g.shape()[3];
  if ((h == 0 || w == 0) && n * c * oh * ow > 0) Fail("image.grid_sample: the input is empty");
  NDArray out = NDArray::Uninitialized({n, c, oh, ow}, DataType::Float(64));
  const double* px = x.data<double>();
  const double* pg = g.data<double>();
  double* po = out.mutable_data<double>();
  auto at = [&](const double* plane, int64_t yy, int64_t xx) {
    if (padding != "zeros") {
      // border / reflection taps of bicubic: bounded coordinates
      xx = static_cast<int64_t>(Pad(static_cast<double>(xx), w, padding, align));
      yy = static_cast<int64_t>(Pad(static_cast<double>(yy), h, padding, align));
    }
    return yy >= 0 && yy < h && xx >= 0 && xx < w ? plane[yy * w + xx] : 0.0;
  };
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t i = 0; i < oh; ++i) {
      for (int64_t j = 0; j < ow; ++j) {
        double gx = Unnormalize(pg[((b * 2 + 0) * oh + i) * ow + j], w, align);
        double gy = Unnormalize(pg[((b * 2 + 1) * oh + i) * ow + j], h, align);
        if (method != "bicubic") {
          gx = Pad(gx, w, padding, align);
          gy = Pad(gy, h, padding, align);
        }
        for (int64_t ch = 0; ch < c; ++ch) {
          const double* plane = px + (b * c + ch) * h * w;
          double v = 0;
          if (method == "nearest") {
            v = at(plane, static_cast<int64_t>(std::nearbyint(gy)),
                   static_cast<int64_t>(std::nearbyint(gx)));
          } else if (method == "bilinear") {
            const double fx = std::floor(gx), fy = std::floor(gy);
            const double tx = gx - fx, ty = gy - fy;
            const int64_t x0 = static_cast<int64_t>(fx), y0 = static_cast<int64_t>(fy);
            auto tap = [&](int64_t yy, int64_t xx) {
              return yy >= 0 && yy < h && xx >= 0 && xx < w ? plane[yy * w + xx] : 0.0;
            };
            v = tap(y0, x0) * (1 - tx) * (1 - ty) + tap(y0, x0 + 1) * tx * (1 - ty) +
                tap(y0 + 1, x0) * (1 - tx) * ty + tap(y0 + 1, x0 + 1) * tx * ty;
          } else {
            const double fx = std::floor(gx), fy = std::floor(gy);
            const double tx = gx - fx, ty = gy - fy;
            for (int dy = -1; dy <= 2; ++dy) {
              for (int dx = -1; dx <= 2; ++dx) {
                v += at(plane, static_cast<int64_t>(fy) + dy, static_cast<int64_t>(fx) + dx) *
                     CubicA(tx - dx, -0.75) * CubicA(ty - dy, -0.75);
              }
            }
          }
          po[((b * c + ch) * oh + i) * ow + j] = v;
        }
      }
    }
  }
  return CastArray(out, in[0].dtype());
}

// NCDHW data, grid [N, 3, D', H', W'] (x, y, z): trilinear or nearest sampling.
NDArray GridSample3D(const Arrays& in, const ir::AttrsNode& a) {
  const std::string& method = a.get_string("method");
  const std::string& padding = a.get_string("padding_mode");
  const bool align = a.get_bool("align_corners");
  if (method != "bilinear" && method != "nearest") {
    Fail("image.grid_sample: 3-D sampling is bilinear (trilinear) or nearest, got " + method);
  }
  const NDArray x = CastArray(in[0], DataType::Float(64));
  const NDArray g = CastArray(in[1], DataType::Float(64));
  if (x.ndim() != 5 || g.ndim() != 5 || g.shape()[1] != 3 || g.shape()[0] != x.shape()[0]) {
    Fail("image.grid_sample: data [N, C, D, H, W] and grid [N, 3, D', H', W'] expected");
  }
  const int64_t n = x.shape()[0], c = x.shape()[1];
  const int64_t d = x.shape()[2], h = x.shape()[3], w = x.shape()[4];
  const int64_t od = g.shape()[2], oh = g.shape()[3], ow = g.shape()[4];
  NDArray out = NDArray::Uninitialized({n, c, od, oh, ow}, DataType::Float(64));
  if ((d == 0 || h == 0 || w == 0) && out.size() > 0) Fail("image.grid_sample: the input is empty");
  const int64_t points = od * oh * ow, volume = d * h * w;
  const double* px = x.data<double>();
  const double* pg = g.data<double>();
  double* po = out.mutable_data<double>();
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t p = 0; p < points; ++p) {
      const double* gp = pg + b * 3 * points + p;
      const double gx = Pad(Unnormalize(gp[0], w, align), w, padding, align);
      const double gy = Pad(Unnormalize(gp[points], h, align), h, padding, align);
      const double gz = Pad(Unnormalize(gp[2 * points], d, align), d, padding, align);
      for (int64_t ch = 0; ch < c; ++ch) {
        const double* vol = px + (b * c + ch) * volume;
        auto tap = [&](int64_t zz, int64_t yy, int64_t xx) {
          return zz >= 0 && zz < d && yy >= 0 && yy < h && xx >= 0 && xx < w
                     ? vol[(zz * h + yy) * w + xx]
                     : 0.0;
        };
        double v = 0;
        if (method == "nearest") {
          v = tap(static_cast<int64_t>(std::nearbyint(gz)),
                  static_cast<int64_t>(std::nearbyint(gy)),
                  static_cast<int64_t>(std::nearbyint(gx)));
        } else {
          const double fx = std::floor(gx), fy = std::floor(gy), fz = std::floor(gz);
          const double t[3] = {gx - fx, gy - fy, gz - fz};
          const int64_t x0 = static_cast<int64_t>(fx), y0 = static_cast<int64_t>(fy),
                        z0 = static_cast<int64_t>(fz);
          for (int k = 0; k < 8; ++k) {
            const int dx = k & 1, dy = (k >> 1) & 1, dz = (k >> 2) & 1;
            const double weight =
                (dx ? t[0] : 1 - t[0]) * (dy ? t[1] : 1 - t[1]) * (dz ? t[2] : 1 - t[2]);
            v += weight * tap(z0 + dz, y0 + dy, x0 + dx);
          }
        }
        po[(b * c + ch) * points + p] = v;
      }
    }
  }
  return CastArray(out, in[0].dtype());
}

}  // namespace

Arrays GridSample(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 2, "image.grid_sample");
  const ir::AttrsNode& a = AttrsOf(attrs, "image.grid_sample");
  const std::string& layout = a.get_string("layout");
  if (layout == "NCHW") return {GridSample2D(in, a)};
  if (layout == "NCDHW") return {GridSample3D(in, a)};
  Fail("image.grid_sample: only NCHW and NCDHW are supported, got " + layout);
}

}  // namespace relaypass::op::kernels
