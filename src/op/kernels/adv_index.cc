// adv_index: out[b..., r...] = data[i0[b...], i1[b...], ..., r...], the index tensors broadcast
// against each other (numpy's rules); a negative index counts from the end, as numpy's, and one
// out of range is an error.
#include <cstring>
#include <string>

#include "kernel_util.h"
#include "kernels.h"

namespace relaypass::op::kernels {

namespace {

// The next row-major position within `shape`.
void Advance(std::vector<int64_t>& pos, const Shape& shape) {
  for (size_t d = pos.size(); d-- > 0;) {
    if (++pos[d] < shape[d]) return;
    pos[d] = 0;
  }
}

}  // namespace

Arrays AdvIndex(const Arrays& in, const ir::Attrs&, const ir::Type&) {
  if (in.size() < 2) Fail("adv_index requires the data and at least one index tensor");
  const NDArray& data = in[0];
  const size_t k = in.size() - 1;
  if (k > static_cast<size_t>(data.ndim())) Fail("adv_index: too many indices for data");
  // The broadcast shape of the indices.
  Shape bshape;
  for (size_t i = 1; i < in.size(); ++i) {
    const Shape& s = in[i].shape();
    if (s.size() > bshape.size()) bshape.insert(bshape.begin(), s.size() - bshape.size(), 1);
    for (size_t d = 0; d < s.size(); ++d) {
      int64_t& o = bshape[bshape.size() - s.size() + d];
      if (o == 1) {
        o = s[d];
      } else if (s[d] != 1 && s[d] != o) {
        Fail("adv_index: index shapes " + ShapeString(in[1].shape()) + " and " + ShapeString(s) +
             " do not broadcast");
      }
    }
  }
  std::vector<std::vector<int64_t>> idx;
  std::vector<Shape> istrides;  // each index's strides against bshape (0 on broadcast axes)
  for (size_t i = 1; i < in.size(); ++i) {
    if (!in[i].dtype().is_int() && !in[i].dtype().is_uint()) {
      Fail("adv_index: indices must be integers, got " + in[i].dtype().ToString());
    }
    const NDArray v = CastArray(in[i], DataType::Int(64));
    idx.emplace_back(v.data<int64_t>(), v.data<int64_t>() + v.size());
    const Shape& s = in[i].shape();
    const Shape own = Strides(s);
    Shape st(bshape.size(), 0);
    for (size_t d = 0; d < s.size(); ++d) {
      if (s[d] != 1) st[bshape.size() - s.size() + d] = own[d];
    }
    istrides.push_back(st);
  }
  Shape out_shape = bshape;
  int64_t inner = 1;
  for (int d = static_cast<int>(k); d < data.ndim(); ++d) {
    out_shape.push_back(data.shape()[d]);
    inner *= data.shape()[d];
  }
  NDArray out = NDArray::Uninitialized(out_shape, data.dtype());
  const Shape dstrides = Strides(data.shape());
  const size_t eb = data.dtype().bytes();
  const auto* pd = static_cast<const uint8_t*>(data.raw_data());
  auto* po = static_cast<uint8_t*>(out.mutable_raw_data());
  const int64_t count = NumElements(bshape);
  std::vector<int64_t> pos(bshape.size(), 0);
  for (int64_t b = 0; b < count; ++b) {
    int64_t offset = 0;
    for (size_t i = 0; i < k; ++i) {
      int64_t at = 0;
      for (size_t d = 0; d < pos.size(); ++d) at += pos[d] * istrides[i][d];
      int64_t v = idx[i][at];
      const int64_t extent = data.shape()[i];
      if (v < 0) v += extent;
      if (v < 0 || v >= extent) {
        Fail("adv_index: index " + std::to_string(idx[i][at]) + " is out of range for axis " +
             std::to_string(i) + " of extent " + std::to_string(extent));
      }
      offset += v * dstrides[i];
    }
    if (inner > 0) std::memcpy(po + b * inner * eb, pd + offset * eb, inner * eb);
    Advance(pos, bshape);
  }
  return {out};
}

}  // namespace relaypass::op::kernels
