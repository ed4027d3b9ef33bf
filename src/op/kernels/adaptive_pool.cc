// Adaptive average and max pooling in any layout whose spatial axes (W; H, W; D, H, W) are not
// split: every other axis is an independent channel. As TVM's topi adaptive_pool: output index i
// of an axis of input extent n and output extent m pools [floor(i*n/m), ceil((i+1)*n/m)); average
// pooling divides by the window's size.
#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "kernel_util.h"
#include "kernels.h"
#include "relaypass/op/layout.h"

namespace relaypass::op::kernels {

namespace {

struct AdaptiveAxis {
  int axis;  // position in the data
  int64_t in, out;
};

// The spatial axes of an `s`-d pool and their extents, from the attrs and `data`.
std::vector<AdaptiveAxis> ReadAxes(const NDArray& data, const ir::AttrsNode& a, int s,
                                   const char* op) {
  const std::string& layout_name = a.get_string("layout");
  const Layout layout(layout_name);
  if (static_cast<size_t>(data.ndim()) != layout.ndim()) {
    Fail(std::string(op) + ": data " + ShapeString(data.shape()) + " does not match layout " +
         layout_name);
  }
  const std::string letters = s == 1 ? "W" : (s == 2 ? "HW" : "DHW");
  const std::vector<int64_t> sizes = a.get_ints("output_size");
  if (sizes.size() > 1 && sizes.size() != static_cast<size_t>(s)) {
    Fail(std::string(op) + ": output_size must have 1 or " + std::to_string(s) + " values");
  }
  std::vector<AdaptiveAxis> axes;
  for (int i = 0; i < s; ++i) {
    const char c = letters[i];
    if (!layout.Contains(c) || layout.Contains(static_cast<char>(c - 'A' + 'a'))) {
      Fail(std::string(op) + ": layout " + layout_name + " needs unsplit " + letters + " axes");
    }
    AdaptiveAxis ax{layout.IndexOf(c), data.shape()[layout.IndexOf(c)], 0};
    ax.out = sizes.empty() ? ax.in : (sizes.size() == 1 ? sizes[0] : sizes[i]);
    if (ax.out == -1) ax.out = ax.in;
    if (ax.out < 0) Fail(std::string(op) + ": output_size must not be negative");
    if (ax.in == 0 && ax.out > 0) {
      Fail(std::string(op) + ": cannot pool an empty input axis to " + std::to_string(ax.out) +
           " outputs");
    }
    axes.push_back(ax);
  }
  return axes;
}

int64_t WindowStart(int64_t i, int64_t in, int64_t out) {
  return static_cast<int64_t>(static_cast<__int128>(i) * in / out);
}
int64_t WindowEnd(int64_t i, int64_t in, int64_t out) {
  return static_cast<int64_t>((static_cast<__int128>(i + 1) * in + out - 1) / out);
}

template <typename T>
NDArray Pool(const NDArray& x, const std::vector<AdaptiveAxis>& axes, bool is_max) {
  Shape out_shape = x.shape();
  for (const AdaptiveAxis& a : axes) out_shape[a.axis] = a.out;
  NDArray y = NDArray::Uninitialized(out_shape, x.dtype());
  const Shape in_strides = Strides(x.shape());
  const T* px = x.data<T>();
  T* py = y.mutable_data<T>();
  const int nd = x.ndim();
  const size_t s = axes.size();
  std::vector<int64_t> idx(nd, 0);
  std::vector<int64_t> start(s), end(s), at(s);
  for (int64_t o = 0; o < y.size(); ++o) {
    int64_t base = 0;
    for (int d = 0; d < nd; ++d) base += idx[d] * in_strides[d];
    int64_t count = 1;
    for (size_t k = 0; k < s; ++k) {
      const AdaptiveAxis& a = axes[k];
      base -= idx[a.axis] * in_strides[a.axis];  // the window supplies the spatial offset
      start[k] = WindowStart(idx[a.axis], a.in, a.out);
      end[k] = WindowEnd(idx[a.axis], a.in, a.out);
      count *= end[k] - start[k];
      at[k] = start[k];
    }
    T best = std::numeric_limits<T>::lowest();  // max pooling compares in T (exact for int64)
    double acc = 0.0;
    for (int64_t n = 0; n < count; ++n) {
      int64_t offset = base;
      for (size_t k = 0; k < s; ++k) offset += at[k] * in_strides[axes[k].axis];
      if (is_max) {
        best = std::max(best, px[offset]);
      } else {
        acc += static_cast<double>(px[offset]);
      }
      for (size_t k = s; k-- > 0;) {  // the next window position, innermost axis fastest
        if (++at[k] < end[k]) break;
        at[k] = start[k];
      }
    }
    py[o] = is_max ? best : static_cast<T>(acc / static_cast<double>(count));
    for (int d = nd; d-- > 0;) {  // the next output position
      if (++idx[d] < out_shape[d]) break;
      idx[d] = 0;
    }
  }
  return y;
}

Arrays AdaptivePool(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type, int s,
                    bool is_max, const char* op) {
  CheckInputs(in, 1, op);
  const ir::AttrsNode& a = AttrsOf(attrs, op);
  return PromoteHalf(in, out_type, [&](const Arrays& v) -> Arrays {
    const std::vector<AdaptiveAxis> axes = ReadAxes(v[0], a, s, op);
    return {DispatchNumeric(v[0].dtype(), op, [&](auto tag) {
      using T = typename decltype(tag)::type;
      return Pool<T>(v[0], axes, is_max);
    })};
  });
}

}  // namespace

Arrays AdaptiveAvgPool1D(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  return AdaptivePool(in, attrs, out_type, 1, false, "nn.adaptive_avg_pool1d");
}
Arrays AdaptiveAvgPool2D(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  return AdaptivePool(in, attrs, out_type, 2, false, "nn.adaptive_avg_pool2d");
}
Arrays AdaptiveAvgPool3D(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  return AdaptivePool(in, attrs, out_type, 3, false, "nn.adaptive_avg_pool3d");
}
Arrays AdaptiveMaxPool1D(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  return AdaptivePool(in, attrs, out_type, 1, true, "nn.adaptive_max_pool1d");
}
Arrays AdaptiveMaxPool2D(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  return AdaptivePool(in, attrs, out_type, 2, true, "nn.adaptive_max_pool2d");
}
Arrays AdaptiveMaxPool3D(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  return AdaptivePool(in, attrs, out_type, 3, true, "nn.adaptive_max_pool3d");
}

}  // namespace relaypass::op::kernels
