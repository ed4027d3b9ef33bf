// nn.mirror_pad (topi.nn.mirror_pad: NumPy's symmetric / reflect, one fold) and nn.dilate
// (topi.nn.dilate): each output element is the input element a per-axis table names, or a fill.
#include <cstring>

#include "kernel_util.h"
#include "kernels.h"

namespace relaypass::op::kernels {

namespace {

// Fills `out`: out[i0, i1, ...] = data[source[0][i0], source[1][i1], ...], or `fill` (one
// element of data's dtype) where any axis's source is -1. Every source entry is in
// [-1, data extent). `out` is allocated by the caller before the tables, so a size that cannot be
// had fails before they are built (their lengths are its extents).
NDArray GatherAxes(const NDArray& data, NDArray out,
                   const std::vector<std::vector<int64_t>>& source, const void* fill) {
  if (out.size() == 0) return out;
  const Shape& out_shape = out.shape();
  const int nd = data.ndim();
  const Shape strides = Strides(data.shape());
  const size_t elem = data.dtype().bytes();
  const auto* src = static_cast<const uint8_t*>(data.raw_data());
  auto* dst = static_cast<uint8_t*>(out.mutable_raw_data());
  std::vector<int64_t> idx(nd, 0);
  for (int64_t o = 0; o < out.size(); ++o) {
    int64_t offset = 0;
    for (int d = 0; d < nd && offset >= 0; ++d) {
      const int64_t s = source[d][idx[d]];
      offset = s < 0 ? -1 : offset + s * strides[d];
    }
    std::memcpy(dst + o * elem, offset < 0 ? fill : src + offset * elem, elem);
    for (int d = nd - 1; d >= 0; --d) {
      if (++idx[d] < out_shape[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

}  // namespace

Arrays MirrorPad(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  const char* op = "nn.mirror_pad";
  CheckInputs(in, 1, op);
  const ir::AttrsNode& a = AttrsOf(attrs, op);
  const NDArray& data = in[0];
  const std::string& mode = a.get_string("mode");
  if (mode != "SYMMETRIC" && mode != "REFLECT") Fail("nn.mirror_pad: unsupported mode " + mode);
  const int64_t reflect = mode == "REFLECT" ? 1 : 0;  // REFLECT leaves the edge out
  const std::vector<ir::AttrValue>& rows = a.get("pad_width").as_array();
  const int nd = data.ndim();
  if (static_cast<int>(rows.size()) != nd) Fail("nn.mirror_pad: pad_width does not match the rank");
  Shape out_shape(nd);
  std::vector<std::vector<int64_t>> pads(nd);
  for (int d = 0; d < nd; ++d) {
    pads[d] = rows[d].as_ints();
    const int64_t n = data.shape()[d];
    if (pads[d].size() != 2) Fail("nn.mirror_pad: each pad_width entry needs [before, after]");
    for (int64_t w : pads[d]) {
      // One fold of the mirror: a wider pad would read outside the data.
      if (w < 0 || w > n - reflect) {
        Fail("nn.mirror_pad: pad width " + std::to_string(w) + " on axis " + std::to_string(d) +
             " does not fit the " + mode + " mirror of extent " + std::to_string(n));
      }
    }
    out_shape[d] = n + pads[d][0] + pads[d][1];  // each at most n: no overflow
  }
  NDArray out = NDArray::Uninitialized(out_shape, data.dtype());
  if (out.size() == 0) return {out};
  std::vector<std::vector<int64_t>> source(nd);
  for (int d = 0; d < nd; ++d) {
    const int64_t n = data.shape()[d], before = pads[d][0];
    for (int64_t i = 0; i < out_shape[d]; ++i) {
      const int64_t s = i - before;
      source[d].push_back(s < 0 ? -s - 1 + reflect : (s >= n ? 2 * n - 1 - s - reflect : s));
    }
  }
  return {GatherAxes(data, std::move(out), source, nullptr)};
}

Arrays Dilate(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  const char* op = "nn.dilate";
  CheckInputs(in, 1, op);
  const ir::AttrsNode& a = AttrsOf(attrs, op);
  const NDArray& data = in[0];
  const std::vector<int64_t> strides = a.get_ints("strides");
  const int nd = data.ndim();
  if (static_cast<int>(strides.size()) != nd) Fail("nn.dilate: strides does not match the rank");
  Shape out_shape(nd);
  for (int d = 0; d < nd; ++d) {
    if (strides[d] < 1) Fail("nn.dilate: strides must be positive");
    const int64_t n = data.shape()[d];
    if (n == 0) {
      out_shape[d] = 0;
    } else if (__builtin_mul_overflow(n - 1, strides[d], &out_shape[d]) ||
               __builtin_add_overflow(out_shape[d], 1, &out_shape[d])) {
      Fail("nn.dilate: the dilated extent of axis " + std::to_string(d) + " overflows int64");
    }
  }
  NDArray out = NDArray::Uninitialized(out_shape, data.dtype());
  if (out.size() == 0) return {out};
  std::vector<std::vector<int64_t>> source(nd);
  for (int d = 0; d < nd; ++d) {
    for (int64_t i = 0; i < out_shape[d]; ++i) {
      source[d].push_back(i % strides[d] == 0 ? i / strides[d] : -1);
    }
  }
  const NDArray fill = CastArray(
      NDArray::Scalar<double>(a.get_double("dilation_value"), DataType::Float(64)), data.dtype());
  return {GatherAxes(data, std::move(out), source, fill.raw_data())};
}

}  // namespace relaypass::op::kernels
