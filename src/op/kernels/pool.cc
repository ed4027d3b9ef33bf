// 2D pooling in any layout whose H and W axes are not split (NCHW, NHWC, NCHW16c, ...): every other
// axis is an independent channel. Follows TVM's topi pool_impl_nd: max pooling pads with the
// dtype's lowest value; average pooling divides by the in-bounds tap count, or with
// count_include_pad by the taps inside the padded input (ceil_mode's extra row excluded).
#include <algorithm>
#include <limits>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernel_util.h"
#include "kernels.h"
#include "relaypass/support/parallel.h"

namespace relaypass::op::kernels {

namespace {

struct Window {
  int64_t kernel, stride, dilation, pad_before, pad_after, in, out;
};

struct PoolSpec {
  int h_axis, w_axis;
  Window h, w;
  bool ceil_mode = false;
  bool count_include_pad = false;
};

// Positions of H and W in `layout_name`, which must hold both, unsplit, and match `data`.
std::pair<int, int> HeightWidth(const NDArray& data, const std::string& layout_name,
                                const char* op) {
  const Layout layout(layout_name);
  if (!layout.Contains('H') || !layout.Contains('W') || layout.Contains('h') ||
      layout.Contains('w')) {
    Fail(std::string(op) + ": layout " + layout_name + " needs unsplit H and W axes");
  }
  if (static_cast<size_t>(data.ndim()) != layout.ndim()) {
    Fail(std::string(op) + ": data " + ShapeString(data.shape()) + " does not match layout " +
         layout_name);
  }
  return {layout.IndexOf('H'), layout.IndexOf('W')};
}

// Calls body(in_base, out_base) for every index of the axes other than H and W.
template <typename Body>
void ForEachChannel(const Shape& in_shape, const Shape& out_shape, int h, int w, Body&& body) {
  const Shape in_strides = Strides(in_shape), out_strides = Strides(out_shape);
  std::vector<int> axes;
  for (int i = 0; i < static_cast<int>(in_shape.size()); ++i) {
    if (i != h && i != w) axes.push_back(i);
  }
  std::vector<int64_t> idx(axes.size(), 0);
  int64_t total = 1;
  for (int a : axes) total *= in_shape[a];
  int64_t in_base = 0, out_base = 0;
  for (int64_t t = 0; t < total; ++t) {
    body(in_base, out_base);
    for (size_t k = axes.size(); k-- > 0;) {
      const int a = axes[k];
      in_base += in_strides[a];
      out_base += out_strides[a];
      if (++idx[k] < in_shape[a]) break;
      in_base -= in_strides[a] * in_shape[a];
      out_base -= out_strides[a] * in_shape[a];
      idx[k] = 0;
    }
  }
}

// The average pool divisor along one axis for output position `o` (TVM's formulas, with C
// truncating division).
int64_t AvgCount(const Window& win, int64_t o, bool count_include_pad) {
  const int64_t start = o * win.stride - win.pad_before;
  int64_t end = start + (win.kernel - 1) * win.dilation;
  if (count_include_pad) {
    end = std::min(end, win.in + win.pad_after - 1);
    return (end - start) / win.dilation + 1;
  }
  const int64_t jumps = std::max<int64_t>((win.dilation - 1 - start) / win.dilation, 0);
  end = std::min(end, win.in - 1);
  return (end - (start + win.dilation * jumps)) / win.dilation + 1;
}

// The taps [lo, hi) of output position `o` whose input position lies inside [0, in).
void InsideTaps(const Window& win, int64_t o, int64_t* lo, int64_t* hi) {
  const int64_t start = o * win.stride - win.pad_before;
  *lo = start >= 0 ? 0 : (-start + win.dilation - 1) / win.dilation;
  const int64_t last = win.in - 1 - start;  // the largest offset inside
  *hi = last < 0 ? 0 : std::min(win.kernel, last / win.dilation + 1);
  if (*hi < *lo) *hi = *lo;
}

template <typename T>
NDArray Pool2D(const NDArray& data, const PoolSpec& s, bool is_max) {
  Shape out_shape = data.shape();
  out_shape[s.h_axis] = s.h.out;
  out_shape[s.w_axis] = s.w.out;
  NDArray out = NDArray::Uninitialized(out_shape, data.dtype());
  if (out.size() == 0) return out;
  const Shape in_strides = Strides(data.shape()), out_strides = Strides(out_shape);
  const int64_t ish = in_strides[s.h_axis], isw = in_strides[s.w_axis];
  const int64_t osh = out_strides[s.h_axis], osw = out_strides[s.w_axis];
  const T* x = data.data<T>();
  T* y = out.mutable_data<T>();
  std::vector<int64_t> count_w(s.w.out);
  // For each column tap kw, the outputs [ow_first, ow_last) whose tap lies inside the input (a
  // run: the tap's input column grows with ow).
  std::vector<int64_t> ow_first(s.w.kernel, 0), ow_last(s.w.kernel, 0);
  for (int64_t ow = 0; ow < s.w.out; ++ow) {
    count_w[ow] = AvgCount(s.w, ow, s.count_include_pad);
    int64_t lo, hi;
    InsideTaps(s.w, ow, &lo, &hi);
    for (int64_t kw = lo; kw < hi; ++kw) {
      if (ow_last[kw] == 0) ow_first[kw] = ow;
      ow_last[kw] = ow + 1;
    }
  }
  const int64_t step = s.w.stride * isw;
  // An output row at a time, tap after tap over the whole row: each output still takes its
  // inside taps in the order (kh, kw) of the definition (the same bits as one output at a time),
  // but the inner loop is a run of loads the compiler can vectorize, not a window per output.
  auto channel = [&](int64_t ib, int64_t ob, T* acc) {
    for (int64_t oh = 0; oh < s.h.out; ++oh) {
      const int64_t h0 = oh * s.h.stride - s.h.pad_before;
      int64_t kh_lo, kh_hi;
      InsideTaps(s.h, oh, &kh_lo, &kh_hi);
      std::fill(acc, acc + s.w.out, is_max ? std::numeric_limits<T>::lowest() : T(0));
      for (int64_t kh = kh_lo; kh < kh_hi; ++kh) {
        const int64_t row = ib + (h0 + kh * s.h.dilation) * ish;
        for (int64_t kw = 0; kw < s.w.kernel; ++kw) {
          // Integer offsets: for ow = 0 the tap may lie before the tensor.
          const int64_t tap = row + (kw * s.w.dilation - s.w.pad_before) * isw;
          if (is_max) {
            for (int64_t ow = ow_first[kw]; ow < ow_last[kw]; ++ow) {
              acc[ow] = std::max(acc[ow], x[tap + ow * step]);
            }
          } else {
            for (int64_t ow = ow_first[kw]; ow < ow_last[kw]; ++ow) {
              acc[ow] = static_cast<T>(acc[ow] + x[tap + ow * step]);
            }
          }
        }
      }
      if (!is_max) {
        const int64_t count_h = AvgCount(s.h, oh, s.count_include_pad);
        for (int64_t ow = 0; ow < s.w.out; ++ow) {
          int64_t count = count_h * count_w[ow];
          if (!s.count_include_pad) count = std::max<int64_t>(count, 1);
          if constexpr (!std::is_floating_point_v<T>) count = std::max<int64_t>(count, 1);
          acc[ow] = static_cast<T>(acc[ow] / static_cast<T>(count));
        }
      }
      for (int64_t ow = 0; ow < s.w.out; ++ow) y[ob + oh * osh + ow * osw] = acc[ow];
    }
  };
  // Each channel's (input, output) offsets, then the channels split over threads.
  std::vector<std::pair<int64_t, int64_t>> bases;
  ForEachChannel(data.shape(), out_shape, s.h_axis, s.w_axis,
                 [&](int64_t ib, int64_t ob) { bases.emplace_back(ib, ob); });
  const int64_t per_channel = std::max<int64_t>(1, s.h.out * s.w.out * s.h.kernel * s.w.kernel);
  const int64_t grain = std::max<int64_t>(1, kParallelGrain / per_channel);
  support::ParallelFor(static_cast<int64_t>(bases.size()), grain, [&](int64_t first, int64_t last) {
    // Not std::vector: T may be bool.
    const auto acc = std::make_unique<T[]>(static_cast<size_t>(s.w.out));
    for (int64_t t = first; t < last; ++t) {
      channel(bases[static_cast<size_t>(t)].first, bases[static_cast<size_t>(t)].second, acc.get());
    }
  });
  return out;
}

Window MakeWindow(const NDArray& data, int axis, int64_t kernel, int64_t stride, int64_t dilation,
                  int64_t pad_before, int64_t pad_after, bool ceil_mode, const char* op) {
  if (kernel < 1 || stride < 1 || dilation < 1) {
    Fail(std::string(op) + ": pool_size, strides and dilation must be positive");
  }
  Window win{kernel, stride, dilation, pad_before, pad_after, data.shape()[axis], 0};
  int64_t numerator = win.in + pad_before + pad_after - ((kernel - 1) * dilation + 1);
  if (ceil_mode) numerator += stride - 1;
  if (numerator < 0) Fail(std::string(op) + ": the pooling window is larger than the input");
  win.out = numerator / stride + 1;
  return win;
}

Arrays Pool(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type, bool is_max,
            const char* op) {
  CheckInputs(in, 1, op);
  const ir::AttrsNode& a = AttrsOf(attrs, op);
  auto [h, w] = HeightWidth(in[0], a.get_string("layout"), op);
  const std::vector<int64_t> pool = a.get_ints("pool_size");
  const std::vector<int64_t> strides = a.get_ints("strides");
  const std::vector<int64_t> dilation = a.get_ints("dilation");
  const std::vector<int64_t> pad = Padding4(a.get_ints("padding"), op);
  if (pool.size() != 2 || strides.size() != 2 || dilation.size() != 2) {
    Fail(std::string(op) + ": pool_size, strides and dilation need 2 values each");
  }
  PoolSpec spec;
  spec.h_axis = h;
  spec.w_axis = w;
  spec.ceil_mode = a.get_bool("ceil_mode");
  spec.count_include_pad = !is_max && a.get_bool("count_include_pad");
  spec.h =
      MakeWindow(in[0], h, pool[0], strides[0], dilation[0], pad[0], pad[2], spec.ceil_mode, op);
  spec.w =
      MakeWindow(in[0], w, pool[1], strides[1], dilation[1], pad[1], pad[3], spec.ceil_mode, op);
  return PromoteHalf(in, out_type, [&](const Arrays& x) -> Arrays {
    return {DispatchNumeric(x[0].dtype(), op, [&](auto tag) {
      using T = typename decltype(tag)::type;
      return Pool2D<T>(x[0], spec, is_max);
    })};
  });
}

}  // namespace

Arrays MaxPool2D(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  return Pool(in, attrs, out_type, true, "nn.max_pool2d");
}

Arrays AvgPool2D(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  return Pool(in, attrs, out_type, false, "nn.avg_pool2d");
}

namespace {

// One window over the whole H x W extent.
Arrays GlobalPool(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type, bool is_max,
                  const char* op) {
  CheckInputs(in, 1, op);
  auto [h, w] = HeightWidth(in[0], AttrsOf(attrs, op).get_string("layout"), op);
  PoolSpec spec;
  spec.h_axis = h;
  spec.w_axis = w;
  spec.count_include_pad = true;
  const int64_t height = in[0].shape()[h], width = in[0].shape()[w];
  spec.h = Window{height, 1, 1, 0, 0, height, 1};
  spec.w = Window{width, 1, 1, 0, 0, width, 1};
  return PromoteHalf(in, out_type, [&](const Arrays& x) -> Arrays {
    return {DispatchNumeric(x[0].dtype(), op, [&](auto tag) {
      using T = typename decltype(tag)::type;
      return Pool2D<T>(x[0], spec, is_max);
    })};
  });
}

}  // namespace

Arrays GlobalAvgPool2D(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  return GlobalPool(in, attrs, out_type, false, "nn.global_avg_pool2d");
}

Arrays GlobalMaxPool2D(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  return GlobalPool(in, attrs, out_type, true, "nn.global_max_pool2d");
}

}  // namespace relaypass::op::kernels
