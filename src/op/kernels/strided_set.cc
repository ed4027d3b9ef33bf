// strided_set: a copy of data whose slice begin:end:strides (NumPy's slice semantics per axis, as
// topi.testing.strided_set_python; missing axes take the whole axis) is set to v, broadcast to
// the slice's shape.
#include <algorithm>
#include <cstring>
#include <optional>

#include "kernel_util.h"
#include "strided_set.h"

namespace relaypass::op::kernels {

namespace {

// The indices of NumPy's slice(begin, end, step) of an axis of `n` (nullopt: not given).
std::vector<int64_t> SliceIndices(int64_t n, std::optional<int64_t> begin,
                                  std::optional<int64_t> end, int64_t step) {
  // Clamped as Python's slice.indices: [0, n] for a positive step, [-1, n - 1] for a negative.
  const int64_t low = step > 0 ? 0 : -1, high = step > 0 ? n : n - 1;
  auto clamp = [&](int64_t v) {
    if (v < 0) v = v < -n ? low : v + n;  // v >= -n here, so v + n cannot overflow
    return std::clamp(v, low, high);
  };
  int64_t start = begin ? clamp(*begin) : (step > 0 ? 0 : n - 1);
  const int64_t stop = end ? clamp(*end) : (step > 0 ? n : -1);
  // A step beyond the axis picks one index either way; bounded, `start + step` cannot overflow.
  step = step > 0 ? std::min(step, n + 1) : std::max(step, -(n + 1));
  std::vector<int64_t> out;
  for (; step > 0 ? start < stop : start > stop; start += step) {
    out.push_back(start);
  }
  return out;
}

std::vector<int64_t> IntValues(const NDArray& x) {
  const NDArray v = CastArray(x, DataType::Int(64));
  return std::vector<int64_t>(v.data<int64_t>(), v.data<int64_t>() + v.size());
}

}  // namespace

Arrays StridedSet(const Arrays& in, const ir::Attrs&, const ir::Type&) {
  const char* op = "strided_set";
  CheckInputs(in, 5, op);
  const NDArray& data = in[0];
  if (in[1].dtype() != data.dtype()) Fail("strided_set: v and data differ in dtype");
  const std::vector<int64_t> begin = IntValues(in[2]), end = IntValues(in[3]);
  const std::vector<int64_t> strides = IntValues(in[4]);
  const int nd = data.ndim();
  std::vector<std::vector<int64_t>> picks(nd);
  Shape slice_shape(nd);
  for (int d = 0; d < nd; ++d) {
    const size_t i = static_cast<size_t>(d);
    const int64_t step = i < strides.size() ? strides[i] : 1;
    if (step == 0) Fail("strided_set: strides must not be zero");
    picks[i] = SliceIndices(data.shape()[d],
                            i < begin.size() ? std::optional<int64_t>(begin[i]) : std::nullopt,
                            i < end.size() ? std::optional<int64_t>(end[i]) : std::nullopt, step);
    slice_shape[i] = static_cast<int64_t>(picks[i].size());
  }
  // v broadcasts to the slice (NumPy's assignment): trailing axes aligned, each 1 or equal.
  const NDArray& v = in[1];
  if (v.ndim() > nd) Fail("strided_set: v has more axes than data");
  const int lead = nd - v.ndim();
  for (int d = 0; d < v.ndim(); ++d) {
    if (v.shape()[d] != 1 && v.shape()[d] != slice_shape[lead + d]) {
      Fail("strided_set: v " + ShapeString(v.shape()) + " does not broadcast to the slice " +
           ShapeString(slice_shape));
    }
  }
  NDArray out = NDArray::FromBytes(data.shape(), data.dtype(), data.raw_data());
  const int64_t count = NumElements(slice_shape);
  if (count == 0) return {out};
  const Shape out_strides = Strides(data.shape());
  const Shape v_strides = Strides(v.shape());
  const size_t elem = data.dtype().bytes();
  auto* dst = static_cast<uint8_t*>(out.mutable_raw_data());
  const auto* src = static_cast<const uint8_t*>(v.raw_data());
  std::vector<int64_t> idx(nd, 0);
  for (int64_t k = 0; k < count; ++k) {
    int64_t o = 0, s = 0;
    for (int d = 0; d < nd; ++d) {
      o += picks[d][idx[d]] * out_strides[d];
      if (d >= lead && v.shape()[d - lead] != 1) s += idx[d] * v_strides[d - lead];
    }
    std::memcpy(dst + o * elem, src + s * elem, elem);
    for (int d = nd - 1; d >= 0; --d) {
      if (++idx[d] < slice_shape[d]) break;
      idx[d] = 0;
    }
  }
  return {out};
}

}  // namespace relaypass::op::kernels
