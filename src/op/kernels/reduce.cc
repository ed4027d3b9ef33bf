// sum, mean, prod, max, min, all and any over `axis` (None or [] = every axis; `exclude` reduces
// the others; `keepdims`), and variance (sum of squared differences from a given mean, divided by
// the count), and collapse_sum_like / collapse_sum_to (the sum undoing a broadcast). Floats
// accumulate in double; integers in their own type (wrapping, as TVM's integer sum).
#include <algorithm>
#include <limits>
#include <type_traits>
#include <vector>

#include "kernel_util.h"
#include "kernels.h"
#include "relaypass/support/parallel.h"
#include "target_clones.h"

namespace relaypass::op::kernels {

namespace {

enum class Reduction { kSum, kMean, kProd, kMax, kMin, kAll, kAny };

// The reduction's identity: what an empty reduction gives (TVM: max of nothing is the lowest
// value, -inf for floats).
template <typename Acc>
Acc Identity(Reduction r) {
  using L = std::numeric_limits<Acc>;
  switch (r) {
    case Reduction::kProd:
    case Reduction::kAll:
      return Acc(1);
    case Reduction::kMax:
      return L::has_infinity ? -L::infinity() : L::lowest();
    case Reduction::kMin:
      return L::has_infinity ? L::infinity() : L::max();
    default:
      return Acc(0);
  }
}

template <typename Acc>
Acc Combine(Reduction r, Acc acc, Acc v) {
  switch (r) {
    case Reduction::kProd:
      return WrapMul<Acc>(acc, v);
    case Reduction::kMax:
      return std::max(acc, v);
    case Reduction::kMin:
      return std::min(acc, v);
    case Reduction::kAll:
      return static_cast<Acc>(acc != Acc(0) && v != Acc(0));
    case Reduction::kAny:
      return static_cast<Acc>(acc != Acc(0) || v != Acc(0));
    default:
      return WrapAdd<Acc>(acc, v);
  }
}

// The double sum of n floats, in eight interleaved partial sums (element i into sum i % 8, the
// eight then added in order): vector registers instead of one long chain of dependent adds.
RELAYPASS_AVX2_CLONES double SumFloats(const float* x, int64_t n) {
  double part[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    for (int l = 0; l < 8; ++l) part[l] += static_cast<double>(x[i + l]);
  }
  for (int l = 0; i < n; ++i, ++l) part[l] += static_cast<double>(x[i]);
  double sum = 0;
  for (double v : part) sum += v;
  return sum;
}

// A float32 sum or mean over trailing axes (`count` contiguous elements for each output
// element, count > 0): layer norm's mean and variance over the hidden axis. Rows split over
// support::ParallelFor; each row's sum is the same at any thread count.
NDArray SumTrailing(const NDArray& data, const Shape& out_shape, int64_t count, bool mean) {
  NDArray out = NDArray::Uninitialized(out_shape, data.dtype());
  const float* src = data.data<float>();
  float* dst = out.mutable_data<float>();
  const int64_t rows = out.size();
  support::ParallelFor(
      rows, std::max<int64_t>(1, kParallelGrain / count), [&](int64_t first, int64_t last) {
        for (int64_t r = first; r < last; ++r) {
          const double sum = SumFloats(src + r * count, count);
          dst[r] = static_cast<float>(mean ? sum / static_cast<double>(count) : sum);
        }
      });
  return out;
}

Arrays Reduce(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type,
              Reduction reduction, const char* op) {
  const bool mean = reduction == Reduction::kMean;
  CheckInputs(in, 1, op);
  const ir::AttrsNode& a = AttrsOf(attrs, op);
  const ir::AttrValue& axis = a.get("axis");
  const bool keepdims = a.get_bool("keepdims");
  const bool exclude = a.get_bool("exclude");
  return PromoteHalf(in, out_type, [&](const Arrays& x) -> Arrays {
    const NDArray& data = x[0];
    const int nd = data.ndim();
    const bool all = axis.is_null() || axis.as_array().empty();
    std::vector<bool> reduced(nd, all);
    if (!all) {
      for (int64_t v : axis.as_ints())
        reduced[NormalizeAxis(v, nd, std::string(op) + ": axis")] = true;
      if (exclude) reduced.flip();
    }
    Shape out_shape, kept_shape(nd);  // kept_shape: the output with reduced axes as 1
    int64_t count = 1;
    for (int i = 0; i < nd; ++i) {
      kept_shape[i] = reduced[i] ? 1 : data.shape()[i];
      if (reduced[i]) count *= data.shape()[i];
      if (!reduced[i]) {
        out_shape.push_back(data.shape()[i]);
      } else if (keepdims) {
        out_shape.push_back(1);
      }
    }
    // Output strides along the input's axes (0 on reduced axes).
    Shape out_strides = Strides(kept_shape);
    for (int i = 0; i < nd; ++i) {
      if (reduced[i]) out_strides[i] = 0;
    }
    const bool trailing = std::is_sorted(reduced.begin(), reduced.end());  // false... then true...
    if (data.dtype() == DataType::Float32() && (mean || reduction == Reduction::kSum) && trailing &&
        count > 0) {
      return {SumTrailing(data, out_shape, count, mean)};
    }
    return {DispatchNumeric(data.dtype(), op, [&](auto tag) {
      using T = typename decltype(tag)::type;
      using Acc = std::conditional_t<std::is_floating_point_v<T>, double, T>;
      NDArray out = NDArray::Uninitialized(out_shape, data.dtype());
      std::vector<Acc> acc(static_cast<size_t>(out.size()), Identity<Acc>(reduction));
      const T* src = data.data<T>();
      std::vector<int64_t> idx(nd, 0);
      int64_t o = 0;
      const int64_t n = data.size();
      for (int64_t i = 0; i < n; ++i) {
        acc[o] = Combine<Acc>(reduction, acc[o], static_cast<Acc>(src[i]));
        for (int d = nd - 1; d >= 0; --d) {
          o += out_strides[d];
          if (++idx[d] < data.shape()[d]) break;
          o -= out_strides[d] * data.shape()[d];
          idx[d] = 0;
        }
      }
      T* dst = out.mutable_data<T>();
      for (int64_t j = 0; j < out.size(); ++j) {
        Acc v = acc[j];
        if constexpr (std::is_floating_point_v<T>) {
          if (mean) v /= static_cast<Acc>(count);  // 0/0 is NaN, as TVM's mean of nothing
        } else {
          // In 64 bits: the count need not fit T (a mean of 256 int8 values divided by 0).
          if constexpr (std::is_signed_v<Acc>) {
            if (mean && count) v = static_cast<Acc>(static_cast<int64_t>(v) / count);
          } else {
            if (mean && count) {
              v = static_cast<Acc>(static_cast<uint64_t>(v) / static_cast<uint64_t>(count));
            }
          }
        }
        dst[j] = static_cast<T>(v);
      }
      return out;
    })};
  });
}

// collapse_sum: data summed into `target`, which must broadcast to the data's shape (aligned
// from the right, each dim equal or 1); leading axes and stretched 1s are summed over.
Arrays CollapseSum(const Arrays& in, const ir::Type& out_type, const Shape& target,
                   const char* op) {
  const Shape& shape = in[0].shape();
  const int nd = static_cast<int>(shape.size());
  const int off = nd - static_cast<int>(target.size());
  bool ok = off >= 0;
  for (size_t i = 0; ok && i < target.size(); ++i) {
    ok = target[i] == 1 || target[i] == shape[off + i];
  }
  if (!ok) {
    Fail(std::string(op) + ": " + ShapeString(target) + " does not broadcast to data " +
         ShapeString(shape));
  }
  return PromoteHalf(in, out_type, [&](const Arrays& x) -> Arrays {
    const NDArray& data = x[0];
    const Shape tstrides = Strides(target);
    Shape out_strides(nd, 0);  // along the data's axes; 0 where the axis is summed
    for (int i = off; i < nd; ++i) {
      if (target[i - off] != 1 || shape[i] == 1) out_strides[i] = tstrides[i - off];
    }
    return {DispatchNumeric(data.dtype(), op, [&](auto tag) {
      using T = typename decltype(tag)::type;
      using Acc = std::conditional_t<std::is_floating_point_v<T>, double, T>;
      NDArray out = NDArray::Uninitialized(target, data.dtype());
      std::vector<Acc> acc(static_cast<size_t>(out.size()), Acc(0));
      const T* src = data.data<T>();
      std::vector<int64_t> idx(nd, 0);
      int64_t o = 0;
      for (int64_t i = 0; i < data.size(); ++i) {
        acc[o] = Combine<Acc>(Reduction::kSum, acc[o], static_cast<Acc>(src[i]));
        for (int d = nd - 1; d >= 0; --d) {
          o += out_strides[d];
          if (++idx[d] < shape[d]) break;
          o -= out_strides[d] * shape[d];
          idx[d] = 0;
        }
      }
      T* dst = out.mutable_data<T>();
      for (int64_t j = 0; j < out.size(); ++j) dst[j] = static_cast<T>(acc[j]);
      return out;
    })};
  });
}

}  // namespace

Arrays CollapseSumLike(const Arrays& in, const ir::Attrs&, const ir::Type& out_type) {
  CheckInputs(in, 2, "collapse_sum_like");
  return CollapseSum({in[0]}, out_type, in[1].shape(), "collapse_sum_like");
}

Arrays CollapseSumTo(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  CheckInputs(in, 2, "collapse_sum_to");
  const ir::AttrValue& attr = AttrsOf(attrs, "collapse_sum_to").get("shape");
  const NDArray& shape = in[1];
  if ((!shape.dtype().is_int() && !shape.dtype().is_uint()) || shape.ndim() != 1) {
    Fail("collapse_sum_to: shape must be a 1-D integer tensor");
  }
  const NDArray values = CastArray(shape, DataType::Int64());
  Shape target(values.data<int64_t>(), values.data<int64_t>() + values.size());
  if (!attr.is_null() && attr.as_ints() != target) {
    Fail("collapse_sum_to: the shape attribute and the shape input differ");
  }
  return CollapseSum({in[0]}, out_type, target, "collapse_sum_to");
}

Arrays Sum(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  return Reduce(in, attrs, out_type, Reduction::kSum, "sum");
}

Arrays Mean(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  return Reduce(in, attrs, out_type, Reduction::kMean, "mean");
}

Arrays Prod(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  return Reduce(in, attrs, out_type, Reduction::kProd, "prod");
}

Arrays Max(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  return Reduce(in, attrs, out_type, Reduction::kMax, "max");
}

Arrays Min(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  return Reduce(in, attrs, out_type, Reduction::kMin, "min");
}

Arrays All(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  return Reduce(in, attrs, out_type, Reduction::kAll, "all");
}

Arrays Any(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  return Reduce(in, attrs, out_type, Reduction::kAny, "any");
}

// TVM's topi variance: sum((data - mean)^2) over the reduced axes, divided by the number of
// elements reduced (one fewer when `unbiased`); `mean` broadcasts against `data` as in subtract.
Arrays Variance(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  CheckInputs(in, 2, "variance");
  const bool unbiased = AttrsOf(attrs, "variance").get_bool("unbiased");
  return PromoteHalf(in, out_type, [&](const Arrays& x) -> Arrays {
    DispatchFloat(x[0].dtype(), "variance", [](auto) {});
    const ir::Type diff_type = ir::TensorType(x[0].shape(), x[0].dtype());
    const NDArray diff = Subtract({x[0], x[1]}, ir::Attrs(), diff_type)[0];
    const NDArray squares = Multiply({diff, diff}, ir::Attrs(), diff_type)[0];
    NDArray out = Reduce({squares}, attrs, out_type, Reduction::kSum, "variance")[0];
    // The output has one element per group of `count` reduced elements (none when empty).
    const int64_t count = out.size() > 0 ? squares.size() / out.size() : 0;
    return {DispatchFloat(out.dtype(), "variance", [&](auto tag) {
      using T = typename decltype(tag)::type;
      T* v = out.mutable_data<T>();
      const T divisor = static_cast<T>(count - (unbiased ? 1 : 0));
      for (int64_t i = 0; i < out.size(); ++i) v[i] /= divisor;
      return out;
    })};
  });
}

}  // namespace relaypass::op::kernels
