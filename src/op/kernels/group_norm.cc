// nn.group_norm and nn.l2_normalize (float types, half by widening). Group norm: for each index
// of the axes before `axis` and each group of channels, the mean and (population) variance over
// the group's channels and every axis after `axis`, as TVM's GroupNormToInferUnpack reduces.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "kernel_util.h"
#include "kernels.h"

namespace relaypass::op::kernels {

Arrays GroupNorm(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  const char* op = "nn.group_norm";
  CheckInputs(in, 3, op);
  const ir::AttrsNode& a = AttrsOf(attrs, op);
  const double eps = a.get_double("epsilon");
  const bool center = a.get_bool("center"), scale = a.get_bool("scale");
  const int64_t groups = a.get_int("num_groups");
  return PromoteHalf(in, out_type, [&](const Arrays& x) -> Arrays {
    const NDArray& data = x[0];
    const int axis = NormalizeAxis(a.get_int("axis"), data.ndim(), "nn.group_norm: axis");
    const int64_t channels = data.shape()[axis];
    if (groups < 1 || channels % groups != 0) {
      Fail("nn.group_norm: num_groups=" + std::to_string(groups) +
           " must be positive and divide the " + std::to_string(channels) + " channels");
    }
    for (size_t i = 1; i < 3; ++i) {
      if (x[i].ndim() != 1 || x[i].size() != channels) {
        Fail(std::string(op) + ": " + (i == 1 ? "gamma " : "beta ") + ShapeString(x[i].shape()) +
             " does not match the " + std::to_string(channels) + " channels");
      }
    }
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < axis; ++d) outer *= data.shape()[d];
    for (int d = axis + 1; d < data.ndim(); ++d) inner *= data.shape()[d];
    const int64_t per_group = channels / groups;
    const int64_t len = per_group * inner;  // elements of one group, contiguous
    return {DispatchFloat(data.dtype(), op, [&](auto tag) {
      using T = typename decltype(tag)::type;
      const NDArray gamma = CastArray(x[1], data.dtype()), beta = CastArray(x[2], data.dtype());
      const T* pg = gamma.data<T>();
      const T* pb = beta.data<T>();
      const T* pi = data.data<T>();
      NDArray out = NDArray::Uninitialized(data.shape(), data.dtype());
      T* po = out.mutable_data<T>();
      for (int64_t g = 0; g < outer * groups; ++g) {
        const T* src = pi + g * len;
        T* dst = po + g * len;
        double mean = 0, var = 0;
        for (int64_t j = 0; j < len; ++j) mean += src[j];
        mean /= static_cast<double>(len);
        for (int64_t j = 0; j < len; ++j) var += (src[j] - mean) * (src[j] - mean);
        var /= static_cast<double>(len);
        const double inv = 1.0 / std::sqrt(var + eps);
        for (int64_t j = 0; j < len; ++j) {
          const int64_t c = (g % groups) * per_group + j / std::max<int64_t>(inner, 1);
          double v = (src[j] - mean) * inv;
          if (scale) v *= static_cast<double>(pg[c]);
          if (center) v += static_cast<double>(pb[c]);
          dst[j] = static_cast<T>(v);
        }
      }
      return out;
    })};
  });
}

Arrays L2Normalize(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  const char* op = "nn.l2_normalize";
  CheckInputs(in, 1, op);
  const ir::AttrsNode& a = AttrsOf(attrs, op);
  const double eps = a.get_double("eps");
  return PromoteHalf(in, out_type, [&](const Arrays& x) -> Arrays {
    const NDArray& data = x[0];
    const int nd = data.ndim();
    std::vector<bool> reduced(nd, a.get("axis").is_null());
    if (!a.get("axis").is_null()) {
      for (int64_t axis : a.get_ints("axis")) {
        reduced[NormalizeAxis(axis, nd, "nn.l2_normalize: axis")] = true;
      }
    }
    // Each element's slot in the reduced sums: its index with the reduced axes dropped.
    const Shape strides = Strides(data.shape());
    Shape kept_strides(nd, 0);
    int64_t slots = 1;
    for (int d = nd; d-- > 0;) {
      if (reduced[d]) continue;
      kept_strides[d] = slots;
      slots *= data.shape()[d];
    }
    return {DispatchFloat(data.dtype(), op, [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* pi = data.data<T>();
      auto slot_of = [&](int64_t i) {
        int64_t slot = 0;
        for (int d = 0; d < nd; ++d) slot += (i / strides[d]) % data.shape()[d] * kept_strides[d];
        return slot;
      };
      // The sums are a budgeted tensor, as every scratch buffer sized by the input.
      NDArray sums_array = NDArray::Empty({slots}, DataType::Float(64));
      double* sums = sums_array.mutable_data<double>();
      for (int64_t i = 0; i < data.size(); ++i) {
        sums[slot_of(i)] += static_cast<double>(pi[i]) * static_cast<double>(pi[i]);
      }
      NDArray out = NDArray::Uninitialized(data.shape(), data.dtype());
      T* po = out.mutable_data<T>();
      for (int64_t i = 0; i < data.size(); ++i) {
        po[i] = static_cast<T>(pi[i] / std::sqrt(std::max(sums[slot_of(i)], eps)));
      }
      return out;
    })};
  });
}

}  // namespace relaypass::op::kernels
