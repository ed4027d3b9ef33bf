// argwhere and unique: kernels whose result sizes come from the data's values.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <type_traits>

#include "kernel_util.h"
#include "kernels.h"

namespace relaypass::op::kernels {

namespace {

// A strict weak order on values with NaN after every number and NaNs equal to each other (so
// that sorting never sees an invalid comparator; all NaNs make one unique value).
template <typename T>
bool Before(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a)) return false;
    if (std::isnan(b)) return true;
  }
  return a < b;
}

void CheckInt32Extent(int64_t n, const char* op) {
  if (n > 2147483647) Fail(std::string(op) + ": more elements than int32 indices address");
}

}  // namespace

// The coordinates (row-major order) of the elements that are not zero (false), one int32 row of
// ndim values each: numpy.argwhere.
Arrays ArgWhere(const Arrays& in, const ir::Attrs&, const ir::Type&) {
  CheckInputs(in, 1, "argwhere");
  const NDArray x = IsHalf(in[0].dtype()) ? CastArray(in[0], DataType::Float32()) : in[0];
  const Shape& shape = x.shape();
  const int64_t ndim = x.ndim();
  for (int64_t d : shape) CheckInt32Extent(d, "argwhere");
  std::vector<int64_t> hits;
  DispatchNumeric(x.dtype(), "argwhere", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* px = x.data<T>();
    for (int64_t i = 0; i < x.size(); ++i) {
      if (px[i] != T(0)) hits.push_back(i);
    }
  });
  NDArray out =
      NDArray::Uninitialized({static_cast<int64_t>(hits.size()), ndim}, DataType::Int32());
  int32_t* po = out.mutable_data<int32_t>();
  for (size_t h = 0; h < hits.size(); ++h) {
    int64_t rest = hits[h];
    for (int64_t d = ndim - 1; d >= 0; --d) {
      po[h * ndim + d] = static_cast<int32_t>(rest % shape[d]);
      rest /= shape[d];
    }
  }
  return {out};
}

// TVM's unique: [unique, indices, inverse_indices, num_unique(, counts)]. The unique values come
// in ascending order (sorted) or in the order of their first occurrence; indices holds each
// one's first occurrence. The arrays are as long as the data: past num_unique, unique and counts
// hold 0 and indices the data's length (TVM leaves unique and counts undefined there).
Arrays Unique(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 1, "unique");
  const ir::AttrsNode& a = AttrsOf(attrs, "unique");
  const bool sorted = a.get_bool("sorted");
  const bool with_counts = a.get_bool("return_counts");
  const NDArray& data = in[0];
  if (data.ndim() != 1) Fail("unique: input must be 1-D, got " + ShapeString(data.shape()));
  const int64_t n = data.size();
  CheckInt32Extent(n, "unique");
  const DataType i32 = DataType::Int32();
  NDArray first = NDArray::Uninitialized({n}, i32);
  NDArray inverse = NDArray::Uninitialized({n}, i32);
  NDArray count = NDArray::Empty({1}, i32);
  NDArray counts = NDArray::Empty({n}, i32);
  int32_t* pf = first.mutable_data<int32_t>();
  int32_t* pinv = inverse.mutable_data<int32_t>();
  int32_t* pc = counts.mutable_data<int32_t>();
  std::fill(pf, pf + n, static_cast<int32_t>(n));
  const NDArray x = IsHalf(data.dtype()) ? CastArray(data, DataType::Float32()) : data;
  NDArray work = NDArray::Empty({n}, x.dtype());
  int32_t groups = 0;
  DispatchNumeric(x.dtype(), "unique", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* px = x.data<T>();
    std::vector<int64_t> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t i, int64_t j) { return Before(px[i], px[j]); });
    // group[k]: the rank (in ascending order) of the k-th sorted element's value.
    std::vector<int32_t> group(static_cast<size_t>(n));
    for (int64_t k = 0; k < n; ++k) {
      const bool starts = k == 0 || Before(px[order[k - 1]], px[order[k]]);
      if (starts) ++groups;
      group[k] = groups - 1;
    }
    // slot[g]: where value rank g goes in the output (its rank, or its first occurrence's order).
    std::vector<int32_t> slot(static_cast<size_t>(groups));
    std::vector<int64_t> first_of(static_cast<size_t>(groups));
    for (int64_t k = n - 1; k >= 0; --k) first_of[group[k]] = order[k];  // stable: least index
    std::iota(slot.begin(), slot.end(), 0);
    if (!sorted) {
      std::vector<int32_t> by_first(slot);
      std::sort(by_first.begin(), by_first.end(),
                [&](int32_t g, int32_t h) { return first_of[g] < first_of[h]; });
      for (int32_t r = 0; r < groups; ++r) slot[by_first[r]] = r;
    }
    T* pv = work.mutable_data<T>();
    for (int64_t k = 0; k < n; ++k) {
      const int32_t s = slot[group[k]];
      pinv[order[k]] = s;
      ++pc[s];
      pv[s] = px[order[k]];
    }
    for (int32_t g = 0; g < groups; ++g) pf[slot[g]] = static_cast<int32_t>(first_of[g]);
  });
  const NDArray values = work.dtype() == data.dtype() ? work : CastArray(work, data.dtype());
  count.mutable_data<int32_t>()[0] = groups;
  Arrays out = {values, first, inverse, count};
  if (with_counts) out.push_back(counts);
  return out;
}

}  // namespace relaypass::op::kernels
