// Data movement kernels: reshapes (reshape, contrib_reverse_reshape, squeeze, expand_dims,
// batch_flatten), split, transpose, concatenate, pad and cast; shape_of and ndarray_size (which
// read only the shape). They copy bytes, so they take every dtype.
#include <algorithm>
#include <cstring>
#include <optional>

#include "kernel_util.h"
#include "kernels.h"
#include "relaypass/ir/tensor_size.h"

namespace relaypass::op::kernels {

namespace {

// TVM's newshape special values on a static shape: >0 literal, 0 copy (literal 0 with
// allowzero), -1 inferred, -2 copy the rest, -3 merge two, -4 split one into the next two.
Shape InferNewShape(const Shape& in, const std::vector<int64_t>& spec, bool allowzero) {
  auto fail = [&](const std::string& why) {
    Fail("reshape: " + why + " (newshape " + ir::AttrValue::Ints(spec).ToString() + ", data " +
         ShapeString(in) + ")");
  };
  Shape out;
  size_t src = 0;
  std::optional<size_t> infer;
  for (size_t i = 0; i < spec.size(); ++i) {
    const int64_t v = spec[i];
    if (v > 0 || (v == 0 && allowzero)) {
      out.push_back(v);
      ++src;
    } else if (v == 0) {
      if (src >= in.size()) fail("0 has no input dimension to copy");
      out.push_back(in[src++]);
    } else if (v == -1) {
      if (infer) fail("only one dimension can be inferred");
      infer = out.size();
      out.push_back(1);
      ++src;
    } else if (v == -2) {
      while (src < in.size()) out.push_back(in[src++]);
    } else if (v == -3) {
      if (src + 1 >= in.size()) fail("-3 needs two input dimensions");
      int64_t merged = 0;
      if (__builtin_mul_overflow(in[src], in[src + 1], &merged)) fail("-3 overflows int64");
      out.push_back(merged);
      src += 2;
    } else if (v == -4) {
      if (i + 2 >= spec.size() || src >= in.size()) fail("-4 needs a dimension and two values");
      const int64_t d0 = in[src++];
      int64_t d1 = spec[++i], d2 = spec[++i];
      if (d1 == -1 && d2 != 0) d1 = d0 / d2;
      if (d2 == -1 && d1 != 0) d2 = d0 / d1;
      out.push_back(d1);
      out.push_back(d2);
    } else {
      fail("unsupported special value " + std::to_string(v));
    }
  }
  // Products are overflow-checked: newshape values come from the user (up to INT64_MAX).
  const int64_t total = NumElements(in);
  if (infer) {
    const std::optional<int64_t> others = ir::ElementCount(out);  // the -1 slot holds 1 here
    if (!others) fail("the other dimensions' product overflows int64");
    if (*others == 0) fail("cannot infer -1 next to a 0 dimension");
    out[*infer] = total / *others;
  }
  for (int64_t d : out) {
    if (d < 0) fail("a dimension comes out negative");
  }
  const std::optional<int64_t> count = ir::ElementCount(out);
  if (!count || *count != total) fail("the element counts differ");
  return out;
}

}  // namespace

Arrays Reshape(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 1, "reshape");
  const ir::AttrsNode& a = AttrsOf(attrs, "reshape");
  return {Reshaped(in[0],
                   InferNewShape(in[0].shape(), a.get_ints("newshape"), a.get_bool("allowzero")))};
}

Arrays ReverseReshape(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 1, "contrib_reverse_reshape");
  const ir::AttrsNode& a = AttrsOf(attrs, "contrib_reverse_reshape");
  std::vector<int64_t> spec = a.get_ints("newshape");
  std::reverse(spec.begin(), spec.end());
  const Shape rin(in[0].shape().rbegin(), in[0].shape().rend());
  Shape out = InferNewShape(rin, spec, a.get_bool("allowzero"));
  std::reverse(out.begin(), out.end());
  return {Reshaped(in[0], out)};
}

namespace {
// A shape value (or element count) stored in `dtype`; an integer dtype.
NDArray ShapeValues(const Shape& values, const Shape& shape, DataType dtype, const char* op) {
  if (!dtype.is_int() && !dtype.is_uint()) {
    Fail(std::string(op) + ": dtype must be an integer type, got " + dtype.ToString());
  }
  NDArray v = NDArray::Uninitialized(shape, DataType::Int64());
  std::copy(values.begin(), values.end(), v.mutable_data<int64_t>());
  return CastArray(v, dtype);
}
}  // namespace

Arrays ShapeOf(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 1, "shape_of");
  const DataType dtype = DTypeAttr(AttrsOf(attrs, "shape_of"), "dtype", DataType::Int32());
  return {ShapeValues(in[0].shape(), {in[0].ndim()}, dtype, "shape_of")};
}

Arrays NdarraySize(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 1, "ndarray_size");
  const DataType dtype = DTypeAttr(AttrsOf(attrs, "ndarray_size"), "dtype", DataType::Int32());
  return {ShapeValues({in[0].size()}, {}, dtype, "ndarray_size")};
}

Arrays BatchFlatten(const Arrays& in, const ir::Attrs&, const ir::Type&) {
  CheckInputs(in, 1, "nn.batch_flatten");
  const Shape& s = in[0].shape();
  if (s.empty()) Fail("nn.batch_flatten: data must have rank >= 1");
  return {Reshaped(in[0], {s[0], NumElements(Shape(s.begin() + 1, s.end()))})};
}

Arrays ExpandDims(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 1, "expand_dims");
  const ir::AttrsNode& a = AttrsOf(attrs, "expand_dims");
  const int64_t ndim = in[0].ndim(), axis = a.get_int("axis"), count = a.get_int("num_newaxis");
  if (axis < -ndim - 1 || axis > ndim || count < 0) {
    Fail("expand_dims: axis " + std::to_string(axis) + " / num_newaxis " + std::to_string(count) +
         " out of range for rank " + std::to_string(ndim));
  }
  const int64_t pivot = axis < 0 ? ndim + axis + 1 : axis;
  Shape out(in[0].shape().begin(), in[0].shape().begin() + pivot);
  out.insert(out.end(), count, 1);
  out.insert(out.end(), in[0].shape().begin() + pivot, in[0].shape().end());
  return {Reshaped(in[0], out)};
}

Arrays Squeeze(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 1, "squeeze");
  const ir::AttrValue& axis = AttrsOf(attrs, "squeeze").get("axis");
  const Shape& s = in[0].shape();
  std::vector<bool> keep(s.size(), true);
  if (axis.is_null()) {
    for (size_t i = 0; i < s.size(); ++i) keep[i] = s[i] != 1;
  } else {
    for (int64_t a : axis.as_ints()) {
      const int i = NormalizeAxis(a, in[0].ndim(), "squeeze: axis");
      if (s[i] != 1)
        Fail("squeeze: axis " + std::to_string(a) + " of " + ShapeString(s) + " is not 1");
      keep[i] = false;
    }
  }
  Shape out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (keep[i]) out.push_back(s[i]);
  }
  return {Reshaped(in[0], out)};
}

Arrays Transpose(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 1, "transpose");
  const ir::AttrValue& axes = AttrsOf(attrs, "transpose").get("axes");
  const int nd = in[0].ndim();
  std::vector<int> perm(nd);
  if (axes.is_null() || axes.as_array().empty()) {
    for (int i = 0; i < nd; ++i) perm[i] = nd - 1 - i;
  } else {
    const std::vector<int64_t> v = axes.as_ints();
    if (static_cast<int>(v.size()) != nd) Fail("transpose: axes do not match the data rank");
    for (int i = 0; i < nd; ++i) perm[i] = NormalizeAxis(v[i], nd, "transpose: axis");
  }
  return {Permute(in[0], perm)};
}

Arrays Concatenate(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  if (in.empty()) Fail("concatenate needs at least one tensor");
  const NDArray& first = in[0];
  const int nd = first.ndim();
  const int axis =
      NormalizeAxis(AttrsOf(attrs, "concatenate").get_int("axis"), nd, "concatenate: axis");
  Shape out_shape = first.shape();
  out_shape[axis] = 0;
  for (const NDArray& x : in) {
    bool match = x.defined() && x.ndim() == nd && x.dtype() == first.dtype();
    for (int i = 0; match && i < nd; ++i) match = i == axis || x.shape()[i] == first.shape()[i];
    if (!match) {
      Fail("concatenate: " + ShapeString(x.shape()) + " does not match " +
           ShapeString(first.shape()) + " off axis " + std::to_string(axis));
    }
    out_shape[axis] += x.shape()[axis];
  }
  NDArray out = NDArray::Uninitialized(out_shape, first.dtype());
  const int64_t outer = NumElements(Shape(out_shape.begin(), out_shape.begin() + axis));
  const size_t elem = first.dtype().bytes();
  const size_t inner =
      static_cast<size_t>(NumElements(Shape(out_shape.begin() + axis + 1, out_shape.end()))) * elem;
  auto* dst = static_cast<uint8_t*>(out.mutable_raw_data());
  for (int64_t o = 0; o < outer; ++o) {
    for (const NDArray& x : in) {
      const size_t chunk = static_cast<size_t>(x.shape()[axis]) * inner;
      std::memcpy(dst, static_cast<const uint8_t*>(x.raw_data()) + o * chunk, chunk);
      dst += chunk;
    }
  }
  return {out};
}

// numpy.split: equal sections, or pieces cut at ascending indices; one array per piece.
Arrays Split(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 1, "split");
  const ir::AttrsNode& a = AttrsOf(attrs, "split");
  const NDArray& x = in[0];
  const int axis = NormalizeAxis(a.get_int("axis"), x.ndim(), "split: axis");
  const int64_t extent = x.shape()[axis];
  std::vector<int64_t> cuts;  // the begin of each piece after the first, then the end
  const ir::AttrValue& spec = a.get("indices_or_sections");
  if (spec.kind() == ir::AttrValue::Kind::kInt) {
    const int64_t sections = spec.as_int();
    if (sections < 1 || extent % sections != 0) Fail("split: sections must divide the axis");
    for (int64_t i = 1; i <= sections; ++i) cuts.push_back(extent / sections * i);
  } else {
    cuts = spec.as_ints();
    cuts.push_back(extent);
  }
  const int64_t outer = NumElements(Shape(x.shape().begin(), x.shape().begin() + axis));
  const size_t inner =
      static_cast<size_t>(NumElements(Shape(x.shape().begin() + axis + 1, x.shape().end()))) *
      x.dtype().bytes();
  const auto* src = static_cast<const uint8_t*>(x.raw_data());
  Arrays out;
  int64_t begin = 0;
  for (int64_t end : cuts) {
    if (end <= begin || end > extent) Fail("split: indices must ascend within the axis");
    Shape shape = x.shape();
    shape[axis] = end - begin;
    NDArray piece = NDArray::Uninitialized(shape, x.dtype());
    auto* dst = static_cast<uint8_t*>(piece.mutable_raw_data());
    const size_t chunk = static_cast<size_t>(end - begin) * inner;
    for (int64_t o = 0; o < outer; ++o) {
      std::memcpy(dst + o * chunk, src + (o * extent + begin) * inner, chunk);
    }
    out.push_back(std::move(piece));
    begin = end;
  }
  return out;
}

// numpy.repeat along one axis: each slice along `axis` is copied `repeats` times in a row.
Arrays Repeat(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 1, "repeat");
  const ir::AttrsNode& a = AttrsOf(attrs, "repeat");
  const NDArray& x = in[0];
  const int64_t repeats = a.get_int("repeats");
  if (repeats < 1 || a.get("axis").is_null()) Fail("repeat: needs repeats >= 1 and an axis");
  const int axis = NormalizeAxis(a.get("axis").as_int(), x.ndim(), "repeat: axis");
  Shape out_shape = x.shape();
  out_shape[axis] *= repeats;
  NDArray out = NDArray::Uninitialized(out_shape, x.dtype());
  // An empty result has nothing to copy: without this, 2^62 repeats of an empty slice looped
  // 2^62 times (found by the kernel fuzzer: repeat_empty_slice.bin).
  if (out.size() == 0) return {out};
  const int64_t outer = NumElements(Shape(x.shape().begin(), x.shape().begin() + axis));
  const size_t slice =
      static_cast<size_t>(NumElements(Shape(x.shape().begin() + axis + 1, x.shape().end()))) *
      x.dtype().bytes();
  const auto* src = static_cast<const uint8_t*>(x.raw_data());
  auto* dst = static_cast<uint8_t*>(out.mutable_raw_data());
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t k = 0; k < x.shape()[axis]; ++k, src += slice) {
      for (int64_t r = 0; r < repeats; ++r, dst += slice) std::memcpy(dst, src, slice);
    }
  }
  return {out};
}

// Modes "constant" (pad_value), "edge" (repeat the border) and "reflect" (mirror without
// repeating the border), as numpy.pad.
Arrays Pad(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 2, "nn.pad");
  const ir::AttrsNode& a = AttrsOf(attrs, "nn.pad");
  const NDArray& data = in[0];
  const std::string& mode = a.get_string("pad_mode");
  if (mode != "constant" && mode != "edge" && mode != "reflect") {
    Fail("nn.pad: unsupported pad_mode \"" + mode + "\"");
  }
  if (in[1].size() != 1) Fail("nn.pad: pad_value must be a scalar");
  const NDArray value = CastArray(in[1], data.dtype());
  const std::vector<ir::AttrValue>& rows = a.get("pad_width").as_array();
  const int nd = data.ndim();
  if (static_cast<int>(rows.size()) != nd) Fail("nn.pad: pad_width does not match the data rank");
  Shape out_shape(nd);
  std::vector<std::vector<int64_t>> pads(nd);
  for (int d = 0; d < nd; ++d) {
    pads[d] = rows[d].as_ints();
    if (pads[d].size() != 2) Fail("nn.pad: each pad_width entry needs [before, after]");
    const int64_t n = data.shape()[d];
    if (__builtin_add_overflow(n, pads[d][0], &out_shape[d]) ||
        __builtin_add_overflow(out_shape[d], pads[d][1], &out_shape[d])) {
      Fail("nn.pad: pad_width " + ShapeString(pads[d]) + " on axis " + std::to_string(d) +
           " overflows int64");
    }
    if (out_shape[d] < 0) Fail("nn.pad: padding makes a dimension negative");
    if (mode != "constant" && n == 0 && out_shape[d] > 0)
      Fail("nn.pad: cannot " + mode + "-pad an empty axis");
  }
  // The output first: a size that cannot be had fails before the per-axis tables are built
  // (their lengths are the output's dimensions).
  NDArray out = NDArray::Uninitialized(out_shape, data.dtype());
  if (out.size() == 0) return {out};
  std::vector<std::vector<int64_t>> source(nd);  // per axis: output index -> input index or -1
  for (int d = 0; d < nd; ++d) {
    const std::vector<int64_t>& pair = pads[d];
    const int64_t n = data.shape()[d];
    source[d].reserve(static_cast<size_t>(out_shape[d]));
    for (int64_t i = 0; i < out_shape[d]; ++i) {
      // i - before, saturated: out of [0, n) either way when it would overflow
      int64_t s;
      if (__builtin_sub_overflow(i, pair[0], &s)) s = pair[0] < 0 ? n : -1;
      if (s < 0 || s >= n) {
        if (mode == "constant") {
          s = -1;
        } else if (mode == "edge") {
          s = s < 0 ? 0 : n - 1;
        } else {
          if (n == 1) {
            s = 0;
          } else {
            const int64_t period = 2 * (n - 1);
            s = ((s % period) + period) % period;
            if (s >= n) s = period - s;
          }
        }
      }
      source[d].push_back(s);
    }
  }
  return {GatherAxes(data, std::move(out), source, value.raw_data())};
}

Arrays Cast(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 1, "cast");
  const ir::AttrsNode& a = AttrsOf(attrs, "cast");
  const std::string& name = a.get_string("dtype");
  std::optional<DataType> dtype = DataType::Parse(name);
  if (!dtype || dtype->is_void()) Fail("cast: invalid dtype \"" + name + "\"");
  return {CastArray(in[0], *dtype)};
}

}  // namespace relaypass::op::kernels
