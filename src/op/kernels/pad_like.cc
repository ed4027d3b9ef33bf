// nn.mirror_pad (topi.nn.mirror_pad: NumPy's symmetric / reflect, one fold) and nn.dilate
// (topi.nn.dilate): each output element is the input element a per-axis table names, or a fill
// (GatherAxes, kernel_util.h).
#include "kernel_util.h"
#include "kernels.h"

namespace relaypass::op::kernels {

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
