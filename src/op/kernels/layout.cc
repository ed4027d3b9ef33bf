// Data movement between layouts: axis permutation (NCHW <-> NHWC, OIHW <-> HWIO) and general
// layout transforms with split axes (NCHW <-> NCHW16c, OIHW <-> OIHW16i16o).
#include <cstring>

#include "broadcast.h"
#include "kernel_util.h"
#include "kernels.h"

namespace relaypass::op::kernels {

namespace {

// Elements copied as unsigned integers of their size.
template <typename F>
void DispatchElementSize(DataType dtype, F&& f) {
  switch (dtype.bytes()) {
    case 1:
      return f(TypeTag<uint8_t>{});
    case 2:
      return f(TypeTag<uint16_t>{});
    case 4:
      return f(TypeTag<uint32_t>{});
    case 8:
      return f(TypeTag<uint64_t>{});
    default:
      Fail("unsupported element size for dtype " + dtype.ToString());
  }
}

struct AxisMap {
  int src_primal = -1, src_sub = -1;
  int64_t src_factor = 1;
  int dst_primal = -1, dst_sub = -1;
  int64_t dst_factor = 1;
  int64_t extent = 0;  // the full extent of the primal axis in the source
};

}  // namespace

NDArray Permute(const NDArray& x, const std::vector<int>& perm) {
  const int nd = x.ndim();
  if (static_cast<int>(perm.size()) != nd) Fail("transpose: permutation rank mismatch");
  std::vector<bool> seen(nd, false);
  Shape out_shape(nd);
  const Shape in_strides = Strides(x.shape());
  BroadcastPlan plan;  // one input: a = the source, b unused (stride 0)
  for (int i = 0; i < nd; ++i) {
    const int p = perm[i];
    if (p < 0 || p >= nd || seen[p]) Fail("transpose: invalid permutation");
    seen[p] = true;
    out_shape[i] = x.shape()[p];
  }
  for (int i = 0; i < nd; ++i) {
    const int64_t extent = out_shape[i];
    const int64_t stride = in_strides[perm[i]];
    if (extent == 1) continue;
    if (!plan.extents.empty() && plan.a_strides.back() == stride * extent) {
      plan.extents.back() *= extent;
      plan.a_strides.back() = stride;
      continue;
    }
    plan.extents.push_back(extent);
    plan.a_strides.push_back(stride);
    plan.b_strides.push_back(0);
  }
  if (plan.extents.empty()) {
    plan.extents = {1};
    plan.a_strides = {0};
    plan.b_strides = {0};
  }
  NDArray out = NDArray::Uninitialized(out_shape, x.dtype());
  if (out.size() == 0) return out;
  if (plan.extents.size() == 1 && plan.a_strides[0] <= 1) {
    std::memcpy(out.mutable_raw_data(), x.raw_data(), x.nbytes());
    return out;
  }
  DispatchElementSize(x.dtype(), [&](auto tag) {
    using E = typename decltype(tag)::type;
    const E* src = static_cast<const E*>(x.raw_data());
    E* dst = static_cast<E*>(out.mutable_raw_data());
    // Runs of the output split over the kernel threads (a copy: the same bytes at any count).
    ForEachBroadcastRunParallel(
        plan, [&](int64_t io, int64_t ia, int64_t, int64_t n, int64_t sa, int64_t) {
          const E* s = src + ia;
          E* d = dst + io;
          for (int64_t i = 0; i < n; ++i) d[i] = s[i * sa];
        });
  });
  return out;
}

NDArray TransformLayout(const NDArray& x, const Layout& src, const Layout& dst) {
  if (!src.defined() || !dst.defined()) Fail("layout_transform: undefined layout");
  if (src == dst) return x;
  if (static_cast<size_t>(x.ndim()) != src.ndim()) {
    Fail("layout_transform: data " + ShapeString(x.shape()) + " does not match layout " +
         src.name());
  }
  if (src.ndim_primal() != dst.ndim_primal()) {
    Fail("layout_transform: cannot convert " + src.name() + " to " + dst.name());
  }
  bool split = false;
  std::vector<AxisMap> axes;
  for (size_t i = 0; i < src.ndim(); ++i) {
    if (!src[i].is_primal()) {
      split = true;
      continue;
    }
    const char name = src[i].name;
    AxisMap m;
    m.src_primal = static_cast<int>(i);
    m.src_sub = src.IndexOf(src[i].sub());
    m.dst_primal = dst.IndexOf(name);
    m.dst_sub = dst.IndexOf(src[i].sub());
    if (m.dst_primal < 0) Fail("layout_transform: " + dst.name() + " lacks axis " + name);
    if (m.src_sub >= 0) m.src_factor = src[m.src_sub].factor;
    if (m.dst_sub >= 0) {
      m.dst_factor = dst[m.dst_sub].factor;
      split = true;
    }
    m.extent = x.shape()[i] * m.src_factor;
    axes.push_back(m);
  }
  if (!split) {
    std::vector<int> perm(dst.ndim());
    for (const AxisMap& m : axes) perm[m.dst_primal] = m.src_primal;
    return Permute(x, perm);
  }
  BijectiveLayout convert(src, dst);
  NDArray out = NDArray::Uninitialized(convert.ForwardShape(x.shape()), x.dtype());
  if (out.size() == 0) return out;
  const Shape in_strides = Strides(x.shape());
  const Shape& out_shape = out.shape();
  const int nd = out.ndim();
  DispatchElementSize(x.dtype(), [&](auto tag) {
    using E = typename decltype(tag)::type;
    const E* s = static_cast<const E*>(x.raw_data());
    E* d = static_cast<E*>(out.mutable_raw_data());
    std::vector<int64_t> idx(nd, 0);
    const int64_t n = out.size();
    for (int64_t o = 0; o < n; ++o) {
      int64_t offset = 0;
      bool inside = true;
      for (const AxisMap& m : axes) {
        int64_t full = idx[m.dst_primal] * m.dst_factor + (m.dst_sub >= 0 ? idx[m.dst_sub] : 0);
        if (full >= m.extent) {
          inside = false;
          break;
        }
        if (m.src_sub >= 0) {
          offset += (full / m.src_factor) * in_strides[m.src_primal] +
                    (full % m.src_factor) * in_strides[m.src_sub];
        } else {
          offset += full * in_strides[m.src_primal];
        }
      }
      d[o] = inside ? s[offset] : E(0);
      for (int a = nd - 1; a >= 0; --a) {
        if (++idx[a] < out_shape[a]) break;
        idx[a] = 0;
      }
    }
  });
  return out;
}

Arrays LayoutTransform(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 1, "layout_transform");
  const ir::AttrsNode& a = AttrsOf(attrs, "layout_transform");
  return {TransformLayout(in[0], Layout(a.get_string("src_layout")),
                          Layout(a.get_string("dst_layout")))};
}

}  // namespace relaypass::op::kernels
