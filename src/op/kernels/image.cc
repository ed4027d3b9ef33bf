// image.resize2d, image.resize3d, nn.upsampling and nn.upsampling3d (TVM's topi.image.resize2d/3d:
// coordinate transformation modes, nearest rounding methods, linear and cubic), nn.depth_to_space
// and nn.space_to_depth; NCHW (NCDHW).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "kernel_util.h"
#include "kernels.h"

namespace relaypass::op::kernels {

namespace {

struct ResizeSpec {
  std::string method;  // nearest_neighbor, linear, cubic
  std::string coord;
  std::string rounding;
  double cubic_alpha = -0.5;
  bool cubic_exclude = false;
  double extrapolation = 0;
  std::vector<double> roi = {0, 0, 0, 0};  // start_h, start_w, end_h, end_w
};

// The input coordinate of output index x (TVM's get_inx).
double InputCoord(int64_t x, int64_t in, int64_t out, const std::string& coord, double start,
                  double end) {
  const double scale = static_cast<double>(in) / static_cast<double>(out);
  if (coord == "half_pixel") return (x + 0.5) * scale - 0.5;
  if (coord == "align_corners") return out > 1 ? x * (in - 1.0) / (out - 1.0) : 0.0;
  if (coord == "asymmetric") return x * scale;
  if (coord == "pytorch_half_pixel") return out > 1 ? (x + 0.5) * scale - 0.5 : 0.0;
  if (coord == "tf_half_pixel_for_nn") return (x + 0.5) * scale;
  if (coord == "tf_crop_and_resize") {
    return out > 1 ? start * (in - 1) + x * (end - start) * (in - 1) / (out - 1)
                   : 0.5 * (start + end) * (in - 1);
  }
  Fail("image.resize2d: unsupported coordinate_transformation_mode \"" + coord + "\"");
}

int64_t Nearest(double v, const std::string& rounding) {
  if (rounding == "round") return static_cast<int64_t>(std::round(v));
  if (rounding == "round_prefer_floor") return static_cast<int64_t>(std::ceil(v - 0.5));
  if (rounding == "round_prefer_ceil") return static_cast<int64_t>(std::floor(v + 0.5));
  if (rounding == "floor") return static_cast<int64_t>(std::floor(v + 1e-5));
  if (rounding == "ceil") return static_cast<int64_t>(std::ceil(v - 1e-5));
  Fail("image.resize2d: unsupported rounding_method \"" + rounding + "\"");
}

double CubicWeight(double t, double a) {
  t = std::abs(t);
  if (t <= 1) return ((a + 2) * t - (a + 3)) * t * t + 1;
  if (t < 2) return ((a * t - 5 * a) * t + 8 * a) * t - 4 * a;
  return 0;
}

// Taps (index, weight) along one axis for output index x.
struct Taps {
  std::vector<int64_t> index;
  std::vector<double> weight;
  bool outside = false;  // tf_crop_and_resize beyond the input: extrapolation_value
};

Taps AxisTaps(int64_t x, int64_t in, int64_t out, const ResizeSpec& s, double start, double end) {
  Taps t;
  const double c = InputCoord(x, in, out, s.coord, start, end);
  // (also a NaN coordinate, from a NaN box: no index to round it to)
  if (s.coord == "tf_crop_and_resize" && !(c >= 0 && c <= in - 1)) {
    t.outside = true;
    return t;
  }
  auto clamp = [&](int64_t i) { return std::clamp<int64_t>(i, 0, in - 1); };
  if (s.method == "nearest_neighbor") {
    t.index = {clamp(Nearest(c, s.rounding))};
    t.weight = {1.0};
  } else if (s.method == "linear") {
    const double f = std::floor(c);
    const double frac = c - f;
    t.index = {clamp(static_cast<int64_t>(f)), clamp(static_cast<int64_t>(f) + 1)};
    t.weight = {1 - frac, frac};
  } else {
    const double f = std::floor(c);
    const double frac = c - f;
    double sum = 0;
    for (int k = -1; k <= 2; ++k) {
      const int64_t i = static_cast<int64_t>(f) + k;
      double w = CubicWeight(frac - k, s.cubic_alpha);
      if (s.cubic_exclude && (i < 0 || i >= in)) w = 0;
      t.index.push_back(clamp(i));
      t.weight.push_back(w);
      sum += w;
    }
    if (s.cubic_exclude && sum != 0) {
      for (double& w : t.weight) w /= sum;
    }
  }
  return t;
}

NDArray Resize(const NDArray& x, int64_t oh, int64_t ow, const ResizeSpec& s, DataType out_dtype) {
  if (x.ndim() != 4) Fail("image.resize2d: data must be 4-D (NCHW)");
  const int64_t planes = x.shape()[0] * x.shape()[1], ih = x.shape()[2], iw = x.shape()[3];
  if (oh < 0 || ow < 0) Fail("image.resize2d: the output size must not be negative");
  // The output first: its size is checked (and charged to the memory budget) before the taps,
  // one per output row and column, are built for an output that could never exist; an empty
  // output needs no taps (a 0 x 2^62 one would still ask for 2^62 of them).
  NDArray out = NDArray::Uninitialized({x.shape()[0], x.shape()[1], oh, ow}, DataType::Float(64));
  if (out.size() == 0) return NDArray::Uninitialized(out.shape(), out_dtype);
  if (ih == 0 || iw == 0) Fail("image.resize2d: the input is empty");
  std::vector<Taps> rows, cols;
  for (int64_t y = 0; y < oh; ++y) rows.push_back(AxisTaps(y, ih, oh, s, s.roi[0], s.roi[2]));
  for (int64_t z = 0; z < ow; ++z) cols.push_back(AxisTaps(z, iw, ow, s, s.roi[1], s.roi[3]));
  const NDArray xd = CastArray(x, DataType::Float(64));
  const double* pi = xd.data<double>();
  double* po = out.mutable_data<double>();
  for (int64_t p = 0; p < planes; ++p) {
    const double* src = pi + p * ih * iw;
    for (int64_t y = 0; y < oh; ++y) {
      for (int64_t z = 0; z < ow; ++z, ++po) {
        const Taps& r = rows[y];
        const Taps& c = cols[z];
        if (r.outside || c.outside) {
          *po = s.extrapolation;
          continue;
        }
        double acc = 0;
        for (size_t i = 0; i < r.index.size(); ++i) {
          for (size_t j = 0; j < c.index.size(); ++j) {
            acc += r.weight[i] * c.weight[j] * src[r.index[i] * iw + c.index[j]];
          }
        }
        *po = acc;
      }
    }
  }
  if (out_dtype.is_int() || out_dtype.is_uint()) {
    // integer outputs round to nearest, as TVM casts after rounding for nearest/linear
    double* q = out.mutable_data<double>();
    for (int64_t i = 0; i < out.size(); ++i) q[i] = std::round(q[i]);
  }
  return CastArray(out, out_dtype);
}

}  // namespace

namespace {
// The layout attribute: NHWC (true) or NCHW (false); the kernels resize NCHW data and take NHWC
// by transposing in and out.
bool IsNHWC(const ir::AttrsNode& a, const char* op) {
  const std::string& layout = a.get_string("layout");
  if (layout != "NCHW" && layout != "NHWC") {
    Fail(std::string(op) + ": only the NCHW and NHWC layouts are supported");
  }
  return layout == "NHWC";
}
NDArray ToNCHW(const NDArray& x, const char* op) {
  if (x.ndim() != 4) Fail(std::string(op) + ": data must be 4-D");
  return Permute(x, {0, 3, 1, 2});
}
}  // namespace

Arrays Resize2D(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 1, "image.resize2d");
  const ir::AttrsNode& a = AttrsOf(attrs, "image.resize2d");
  const bool nhwc = IsNHWC(a, "image.resize2d");
  ResizeSpec s;
  s.method = a.get_string("method");
  s.coord = a.get_string("coordinate_transformation_mode");
  s.rounding = a.get_string("rounding_method");
  if (s.rounding.empty()) {
    s.rounding =
        s.coord == "tf_half_pixel_for_nn" || s.coord == "align_corners" ? "round" : "floor";
  }
  s.cubic_alpha = a.get_double("cubic_alpha");
  s.cubic_exclude = a.get_int("cubic_exclude") != 0;
  s.extrapolation = a.get_double("extrapolation_value");
  const ir::AttrValue& roi = a.get("roi");
  if (!roi.is_null()) {
    s.roi.clear();
    for (const ir::AttrValue& v : roi.as_array()) s.roi.push_back(v.as_double());
    if (s.roi.size() != 4) Fail("image.resize2d: roi must have 4 values");
  }
  const std::vector<int64_t> size = a.get_ints("size");
  if (size.size() != 2) Fail("image.resize2d: size must have 2 values");
  const NDArray x = nhwc ? ToNCHW(in[0], "image.resize2d") : in[0];
  const NDArray out = Resize(x, size[0], size[1], s, DTypeAttr(a, "out_dtype", in[0].dtype()));
  return {nhwc ? Permute(out, {0, 2, 3, 1}) : out};
}

namespace {
// Resizes NCDHW `x` to D, H, W = `size` (the taps of the three axes multiplied); `roi` is start_d,
// start_h, start_w, end_d, end_h, end_w.
NDArray Resize3DNCDHW(const NDArray& x, const std::vector<int64_t>& size, const ResizeSpec& s,
                      const std::vector<double>& roi, DataType out_dtype, const char* op) {
  if (x.ndim() != 5) Fail(std::string(op) + ": data must be 5-D (NCDHW)");
  const Shape& is = x.shape();
  for (int64_t v : size) {
    if (v < 0) Fail(std::string(op) + ": the output size must not be negative");
  }
  // As Resize: the output's size is checked before any taps are built.
  NDArray out =
      NDArray::Uninitialized({is[0], is[1], size[0], size[1], size[2]}, DataType::Float(64));
  if (out.size() == 0) return NDArray::Uninitialized(out.shape(), out_dtype);
  if (is[2] == 0 || is[3] == 0 || is[4] == 0) Fail(std::string(op) + ": the input is empty");
  std::vector<Taps> taps[3];
  for (int k = 0; k < 3; ++k) {
    for (int64_t o = 0; o < size[k]; ++o) {
      taps[k].push_back(AxisTaps(o, is[2 + k], size[k], s, roi[k], roi[3 + k]));
    }
  }
  const NDArray xd = CastArray(x, DataType::Float(64));
  const double* pi = xd.data<double>();
  double* po = out.mutable_data<double>();
  const int64_t plane = is[2] * is[3] * is[4];
  for (int64_t p = 0; p < is[0] * is[1]; ++p) {
    const double* src = pi + p * plane;
    for (const Taps& td : taps[0]) {
      for (const Taps& th : taps[1]) {
        for (const Taps& tw : taps[2]) {
          if (td.outside || th.outside || tw.outside) {
            *po++ = s.extrapolation;
            continue;
          }
          double acc = 0;
          for (size_t i = 0; i < td.index.size(); ++i) {
            for (size_t j = 0; j < th.index.size(); ++j) {
              const double w = td.weight[i] * th.weight[j];
              const double* row = src + (td.index[i] * is[3] + th.index[j]) * is[4];
              for (size_t k = 0; k < tw.index.size(); ++k)
                acc += w * tw.weight[k] * row[tw.index[k]];
            }
          }
          *po++ = acc;
        }
      }
    }
  }
  if (out_dtype.is_int() || out_dtype.is_uint()) {
    double* q = out.mutable_data<double>();
    for (int64_t i = 0; i < out.size(); ++i) q[i] = std::round(q[i]);
  }
  return CastArray(out, out_dtype);
}
}  // namespace

// TVM's topi.image.resize3d on NCDHW data: the taps of the three axes multiplied (trilinear,
// tricubic or nearest).
Arrays Resize3D(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  const char* op = "image.resize3d";
  CheckInputs(in, 1, op);
  const ir::AttrsNode& a = AttrsOf(attrs, op);
  if (a.get_string("layout") != "NCDHW") Fail("image.resize3d: only the NCDHW layout is supported");
  ResizeSpec s;
  s.method = a.get_string("method");
  s.coord = a.get_string("coordinate_transformation_mode");
  s.rounding = a.get_string("rounding_method");
  if (s.rounding.empty()) {
    s.rounding =
        s.coord == "tf_half_pixel_for_nn" || s.coord == "align_corners" ? "round" : "floor";
  }
  s.cubic_alpha = a.get_double("cubic_alpha");
  s.cubic_exclude = a.get_int("cubic_exclude") != 0;
  s.extrapolation = a.get_double("extrapolation_value");
  std::vector<double> roi(6, 0.0);  // start_d, start_h, start_w, end_d, end_h, end_w
  if (!a.get("roi").is_null()) {
    roi.clear();
    for (const ir::AttrValue& v : a.get("roi").as_array()) roi.push_back(v.as_double());
    if (roi.size() != 6) Fail("image.resize3d: roi must have 6 values");
  }
  const std::vector<int64_t> size = a.get_ints("size");
  if (size.size() != 3) Fail("image.resize3d: size must have 3 values");
  return {Resize3DNCDHW(in[0], size, s, roi, DTypeAttr(a, "out_dtype", in[0].dtype()), op)};
}

// TVM's topi.nn.upsampling: resize2d to round(H * scale_h) x round(W * scale_w), asymmetric (or
// align_corners) coordinates.
Arrays UpSampling(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 1, "nn.upsampling");
  const ir::AttrsNode& a = AttrsOf(attrs, "nn.upsampling");
  const bool nhwc = IsNHWC(a, "nn.upsampling");
  const NDArray x = nhwc ? ToNCHW(in[0], "nn.upsampling") : in[0];
  if (x.ndim() != 4) Fail("nn.upsampling: data must be 4-D");
  ResizeSpec s;
  const std::string& method = a.get_string("method");
  s.method = method == "bilinear" ? "linear" : (method == "bicubic" ? "cubic" : "nearest_neighbor");
  s.coord = a.get_bool("align_corners") ? "align_corners" : "asymmetric";
  s.rounding = s.coord == "align_corners" ? "round" : "floor";
  // A scaled size beyond int64 (or NaN) has no integer value: an error, not a wrapped cast.
  auto scaled = [&](int64_t extent, const char* attr) {
    const double v = std::round(static_cast<double>(extent) * a.get_double(attr));
    if (!(v >= 0 && v < 9.2e18)) {
      Fail(std::string("nn.upsampling: attribute '") + attr + "' gives an output size of " +
           std::to_string(v));
    }
    return static_cast<int64_t>(v);
  };
  const int64_t oh = scaled(x.shape()[2], "scale_h");
  const int64_t ow = scaled(x.shape()[3], "scale_w");
  const NDArray out = Resize(x, oh, ow, s, x.dtype());
  return {nhwc ? Permute(out, {0, 2, 3, 1}) : out};
}

// TVM's topi.nn.upsampling3d: resize3d to round(D * scale_d) x round(H * scale_h) x
// round(W * scale_w) with the call's coordinate mode (trilinear is resize3d's linear).
Arrays UpSampling3D(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  const char* op = "nn.upsampling3d";
  CheckInputs(in, 1, op);
  const ir::AttrsNode& a = AttrsOf(attrs, op);
  const std::string& layout = a.get_string("layout");
  if (layout != "NCDHW" && layout != "NDHWC") {
    Fail("nn.upsampling3d: only the NCDHW and NDHWC layouts are supported");
  }
  if (in[0].ndim() != 5) Fail("nn.upsampling3d: data must be 5-D");
  const bool ndhwc = layout == "NDHWC";
  const NDArray x = ndhwc ? Permute(in[0], {0, 4, 1, 2, 3}) : in[0];
  ResizeSpec s;
  const std::string& method = a.get_string("method");
  if (method != "nearest_neighbor" && method != "trilinear") {
    Fail("nn.upsampling3d: method must be nearest_neighbor or trilinear");
  }
  s.method = method == "trilinear" ? "linear" : method;
  s.coord = a.get_string("coordinate_transformation_mode");
  if (s.coord != "half_pixel" && s.coord != "align_corners" && s.coord != "asymmetric") {
    Fail("nn.upsampling3d: unsupported coordinate_transformation_mode \"" + s.coord + "\"");
  }
  // topi's resize3d is called without a rounding method: floor, round for align_corners.
  s.rounding = s.coord == "align_corners" ? "round" : "floor";
  const char* scales[3] = {"scale_d", "scale_h", "scale_w"};
  std::vector<int64_t> size(3);
  for (int k = 0; k < 3; ++k) {
    const double v = std::round(static_cast<double>(x.shape()[2 + k]) * a.get_double(scales[k]));
    if (!(v >= 0 && v < 9.2e18)) {
      Fail(std::string("nn.upsampling3d: attribute '") + scales[k] + "' gives an output size of " +
           std::to_string(v));
    }
    size[k] = static_cast<int64_t>(v);
  }
  const NDArray out = Resize3DNCDHW(x, size, s, std::vector<double>(6, 0.0), x.dtype(), op);
  return {ndhwc ? Permute(out, {0, 2, 3, 4, 1}) : out};
}

// TVM's topi.image.crop_and_resize (TensorFlow's): box b = [y1, x1, y2, x2] (normalised) of image
// box_indices[b] resized to crop_size with tf_crop_and_resize coordinates; outside the image,
// extrapolation_value.
Arrays CropAndResize(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  const char* op = "image.crop_and_resize";
  CheckInputs(in, 3, op);
  const ir::AttrsNode& a = AttrsOf(attrs, op);
  const bool nhwc = IsNHWC(a, op);
  const NDArray x = nhwc ? ToNCHW(in[0], op) : in[0];
  if (x.ndim() != 4) Fail("image.crop_and_resize: data must be 4-D");
  const NDArray boxes = CastArray(in[1], DataType::Float(64));
  const NDArray indices = CastArray(in[2], DataType::Int(64));
  const int64_t num_boxes = boxes.ndim() == 2 ? boxes.shape()[0] : -1;
  if (boxes.ndim() != 2 || boxes.shape()[1] != 4 || indices.ndim() != 1 ||
      indices.shape()[0] != num_boxes) {
    Fail("image.crop_and_resize: boxes must be [num_boxes, 4] and box_indices [num_boxes], got " +
         ShapeString(boxes.shape()) + " and " + ShapeString(indices.shape()));
  }
  const std::vector<int64_t> size = a.get_ints("crop_size");
  if (size.size() != 2 || size[0] < 0 || size[1] < 0) {
    Fail("image.crop_and_resize: crop_size must be 2 non-negative values");
  }
  ResizeSpec s;
  const std::string& method = a.get_string("method");
  if (method != "bilinear" && method != "nearest_neighbor") {
    Fail("image.crop_and_resize: method must be bilinear or nearest_neighbor");
  }
  s.method = method == "bilinear" ? "linear" : method;
  s.coord = "tf_crop_and_resize";
  s.rounding = "round";
  s.extrapolation = a.get_double("extrapolation_value");
  const DataType out_dtype = DTypeAttr(a, "out_dtype", x.dtype());
  const Shape& is = x.shape();
  NDArray out = NDArray::Uninitialized({num_boxes, is[1], size[0], size[1]}, out_dtype);
  if (out.size() > 0) {
    const size_t image_bytes = static_cast<size_t>(is[1] * is[2] * is[3]) * x.dtype().bytes();
    const size_t crop_bytes = static_cast<size_t>(out.size() / num_boxes) * out_dtype.bytes();
    const auto* src = static_cast<const uint8_t*>(x.raw_data());
    auto* dst = static_cast<uint8_t*>(out.mutable_raw_data());
    const double* pb = boxes.data<double>();
    const int64_t* pi = indices.data<int64_t>();
    for (int64_t b = 0; b < num_boxes; ++b) {
      if (pi[b] < 0 || pi[b] >= is[0]) {
        Fail("image.crop_and_resize: box_indices[" + std::to_string(b) +
             "] = " + std::to_string(pi[b]) + " is outside the batch of " + std::to_string(is[0]));
      }
      s.roi = {pb[4 * b], pb[4 * b + 1], pb[4 * b + 2], pb[4 * b + 3]};
      const NDArray image =
          NDArray::FromBytes({1, is[1], is[2], is[3]}, x.dtype(), src + pi[b] * image_bytes);
      const NDArray crop = Resize(image, size[0], size[1], s, out_dtype);
      std::memcpy(dst + b * crop_bytes, crop.raw_data(), crop_bytes);
    }
  }
  return {nhwc ? Permute(out, {0, 2, 3, 1}) : out};
}

namespace {
// -1 + 2 i / (n - 1); TVM's 0 / 0 for a one-point axis is NaN, given here without the division.
double GridCoordinate(int64_t i, int64_t n) {
  if (n == 1) return std::numeric_limits<double>::quiet_NaN();
  return -1.0 + static_cast<double>(i) * 2.0 / static_cast<double>(n - 1);
}
}  // namespace

// TVM's topi.image.affine_grid: out[n, k, i, j] = data[n, k, 0] * x_j + data[n, k, 1] * y_i +
// data[n, k, 2], x_j = -1 + 2 j / (W - 1) and y_i = -1 + 2 i / (H - 1).
Arrays AffineGrid(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  const char* op = "image.affine_grid";
  CheckInputs(in, 1, op);
  const ir::AttrsNode& a = AttrsOf(attrs, op);
  const std::vector<int64_t> target = a.get_ints("target_shape");
  if (target.size() != 2 || target[0] < 0 || target[1] < 0) {
    Fail("image.affine_grid: target_shape must be 2 non-negative values");
  }
  const NDArray& data = in[0];
  if (data.ndim() != 3 || data.shape()[1] != 2 || data.shape()[2] != 3) {
    Fail("image.affine_grid: data must be [batch, 2, 3], got " + ShapeString(data.shape()));
  }
  const int64_t h = target[0], w = target[1];
  NDArray out = NDArray::Uninitialized({data.shape()[0], 2, h, w}, DataType::Float(64));
  if (out.size() == 0) return {NDArray::Uninitialized(out.shape(), data.dtype())};
  const NDArray theta = CastArray(data, DataType::Float(64));
  const double* pt = theta.data<double>();
  double* po = out.mutable_data<double>();
  for (int64_t n = 0; n < data.shape()[0]; ++n) {
    for (int64_t k = 0; k < 2; ++k) {
      const double* row = pt + (n * 2 + k) * 3;
      for (int64_t i = 0; i < h; ++i) {
        const double y = GridCoordinate(i, h);
        for (int64_t j = 0; j < w; ++j) {
          const double x = GridCoordinate(j, w);
          *po++ = row[0] * x + row[1] * y + row[2];
        }
      }
    }
  }
  return {CastArray(out, data.dtype())};
}

namespace {

// Output element (n, c, h, w) of depth_to_space / space_to_depth read from the input.
NDArray SubPixel(const NDArray& x, const ir::AttrsNode& a, bool to_space, const char* op) {
  if (a.get_string("layout") != "NCHW") Fail(std::string(op) + ": only NCHW is supported");
  if (x.ndim() != 4) Fail(std::string(op) + ": data must be 4-D");
  const int64_t b = a.get_int("block_size");
  const bool crd = a.get_string("mode") == "CRD";
  const int64_t n = x.shape()[0], c = x.shape()[1], h = x.shape()[2], w = x.shape()[3];
  if (b < 1) Fail(std::string(op) + ": block_size must be positive");
  // Extents the block does not divide are floored, as TVM's relations (and topi) do.
  const Shape out_shape =
      to_space ? Shape{n, c / (b * b), h * b, w * b} : Shape{n, c * b * b, h / b, w / b};
  NDArray out = NDArray::Uninitialized(out_shape, x.dtype());
  const size_t eb = x.dtype().bytes();
  const auto* src = static_cast<const uint8_t*>(x.raw_data());
  auto* dst = static_cast<uint8_t*>(out.mutable_raw_data());
  const int64_t oc = out_shape[1], oh = out_shape[2], ow = out_shape[3];
  int64_t o = 0;
  for (int64_t i0 = 0; i0 < n; ++i0) {
    for (int64_t i1 = 0; i1 < oc; ++i1) {
      for (int64_t i2 = 0; i2 < oh; ++i2) {
        for (int64_t i3 = 0; i3 < ow; ++i3, ++o) {
          int64_t sc, sh, sw;
          if (to_space) {
            const int64_t bi = i2 % b, bj = i3 % b;
            sc = crd ? i1 * b * b + bi * b + bj : (bi * b + bj) * oc + i1;
            sh = i2 / b;
            sw = i3 / b;
          } else {
            const int64_t blk = i1 / c, ch = i1 % c;
            sc = ch;
            sh = i2 * b + blk / b;
            sw = i3 * b + blk % b;
          }
          std::memcpy(dst + o * eb, src + (((i0 * c + sc) * h + sh) * w + sw) * eb, eb);
        }
      }
    }
  }
  return out;
}

}  // namespace

Arrays DepthToSpace(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 1, "nn.depth_to_space");
  return {SubPixel(in[0], AttrsOf(attrs, "nn.depth_to_space"), true, "nn.depth_to_space")};
}

Arrays SpaceToDepth(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 1, "nn.space_to_depth");
  return {SubPixel(in[0], AttrsOf(attrs, "nn.space_to_depth"), false, "nn.space_to_depth")};
}

}  // namespace relaypass::op::kernels
