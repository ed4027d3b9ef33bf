// Indexing kernels: take, strided_slice, broadcast_to, tile, reverse, gather, gather_nd,
// one_hot, cumsum, topk, sort, argsort, searchsorted, trilu, einsum, scatter_elements,
// scatter_nd, reverse_sequence, sequence_mask, matrix_set_diag, slice_like, argmax and argmin. Data
// movement copies element bytes, so it takes every dtype; indices may be any integer dtype.
#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "kernel_util.h"
#include "kernels.h"

namespace relaypass::op::kernels {

namespace {

std::vector<int64_t> IndexValues(const NDArray& indices, const char* op) {
  if (!indices.dtype().is_int() && !indices.dtype().is_uint()) {
    Fail(std::string(op) + ": indices must be integers, got " + indices.dtype().ToString());
  }
  const NDArray v = CastArray(indices, DataType::Int64());
  return std::vector<int64_t>(v.data<int64_t>(), v.data<int64_t>() + v.size());
}

int64_t Product(const Shape& s, size_t begin, size_t end) {
  int64_t n = 1;
  for (size_t i = begin; i < end && i < s.size(); ++i) n *= s[i];
  return n;
}

// Steps `idx` to the next row-major position of `shape`.
void Next(std::vector<int64_t>& idx, const Shape& shape) {
  for (size_t d = idx.size(); d-- > 0;) {
    if (++idx[d] < shape[d]) return;
    idx[d] = 0;
  }
}

// Copies element bytes: out element o gets x's element source(o).
template <typename Source>
NDArray Gathered(const NDArray& x, const Shape& out_shape, Source source) {
  NDArray out = NDArray::Uninitialized(out_shape, x.dtype());
  const size_t eb = x.dtype().bytes();
  const auto* src = static_cast<const uint8_t*>(x.raw_data());
  auto* dst = static_cast<uint8_t*>(out.mutable_raw_data());
  std::vector<int64_t> idx(out_shape.size(), 0);
  for (int64_t o = 0; o < out.size(); ++o) {
    std::memcpy(dst + o * eb, src + source(idx) * eb, eb);
    Next(idx, out_shape);
  }
  return out;
}

}  // namespace

Arrays Take(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 2, "take");
  const ir::AttrsNode& a = AttrsOf(attrs, "take");
  const std::string& mode = a.get_string("mode");
  NDArray data = in[0];
  const std::vector<int64_t> indices = IndexValues(in[1], "take");
  const Shape& ishape = in[1].shape();
  int axis = 0;
  int64_t batch_dims = a.get_int("batch_dims");
  if (a.get("axis").is_null()) {
    data = Reshaped(data, {data.size()});
    batch_dims = 0;
  } else {
    axis = NormalizeAxis(a.get("axis").as_int(), data.ndim(), "take: axis");
    if (batch_dims < 0) batch_dims += static_cast<int64_t>(ishape.size());
  }
  const Shape& ds = data.shape();
  if (batch_dims < 0 || batch_dims > axis || batch_dims > static_cast<int64_t>(ishape.size())) {
    Fail("take: batch_dims out of range");
  }
  // Each batch takes from its own slice: the indices' batch dimensions must be the data's, or the
  // loop below would read past the indices.
  for (int64_t d = 0; d < batch_dims; ++d) {
    if (ishape[d] != ds[d]) Fail("take: the batch dimensions of indices and data differ");
  }
  const int64_t extent = ds[axis];
  const int64_t prefix = Product(ds, 0, axis);
  const int64_t batch_inner = Product(ds, batch_dims, axis);  // prefix positions per batch
  const int64_t tail = Product(ishape, batch_dims, ishape.size());
  const int64_t inner = Product(ds, axis + 1, ds.size());
  Shape out_shape(ds.begin(), ds.begin() + axis);
  out_shape.insert(out_shape.end(), ishape.begin() + batch_dims, ishape.end());
  out_shape.insert(out_shape.end(), ds.begin() + axis + 1, ds.end());
  NDArray out = NDArray::Uninitialized(out_shape, data.dtype());
  if (out.size() == 0) return {out};
  if (extent == 0) Fail("take: cannot take from an empty axis");
  const size_t chunk = static_cast<size_t>(inner) * data.dtype().bytes();
  const auto* src = static_cast<const uint8_t*>(data.raw_data());
  auto* dst = static_cast<uint8_t*>(out.mutable_raw_data());
  for (int64_t p = 0; p < prefix; ++p) {
    const int64_t b = p / batch_inner;
    for (int64_t j = 0; j < tail; ++j) {
      int64_t k = indices[b * tail + j];
      if (mode == "wrap") {
        k = ((k % extent) + extent) % extent;
      } else if (mode == "clip") {
        k = std::clamp<int64_t>(k, 0, extent - 1);
      } else if (k < 0 || k >= extent) {
        Fail("take: index " + std::to_string(k) + " is out of range for an axis of " +
             std::to_string(extent));
      }
      std::memcpy(dst, src + (p * extent + k) * chunk, chunk);
      dst += chunk;
    }
  }
  return {out};
}

Arrays StridedSlice(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 1, "strided_slice");
  const NDArray& x = in[0];
  std::string error;
  const std::vector<std::array<int64_t, 3>> plan =
      StridedSlicePlan(AttrsOf(attrs, "strided_slice"), x.shape(), &error);
  if (!error.empty()) Fail("strided_slice: " + error);
  Shape out_shape;
  for (const auto& p : plan) out_shape.push_back(p[2]);
  const Shape strides = Strides(x.shape());
  return {Gathered(x, out_shape, [&](const std::vector<int64_t>& idx) {
    int64_t off = 0;
    for (size_t d = 0; d < idx.size(); ++d) off += (plan[d][0] + idx[d] * plan[d][1]) * strides[d];
    return off;
  })};
}

namespace {

// `x` broadcast to `target` (NumPy's rules, `x`'s dims aligned to the right). Block by block: the
// innermost dims where `x` and `target` agree are one contiguous block of `x`; the broadcast dims
// just outside them repeat that block, which is copied once and then doubled in place (so a huge
// broadcast costs about one memcpy of the output); the remaining outer dims are walked.
NDArray Broadcast(const NDArray& x, const Shape& target, const char* op) {
  const int nd = static_cast<int>(target.size());
  const int off = nd - x.ndim();
  if (off < 0) Fail(std::string(op) + ": the target rank is below the data rank");
  Shape xs(nd, 1);
  for (int i = 0; i < x.ndim(); ++i) {
    if (x.shape()[i] != 1 && x.shape()[i] != target[off + i]) {
      Fail(std::string(op) + ": " + ShapeString(x.shape()) + " does not broadcast to " +
           ShapeString(target));
    }
    xs[off + i] = x.shape()[i];
  }
  NDArray out = NDArray::Uninitialized(target, x.dtype());
  if (out.size() == 0) return out;
  const size_t eb = x.dtype().bytes();
  int inner = nd;  // dims [inner, nd) agree
  while (inner > 0 && xs[inner - 1] == target[inner - 1]) --inner;
  int run = inner;  // dims [run, inner) are broadcast (x has 1 there)
  while (run > 0 && xs[run - 1] == 1) --run;
  int64_t block = 1, repeat = 1;
  for (int d = inner; d < nd; ++d) block *= target[d];
  for (int d = run; d < inner; ++d) repeat *= target[d];
  const size_t block_bytes = static_cast<size_t>(block) * eb;
  const size_t span_bytes = block_bytes * static_cast<size_t>(repeat);
  const Shape x_strides = Strides(xs);
  const auto* src = static_cast<const uint8_t*>(x.raw_data());
  auto* dst = static_cast<uint8_t*>(out.mutable_raw_data());
  std::vector<int64_t> idx(static_cast<size_t>(run), 0);  // over target[0, run)
  const int64_t spans = out.size() / (block * repeat);
  for (int64_t k = 0; k < spans; ++k) {
    int64_t from = 0;
    for (int d = 0; d < run; ++d) from += (xs[d] == 1 ? 0 : idx[d]) * x_strides[d];
    uint8_t* at = dst + static_cast<size_t>(k) * span_bytes;
    std::memcpy(at, src + static_cast<size_t>(from) * eb, block_bytes);
    for (size_t filled = block_bytes; filled < span_bytes;) {
      const size_t n = std::min(filled, span_bytes - filled);
      std::memcpy(at + filled, at, n);
      filled += n;
    }
    for (int d = run; d-- > 0;) {
      if (++idx[d] < target[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

}  // namespace

Arrays BroadcastTo(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 1, "broadcast_to");
  return {Broadcast(in[0], AttrsOf(attrs, "broadcast_to").get_ints("shape"), "broadcast_to")};
}

Arrays BroadcastToLike(const Arrays& in, const ir::Attrs&, const ir::Type&) {
  CheckInputs(in, 2, "broadcast_to_like");
  return {Broadcast(in[0], in[1].shape(), "broadcast_to_like")};
}

Arrays CastLike(const Arrays& in, const ir::Attrs&, const ir::Type&) {
  CheckInputs(in, 2, "cast_like");
  return {CastArray(in[0], in[1].dtype())};
}

Arrays Tile(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 1, "tile");
  std::vector<int64_t> reps = AttrsOf(attrs, "tile").get_ints("reps");
  Shape shape = in[0].shape();
  while (shape.size() < reps.size()) shape.insert(shape.begin(), 1);
  while (reps.size() < shape.size()) reps.insert(reps.begin(), 1);
  const NDArray x = Reshaped(in[0], shape);
  Shape out_shape;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (reps[i] < 0) Fail("tile: reps must not be negative");
    out_shape.push_back(shape[i] * reps[i]);
  }
  const Shape strides = Strides(shape);
  return {Gathered(x, out_shape, [&](const std::vector<int64_t>& idx) {
    int64_t o = 0;
    for (size_t d = 0; d < idx.size(); ++d) o += (idx[d] % shape[d]) * strides[d];
    return o;
  })};
}

Arrays Reverse(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 1, "reverse");
  const ir::AttrValue& axis_attr = AttrsOf(attrs, "reverse").get("axis");
  if (axis_attr.is_null()) Fail("reverse: axis must be given");
  const NDArray& x = in[0];
  const int axis = NormalizeAxis(axis_attr.as_int(), x.ndim(), "reverse: axis");
  const Shape strides = Strides(x.shape());
  return {Gathered(x, x.shape(), [&](const std::vector<int64_t>& idx) {
    int64_t o = 0;
    for (size_t d = 0; d < idx.size(); ++d) {
      const int64_t i = static_cast<int>(d) == axis ? x.shape()[d] - 1 - idx[d] : idx[d];
      o += i * strides[d];
    }
    return o;
  })};
}

Arrays Gather(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 2, "gather");
  const NDArray& x = in[0];
  const std::vector<int64_t> indices = IndexValues(in[1], "gather");
  const Shape& ishape = in[1].shape();
  if (static_cast<int>(ishape.size()) != x.ndim()) Fail("gather: ranks differ");
  const int axis = NormalizeAxis(AttrsOf(attrs, "gather").get_int("axis"), x.ndim(), "gather");
  const Shape strides = Strides(x.shape());
  int64_t flat = 0;
  return {Gathered(x, ishape, [&](const std::vector<int64_t>& idx) {
    int64_t o = 0;
    for (size_t d = 0; d < idx.size(); ++d) {
      int64_t i = idx[d];
      if (static_cast<int>(d) == axis) {
        i = indices[flat];
        if (i < 0) i += x.shape()[d];
        if (i < 0 || i >= x.shape()[d]) Fail("gather: index out of range");
      } else if (i >= x.shape()[d]) {
        Fail("gather: indices shape exceeds the data off the axis");
      }
      o += i * strides[d];
    }
    ++flat;
    return o;
  })};
}

Arrays GatherND(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 2, "gather_nd");
  const ir::AttrsNode& a = AttrsOf(attrs, "gather_nd");
  const NDArray& x = in[0];
  const std::vector<int64_t> indices = IndexValues(in[1], "gather_nd");
  const Shape& ishape = in[1].shape();
  if (ishape.empty()) Fail("gather_nd: indices must have rank >= 1");
  const int64_t b = a.get_int("batch_dims");
  const int64_t m = a.get("index_rank").is_null() ? ishape[0] : a.get_int("index_rank");
  if (b < 0 || b > x.ndim() || m < 0 || m > x.ndim() - b) {
    Fail("gather_nd: index rank exceeds the data rank");
  }
  // What the loops below index by: m index rows, and b batch axes shared by data and indices.
  if (m != ishape[0]) {
    Fail("gather_nd: attribute 'index_rank' " + std::to_string(m) +
         " is not indices' first "
         "dimension " +
         std::to_string(ishape[0]));
  }
  const Shape yshape(ishape.begin() + 1, ishape.end());
  if (b > static_cast<int64_t>(yshape.size()) ||
      !std::equal(x.shape().begin(), x.shape().begin() + b, yshape.begin())) {
    Fail("gather_nd: attribute 'batch_dims' " + std::to_string(b) + ": data " +
         ShapeString(x.shape()) + " and indices " + ShapeString(ishape) +
         " do not share that many batch axes");
  }
  const int64_t ycount = NumElements(yshape);
  const Shape strides = Strides(x.shape());
  const int64_t inner = Product(x.shape(), b + m, x.shape().size());
  Shape out_shape = yshape;
  out_shape.insert(out_shape.end(), x.shape().begin() + b + m, x.shape().end());
  NDArray out = NDArray::Uninitialized(out_shape, x.dtype());
  const size_t chunk = static_cast<size_t>(inner) * x.dtype().bytes();
  const size_t eb = x.dtype().bytes();
  const auto* src = static_cast<const uint8_t*>(x.raw_data());
  auto* dst = static_cast<uint8_t*>(out.mutable_raw_data());
  std::vector<int64_t> y(yshape.size(), 0);
  for (int64_t f = 0; f < ycount; ++f) {
    int64_t off = 0;
    for (int64_t d = 0; d < b; ++d) off += y[d] * strides[d];
    for (int64_t k = 0; k < m; ++k) {
      int64_t i = indices[k * ycount + f];
      const int64_t extent = x.shape()[b + k];
      if (i < 0) i += extent;
      if (i < 0 || i >= extent) Fail("gather_nd: index out of range");
      off += i * strides[b + k];
    }
    std::memcpy(dst + f * chunk, src + off * eb, chunk);
    Next(y, yshape);
  }
  return {out};
}

Arrays OneHot(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 3, "one_hot");
  const ir::AttrsNode& a = AttrsOf(attrs, "one_hot");
  // Float indices (which ONNX allows) are truncated, as TVM's compare after a cast.
  const NDArray cast = CastArray(in[0], DataType::Int64());
  const std::vector<int64_t> indices(cast.data<int64_t>(), cast.data<int64_t>() + cast.size());
  const int64_t depth = a.get_int("depth");
  const DataType dtype = DTypeAttr(a, "dtype", in[1].dtype());
  const NDArray on = CastArray(in[1], dtype), off = CastArray(in[2], dtype);
  if (on.size() != 1 || off.size() != 1) Fail("one_hot: on_value and off_value must be scalars");
  const Shape& ishape = in[0].shape();
  int64_t axis = a.get_int("axis");
  if (axis == -1) axis = static_cast<int64_t>(ishape.size());
  if (axis < 0 || axis > static_cast<int64_t>(ishape.size())) Fail("one_hot: axis out of range");
  Shape out_shape = ishape;
  out_shape.insert(out_shape.begin() + axis, depth);
  NDArray out = NDArray::Uninitialized(out_shape, dtype);
  const int64_t outer = Product(ishape, 0, axis), inner = Product(ishape, axis, ishape.size());
  const size_t eb = dtype.bytes();
  auto* dst = static_cast<uint8_t*>(out.mutable_raw_data());
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t d = 0; d < depth; ++d) {
      for (int64_t i = 0; i < inner; ++i, dst += eb) {
        const int64_t k = indices[o * inner + i];
        std::memcpy(dst, (k == d ? on : off).raw_data(), eb);
      }
    }
  }
  return {out};
}

Arrays CumSum(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  CheckInputs(in, 1, "cumsum");
  const ir::AttrsNode& a = AttrsOf(attrs, "cumsum");
  NDArray x = CastArray(in[0], DTypeAttr(a, "dtype", in[0].dtype()));
  int axis = 0;
  if (a.get("axis").is_null()) {
    x = Reshaped(x, {x.size()});
  } else {
    axis = NormalizeAxis(a.get_int("axis"), x.ndim(), "cumsum: axis");
  }
  const bool exclusive = !a.get("exclusive").is_null() && a.get("exclusive").as_int() != 0;
  return PromoteHalf({x}, out_type, [&](const Arrays& v) -> Arrays {
    const NDArray& data = v[0];
    const int64_t outer = Product(data.shape(), 0, axis);
    const int64_t n = data.shape()[axis];
    const int64_t inner = Product(data.shape(), axis + 1, data.shape().size());
    return {DispatchNumeric(data.dtype(), "cumsum", [&](auto tag) {
      using T = typename decltype(tag)::type;
      NDArray out = NDArray::Uninitialized(data.shape(), data.dtype());
      const T* pi = data.data<T>();
      T* po = out.mutable_data<T>();
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t i = 0; i < inner; ++i) {
          T acc = T(0);
          for (int64_t k = 0; k < n; ++k) {
            const int64_t at = (o * n + k) * inner + i;
            if (exclusive) {
              po[at] = acc;
              acc = WrapAdd<T>(acc, pi[at]);
            } else {
              acc = WrapAdd<T>(acc, pi[at]);
              po[at] = acc;
            }
          }
        }
      }
      return out;
    })};
  });
}

namespace {

// For every line of `data` (outer x n x inner, the line along the middle axis), the stable order
// of its n elements: ascending, or descending with equal elements kept in their order (TVM's CPU
// topk and argsort). Calls emit(o, i, order, at), where at(j) is the line's element j.
template <typename T, typename Emit>
void ForEachSortedLine(const T* data, int64_t outer, int64_t n, int64_t inner, bool ascend,
                       Emit&& emit) {
  std::vector<int64_t> order(n);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      auto at = [&](int64_t j) { return data[(o * n + j) * inner + i]; };
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(), [&](int64_t l, int64_t r) {
        return ascend ? at(l) < at(r) : at(l) > at(r);
      });
      emit(o, i, order, at);
    }
  }
}

}  // namespace

Arrays TopK(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  CheckInputs(in, 1, "topk");
  const ir::AttrsNode& a = AttrsOf(attrs, "topk");
  const std::string& ret = a.get_string("ret_type");
  const bool ascend = a.get_bool("is_ascend");
  const DataType index_dtype = DTypeAttr(a, "dtype", DataType::Int32());
  NDArray x = IsHalf(in[0].dtype()) ? CastArray(in[0], DataType::Float32()) : in[0];
  const int axis = NormalizeAxis(a.get_int("axis"), x.ndim(), "topk: axis");
  const int64_t n = x.shape()[axis];
  int64_t k = a.get("k").is_null() ? 0 : a.get_int("k");
  if (k < 1 || k > n) k = n;
  const int64_t outer = Product(x.shape(), 0, axis);
  const int64_t inner = Product(x.shape(), axis + 1, x.shape().size());
  Shape out_shape = x.shape();
  out_shape[axis] = k;
  NDArray values = NDArray::Uninitialized(out_shape, x.dtype());
  NDArray idx64 = NDArray::Uninitialized(out_shape, DataType::Int64());
  DispatchNumeric(x.dtype(), "topk", [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* pv = values.mutable_data<T>();
    int64_t* px = idx64.mutable_data<int64_t>();
    ForEachSortedLine(x.data<T>(), outer, n, inner, ascend,
                      [&](int64_t o, int64_t i, const std::vector<int64_t>& order, auto at) {
                        for (int64_t j = 0; j < k; ++j) {
                          pv[(o * k + j) * inner + i] = at(order[j]);
                          px[(o * k + j) * inner + i] = order[j];
                        }
                      });
  });
  if (IsHalf(in[0].dtype())) values = CastArray(values, in[0].dtype());
  NDArray indices = CastArray(idx64, index_dtype);
  (void)out_type;
  if (ret == "values") return {values};
  if (ret == "indices") return {indices};
  return {values, indices};
}

namespace {

// sort / argsort: a stable sort of every line along `axis` (descending keeps equal elements in
// their order too, as TVM's CPU argsort and np.argsort(-x, kind="stable")). Returns the sorted
// values (in the data's dtype) or the positions (int64).
NDArray SortAlongAxis(const NDArray& data, int64_t axis_attr, bool ascend, bool want_values,
                      const char* op) {
  NDArray x = IsHalf(data.dtype()) ? CastArray(data, DataType::Float32()) : data;
  const int axis = NormalizeAxis(axis_attr, x.ndim(), std::string(op) + ": axis");
  const int64_t n = x.shape()[axis];
  const int64_t outer = Product(x.shape(), 0, axis);
  const int64_t inner = Product(x.shape(), axis + 1, x.shape().size());
  NDArray out = NDArray::Uninitialized(x.shape(), want_values ? x.dtype() : DataType::Int64());
  DispatchNumeric(x.dtype(), op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    ForEachSortedLine(x.data<T>(), outer, n, inner, ascend,
                      [&](int64_t o, int64_t i, const std::vector<int64_t>& order, auto at) {
                        for (int64_t j = 0; j < n; ++j) {
                          const int64_t pos = (o * n + j) * inner + i;
                          if (want_values) {
                            out.mutable_data<T>()[pos] = at(order[j]);
                          } else {
                            out.mutable_data<int64_t>()[pos] = order[j];
                          }
                        }
                      });
  });
  if (want_values && IsHalf(data.dtype())) return CastArray(out, data.dtype());
  return out;
}

}  // namespace

Arrays Sort(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 1, "sort");
  const ir::AttrsNode& a = AttrsOf(attrs, "sort");
  return {SortAlongAxis(in[0], a.get_int("axis"), a.get_bool("is_ascend"), true, "sort")};
}

Arrays ArgSort(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 1, "argsort");
  const ir::AttrsNode& a = AttrsOf(attrs, "argsort");
  const DataType dtype = DTypeAttr(a, "dtype", DataType::Int32());
  return {CastArray(
      SortAlongAxis(in[0], a.get_int("axis"), a.get_bool("is_ascend"), false, "argsort"), dtype)};
}

// searchsorted: for each value, the first position of its row of sorted_sequence (the row with
// the same leading indices; a 1-D sequence serves every value) where it could be inserted keeping
// the order: before equal elements (lower bound), or after them with `right`.
Arrays SearchSorted(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 2, "searchsorted");
  const ir::AttrsNode& a = AttrsOf(attrs, "searchsorted");
  const bool right = a.get_bool("right");
  const DataType dtype = DTypeAttr(a, "dtype", DataType::Int32());
  const NDArray& seq_in = in[0];
  const NDArray& val_in = in[1];
  if (seq_in.ndim() < 1 || val_in.ndim() < 1) {
    Fail("searchsorted: sorted_sequence and values must have rank >= 1");
  }
  if (seq_in.dtype() != val_in.dtype()) {
    Fail("searchsorted: sorted_sequence and values differ in dtype");
  }
  const bool shared = seq_in.ndim() == 1;
  if (!shared) {
    bool ok = seq_in.ndim() == val_in.ndim();
    for (int d = 0; ok && d + 1 < seq_in.ndim(); ++d) ok = seq_in.shape()[d] == val_in.shape()[d];
    if (!ok) {
      Fail("searchsorted: sorted_sequence " + ShapeString(seq_in.shape()) + " and values " +
           ShapeString(val_in.shape()) + " differ in their leading dimensions");
    }
  }
  const NDArray seq = IsHalf(seq_in.dtype()) ? CastArray(seq_in, DataType::Float32()) : seq_in;
  const NDArray val = IsHalf(val_in.dtype()) ? CastArray(val_in, DataType::Float32()) : val_in;
  const int64_t n = seq.shape().back(), m = val.shape().back();
  const int64_t rows = m == 0 ? 0 : val.size() / m;
  NDArray out = NDArray::Uninitialized(val.shape(), DataType::Int64());
  DispatchNumeric(seq.dtype(), "searchsorted", [&](auto tag) {
    using T = typename decltype(tag)::type;
    int64_t* po = out.mutable_data<int64_t>();
    for (int64_t r = 0; r < rows; ++r) {
      const T* begin = seq.data<T>() + (shared ? 0 : r * n);
      for (int64_t j = 0; j < m; ++j) {
        const T v = val.data<T>()[r * m + j];
        const T* at =
            right ? std::upper_bound(begin, begin + n, v) : std::lower_bound(begin, begin + n, v);
        po[r * m + j] = at - begin;
      }
    }
  });
  return {CastArray(out, dtype)};
}

Arrays Trilu(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 2, "trilu");
  const bool upper = AttrsOf(attrs, "trilu").get_bool("upper");
  const NDArray& x = in[0];
  if (x.ndim() < 2) Fail("trilu: data must have rank >= 2");
  const std::vector<int64_t> kv = IndexValues(in[1], "trilu");
  if (kv.size() != 1) Fail("trilu: k must be a scalar");
  const int64_t k = kv[0];
  const int64_t rows = x.shape()[x.ndim() - 2], cols = x.shape()[x.ndim() - 1];
  NDArray out = NDArray::Empty(x.shape(), x.dtype());
  const size_t eb = x.dtype().bytes();
  const auto* src = static_cast<const uint8_t*>(x.raw_data());
  auto* dst = static_cast<uint8_t*>(out.mutable_raw_data());
  for (int64_t e = 0; e < x.size(); ++e) {
    const int64_t j = e % cols, i = (e / cols) % rows;
    const bool keep = upper ? j - i >= k : j - i <= k;
    if (keep) std::memcpy(dst + e * eb, src + e * eb, eb);
  }
  return {out};
}

Arrays Einsum(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  if (in.empty()) Fail("einsum needs at least one operand");
  const std::string& equation = AttrsOf(attrs, "einsum").get_string("equation");
  return PromoteHalf(in, out_type, [&](const Arrays& v) -> Arrays {
    std::vector<std::vector<int64_t>> shapes;
    for (const NDArray& x : v) {
      if (x.dtype() != v[0].dtype()) Fail("einsum: operand dtypes differ");
      shapes.push_back(x.shape());
    }
    std::string error;
    const EinsumPlan plan = MakeEinsumPlan(equation, shapes, &error);
    if (!error.empty()) Fail("einsum: " + error);
    const size_t nl = plan.sizes.size();
    // Loop order: the output labels, then the summed ones.
    std::vector<int> order = plan.output;
    std::vector<bool> in_out(nl, false);
    for (int l : plan.output) in_out[l] = true;
    for (size_t l = 0; l < nl; ++l) {
      if (!in_out[l]) order.push_back(static_cast<int>(l));
    }
    Shape loop;
    for (int l : order) loop.push_back(plan.sizes[l]);
    Shape out_shape(loop.begin(), loop.begin() + plan.output.size());
    const int64_t out_count = NumElements(out_shape);
    const int64_t inner = NumElements(Shape(loop.begin() + plan.output.size(), loop.end()));
    // Per operand and label: the stride to add when that label steps (0 for broadcast axes).
    std::vector<std::vector<int64_t>> strides(v.size(), std::vector<int64_t>(nl, 0));
    for (size_t t = 0; t < v.size(); ++t) {
      const Shape st = Strides(v[t].shape());
      for (size_t i = 0; i < plan.operands[t].size(); ++i) {
        if (v[t].shape()[i] != 1) strides[t][plan.operands[t][i]] += st[i];
      }
    }
    return {DispatchNumeric(v[0].dtype(), "einsum", [&](auto tag) {
      using T = typename decltype(tag)::type;
      NDArray out = NDArray::Uninitialized(out_shape, v[0].dtype());
      T* po = out.mutable_data<T>();
      std::vector<const T*> ptrs;
      for (const NDArray& x : v) ptrs.push_back(x.data<T>());
      std::vector<int64_t> idx(loop.size(), 0);
      for (int64_t o = 0; o < out_count; ++o) {
        double acc = 0;
        for (int64_t r = 0; r < inner; ++r) {
          double prod = 1;
          for (size_t t = 0; t < v.size(); ++t) {
            int64_t off = 0;
            for (size_t k = 0; k < loop.size(); ++k) off += idx[k] * strides[t][order[k]];
            prod *= static_cast<double>(ptrs[t][off]);
          }
          acc += prod;
          Next(idx, loop);
        }
        po[o] = static_cast<T>(acc);
      }
      return out;
    })};
  });
}

namespace {

template <typename T>
T Reduce(T a, T b, const std::string& mode) {
  if (mode == "update") return b;
  if (mode == "add") return WrapAdd<T>(a, b);
  if (mode == "mul") return WrapMul<T>(a, b);
  if (mode == "min") return std::min(a, b);
  if (mode == "max") return std::max(a, b);
  Fail("scatter: unsupported reduction \"" + mode + "\"");
}

}  // namespace

Arrays ScatterElements(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 3, "scatter_elements");
  const ir::AttrsNode& a = AttrsOf(attrs, "scatter_elements");
  const NDArray& data = in[0];
  const std::vector<int64_t> indices = IndexValues(in[1], "scatter_elements");
  const NDArray& updates = in[2];
  if (updates.dtype() != data.dtype() || updates.shape() != in[1].shape() ||
      updates.ndim() != data.ndim()) {
    Fail("scatter_elements: indices and updates must match, with the data's rank and dtype");
  }
  const int axis = NormalizeAxis(a.get_int("axis"), data.ndim(), "scatter_elements: axis");
  const std::string& mode = a.get_string("reduction");
  const Shape strides = Strides(data.shape());
  NDArray out = NDArray::Uninitialized(data.shape(), data.dtype());
  if (data.nbytes()) std::memcpy(out.mutable_raw_data(), data.raw_data(), data.nbytes());
  DispatchNumeric(data.dtype(), "scatter_elements", [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* po = out.mutable_data<T>();
    const T* pu = updates.data<T>();
    std::vector<int64_t> idx(updates.ndim(), 0);
    for (int64_t u = 0; u < updates.size(); ++u) {
      int64_t off = 0;
      for (int d = 0; d < updates.ndim(); ++d) {
        int64_t i = idx[d];
        if (d == axis) {
          i = indices[u];
          if (i < 0) i += data.shape()[d];
        }
        if (i < 0 || i >= data.shape()[d]) Fail("scatter_elements: index out of range");
        off += i * strides[d];
      }
      // TVM's topi: "mean" halves the sum of the current value and each update in turn (a
      // running pairwise mean; integers divide truncating), only scatter_elements has it.
      po[off] = mode == "mean" ? static_cast<T>(WrapAdd<T>(po[off], pu[u]) / T(2))
                               : Reduce<T>(po[off], pu[u], mode);
      Next(idx, updates.shape());
    }
  });
  return {out};
}

Arrays ScatterND(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 3, "scatter_nd");
  const std::string& mode = AttrsOf(attrs, "scatter_nd").get_string("mode");
  const NDArray& data = in[0];
  const std::vector<int64_t> indices = IndexValues(in[1], "scatter_nd");
  const Shape& ishape = in[1].shape();
  const NDArray& updates = in[2];
  if (ishape.empty() || ishape[0] > data.ndim() || updates.dtype() != data.dtype()) {
    Fail("scatter_nd: indices must be (M, ...) with M <= the data rank");
  }
  const int64_t m = ishape[0];
  const int64_t ycount = NumElements(Shape(ishape.begin() + 1, ishape.end()));
  const int64_t inner = NumElements(Shape(data.shape().begin() + m, data.shape().end()));
  if (updates.size() != ycount * inner) Fail("scatter_nd: updates do not match the indices");
  const Shape strides = Strides(data.shape());
  NDArray out = NDArray::Uninitialized(data.shape(), data.dtype());
  if (data.nbytes()) std::memcpy(out.mutable_raw_data(), data.raw_data(), data.nbytes());
  DispatchNumeric(data.dtype(), "scatter_nd", [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* po = out.mutable_data<T>();
    const T* pu = updates.data<T>();
    for (int64_t y = 0; y < ycount; ++y) {
      int64_t off = 0;
      for (int64_t k = 0; k < m; ++k) {
        int64_t i = indices[k * ycount + y];
        if (i < 0) i += data.shape()[k];
        if (i < 0 || i >= data.shape()[k]) Fail("scatter_nd: index out of range");
        off += i * strides[k];
      }
      for (int64_t j = 0; j < inner; ++j)
        po[off + j] = Reduce<T>(po[off + j], pu[y * inner + j], mode);
    }
  });
  return {out};
}

Arrays ReverseSequence(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 2, "reverse_sequence");
  const ir::AttrsNode& a = AttrsOf(attrs, "reverse_sequence");
  const NDArray& x = in[0];
  const std::vector<int64_t> lengths = IndexValues(in[1], "reverse_sequence");
  const int seq = NormalizeAxis(a.get_int("seq_axis"), x.ndim(), "reverse_sequence: seq_axis");
  const int batch =
      NormalizeAxis(a.get_int("batch_axis"), x.ndim(), "reverse_sequence: batch_axis");
  if (static_cast<int64_t>(lengths.size()) != x.shape()[batch]) {
    Fail("reverse_sequence: seq_lengths must have one value per batch");
  }
  const Shape strides = Strides(x.shape());
  return {Gathered(x, x.shape(), [&](const std::vector<int64_t>& idx) {
    const int64_t len =
        std::min<int64_t>(std::max<int64_t>(lengths[idx[batch]], 0), x.shape()[seq]);
    int64_t o = 0;
    for (size_t d = 0; d < idx.size(); ++d) {
      int64_t i = idx[d];
      if (static_cast<int>(d) == seq && i < len) i = len - 1 - i;
      o += i * strides[d];
    }
    return o;
  })};
}

Arrays SequenceMask(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 2, "sequence_mask");
  const ir::AttrsNode& a = AttrsOf(attrs, "sequence_mask");
  const NDArray& x = in[0];
  const int64_t axis = a.get_int("axis");
  if (axis != 0 && axis != 1) Fail("sequence_mask: axis must be 0 or 1");
  if (x.ndim() < 2) Fail("sequence_mask: data must have rank >= 2");
  const Shape& s = x.shape();
  if (in[1].ndim() != 1 || in[1].shape()[0] != s[1 - axis]) {
    Fail("sequence_mask: valid_length must have one value per batch (" +
         std::to_string(s[1 - axis]) + "), got shape " + ShapeString(in[1].shape()));
  }
  // TVM compares the position, cast to valid_length's dtype, with the length: in double here.
  const NDArray lengths = CastArray(in[1], DataType::Float(64));
  const double* len = lengths.data<double>();
  const NDArray mask = CastArray(
      NDArray::Scalar<double>(a.get_double("mask_value"), DataType::Float(64)), x.dtype());
  NDArray out = x.Copy();
  const size_t eb = x.dtype().bytes();
  auto* dst = static_cast<uint8_t*>(out.mutable_raw_data());
  const int64_t inner = Product(s, 2, s.size());
  const int64_t n = x.size();
  for (int64_t o = 0; o < n; ++o) {
    const int64_t i0 = o / (s[1] * inner), i1 = (o / inner) % s[1];
    const int64_t t = axis == 0 ? i0 : i1, b = axis == 0 ? i1 : i0;
    if (static_cast<double>(t) >= len[b]) std::memcpy(dst + o * eb, mask.raw_data(), eb);
  }
  return {out};
}

Arrays MatrixSetDiag(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 2, "matrix_set_diag");
  const ir::AttrsNode& a = AttrsOf(attrs, "matrix_set_diag");
  const NDArray& x = in[0];
  const NDArray& diag = in[1];
  const int64_t k1 = a.get_int("k1"), k2 = a.get_int("k2");
  const bool super_right = a.get_bool("super_diag_right_align");
  const bool sub_right = a.get_bool("sub_diag_right_align");
  const int nd = x.ndim();
  if (nd < 2) Fail("matrix_set_diag: data must have rank >= 2");
  if (diag.dtype() != x.dtype()) Fail("matrix_set_diag: diagonal and data differ in dtype");
  const int64_t m = x.shape()[nd - 2], n = x.shape()[nd - 1];
  if (k1 > k2 || k1 <= -m || k2 >= n) {
    Fail("matrix_set_diag: diagonals " + std::to_string(k1) + ".." + std::to_string(k2) +
         " fall outside a " + std::to_string(m) + "x" + std::to_string(n) + " matrix");
  }
  const int64_t max_len = std::min(m + std::min<int64_t>(k2, 0), n - std::max<int64_t>(k1, 0));
  Shape want(x.shape().begin(), x.shape().end() - 2);
  if (k1 != k2) want.push_back(k2 - k1 + 1);
  want.push_back(max_len);
  if (diag.shape() != want) {
    Fail("matrix_set_diag: diagonal must have shape " + ShapeString(want) + ", got " +
         ShapeString(diag.shape()));
  }
  const int64_t ndiag = k2 - k1 + 1;
  NDArray out = x.Copy();
  const size_t eb = x.dtype().bytes();
  auto* dst = static_cast<uint8_t*>(out.mutable_raw_data());
  const auto* src = static_cast<const uint8_t*>(diag.raw_data());
  const int64_t batches = Product(x.shape(), 0, nd - 2);
  for (int64_t bt = 0; bt < batches; ++bt) {
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        const int64_t d = j - i;
        if (d < k1 || d > k2) continue;
        const int64_t len = std::min(m + std::min<int64_t>(d, 0), n - std::max<int64_t>(d, 0));
        const int64_t offset = (d >= 0 ? super_right : sub_right) ? max_len - len : 0;
        const int64_t pos = std::min(i, j) + offset;
        const int64_t row = k1 == k2 ? 0 : k2 - d;
        const int64_t from = (bt * ndiag + row) * max_len + pos;
        std::memcpy(dst + ((bt * m + i) * n + j) * eb, src + from * eb, eb);
      }
    }
  }
  return {out};
}

Arrays SliceLike(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 2, "slice_like");
  const ir::AttrValue& axes = AttrsOf(attrs, "slice_like").get("axes");
  const NDArray& x = in[0];
  const Shape& like = in[1].shape();
  Shape out = x.shape();
  auto take = [&](int i) {
    if (like[i] > x.shape()[i]) {
      Fail("slice_like: end index of axis " + std::to_string(i) + " exceeds the input shape");
    }
    out[i] = like[i];
  };
  if (axes.is_null()) {
    for (int i = 0; i < std::min(x.ndim(), in[1].ndim()); ++i) take(i);
  } else {
    for (int64_t v : axes.as_ints()) {
      const int i = NormalizeAxis(v, x.ndim(), "slice_like: axis");
      if (i >= in[1].ndim()) Fail("slice_like: axis exceeds the rank of shape_like");
      take(i);
    }
  }
  const Shape strides = Strides(x.shape());
  return {Gathered(x, out, [&](const std::vector<int64_t>& idx) {
    int64_t o = 0;
    for (size_t d = 0; d < idx.size(); ++d) o += idx[d] * strides[d];
    return o;
  })};
}

namespace {

// argmax / argmin: the reduced axes (all, the listed ones, or the others with exclude) are
// moved last and each row's flat position within them is found.
Arrays ArgReduce(const Arrays& in, const ir::Attrs& attrs, bool is_max, const char* op) {
  CheckInputs(in, 1, op);
  const ir::AttrsNode& a = AttrsOf(attrs, op);
  NDArray x = IsHalf(in[0].dtype()) ? CastArray(in[0], DataType::Float32()) : in[0];
  const int nd = x.ndim();
  const ir::AttrValue& axis = a.get("axis");
  const bool all = axis.is_null() || axis.as_array().empty();
  std::vector<bool> reduced(nd, all);
  if (!all) {
    for (int64_t v : axis.as_ints())
      reduced[NormalizeAxis(v, nd, std::string(op) + ": axis")] = true;
    if (a.get_bool("exclude")) reduced.flip();
  }
  const bool keepdims = a.get_bool("keepdims"), last = a.get_bool("select_last_index");
  std::vector<int> perm;
  Shape out_shape;
  int64_t rows = 1, len = 1;
  for (int d = 0; d < nd; ++d) {
    if (!reduced[d]) {
      perm.push_back(d);
      out_shape.push_back(x.shape()[d]);
      rows *= x.shape()[d];
    } else if (keepdims) {
      out_shape.push_back(1);
    }
  }
  for (int d = 0; d < nd; ++d) {
    if (reduced[d]) {
      perm.push_back(d);
      len *= x.shape()[d];
    }
  }
  if (len == 0) Fail(std::string(op) + ": cannot reduce an empty axis");
  const NDArray p = Permute(x, perm);
  NDArray out = NDArray::Uninitialized(out_shape, DataType::Int32());
  int32_t* po = out.mutable_data<int32_t>();
  DispatchNumeric(p.dtype(), op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* pi = p.data<T>();
    for (int64_t r = 0; r < rows; ++r) {
      const T* row = pi + r * len;
      int64_t best = 0;
      for (int64_t j = 1; j < len; ++j) {
        const bool better = is_max ? (last ? row[j] >= row[best] : row[j] > row[best])
                                   : (last ? row[j] <= row[best] : row[j] < row[best]);
        if (better) best = j;
      }
      po[r] = static_cast<int32_t>(best);
    }
  });
  return {out};
}

}  // namespace

Arrays ArgMax(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  return ArgReduce(in, attrs, true, "argmax");
}
Arrays ArgMin(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  return ArgReduce(in, attrs, false, "argmin");
}

}  // namespace relaypass::op::kernels
