// Range and grid kernels: arange (TVM's DynamicArange: start + step * i in the output dtype) and
// meshgrid (topi.meshgrid: grid i repeats input i along axis i, "xy" swapping the first two).
#include <cmath>
#include <cstring>
#include <string>
#include <utility>

#include "kernel_util.h"
#include "kernels.h"

namespace relaypass::op::kernels {

namespace {

double ScalarValue(const NDArray& x, const char* what) {
  if (x.size() != 1) {
    Fail(std::string("arange: ") + what + " must be a scalar, got shape " + ShapeString(x.shape()));
  }
  return CastArray(x, DataType::Float(64)).data<double>()[0];
}

}  // namespace

Arrays Arange(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 3, "arange");
  const DataType dtype = DTypeAttr(AttrsOf(attrs, "arange"), "dtype", DataType::Float32());
  const double start = ScalarValue(in[0], "start");
  const double stop = ScalarValue(in[1], "stop");
  const double step = ScalarValue(in[2], "step");
  if (step == 0) Fail("arange: step must not be zero");
  const double count = std::ceil((stop - start) / step);
  if (std::isnan(count)) Fail("arange: the number of values is not a number");
  // An empty range where numpy's would be; 2^62 values is beyond any memory budget.
  if (count > 4611686018427387904.0) Fail("arange: too many values");
  const int64_t n = count > 0 ? static_cast<int64_t>(count) : 0;
  // Half-precision results are computed in float32 and narrowed, as the other kernels do.
  const DataType work = IsHalf(dtype) ? DataType::Float32() : dtype;
  NDArray out = NDArray::Uninitialized({n}, work);
  DispatchNumeric(work, "arange", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T first = CastArray(in[0], work).data<T>()[0];
    const T delta = CastArray(in[2], work).data<T>()[0];
    T* po = out.mutable_data<T>();
    for (int64_t i = 0; i < n; ++i) po[i] = WrapAdd<T>(first, WrapMul<T>(delta, static_cast<T>(i)));
  });
  return {work == dtype ? out : CastArray(out, dtype)};
}

Arrays Meshgrid(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  if (in.empty()) Fail("meshgrid requires at least one tensor");
  const bool xy = AttrsOf(attrs, "meshgrid").get_string("indexing") == "xy";
  const DataType dtype = in[0].dtype();
  Shape grid;
  for (const NDArray& x : in) {
    if (x.ndim() > 1 || x.dtype() != dtype) {
      Fail("meshgrid requires scalars or 1-D tensors of one dtype, got " + ShapeString(x.shape()) +
           " " + x.dtype().ToString());
    }
    grid.push_back(x.ndim() == 0 ? 1 : x.shape()[0]);
  }
  if (xy && grid.size() >= 2) std::swap(grid[0], grid[1]);
  const Shape strides = Strides(grid);
  const size_t eb = dtype.bytes();
  Arrays out;
  for (size_t i = 0; i < in.size(); ++i) {
    // The grid axis that indexes input i.
    const size_t axis = xy && i < 2 ? 1 - i : i;
    NDArray g = NDArray::Uninitialized(grid, dtype);
    auto* po = static_cast<uint8_t*>(g.mutable_raw_data());
    const auto* pi = static_cast<const uint8_t*>(in[i].raw_data());
    const int64_t extent = grid[axis];
    for (int64_t k = 0; k < g.size(); ++k) {
      const int64_t j = (k / strides[axis]) % extent;
      std::memcpy(po + k * eb, pi + (in[i].ndim() == 0 ? 0 : j) * eb, eb);
    }
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace relaypass::op::kernels
