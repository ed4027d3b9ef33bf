// The dyn.* kernels (kernels.h): run-time arguments read as the static operator's attributes.
#include "kernels.h"

#include <string>
#include <vector>

#include "../kernels/kernel_util.h"
#include "static_call.h"

namespace relaypass::op::dyn {

namespace {

using ir::AttrValue;
using Arrays = std::vector<ir::NDArray>;

void CheckCount(const Arrays& in, size_t n, const std::string& op) {
  if (in.size() != n) {
    throw Error(op + ": expected " + std::to_string(n) + " inputs, got " +
                std::to_string(in.size()));
  }
}

const ir::AttrsNode& AttrsOf(const ir::Attrs& attrs, const std::string& op) {
  if (!attrs) throw Error(op + ": the call has no attributes");
  return *attrs;
}

}  // namespace

Arrays Reshape(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  const std::string op = "dyn.reshape";
  CheckCount(in, 2, op);
  const std::vector<int64_t> newshape = IntValues(in[1], op, "newshape");
  for (int64_t d : newshape) {
    // TVM's dynamic reshape keeps the output rank the length of newshape.
    if (d == -2 || d == -4) {
      throw Error(op + ": value " + std::to_string(d) +
                  " is not valid in newshape of dynamic "
                  "reshape");
    }
  }
  return RunStaticOp(op, "reshape", {in[0]},
                     {{"newshape", AttrValue::Ints(newshape)},
                      {"allowzero", AttrValue::Bool(AttrsOf(attrs, op).get_bool("allowzero"))}});
}

Arrays BroadcastTo(const Arrays& in, const ir::Attrs&, const ir::Type&) {
  const std::string op = "dyn.broadcast_to";
  CheckCount(in, 2, op);
  return RunStaticOp(op, "broadcast_to", {in[0]},
                     {{"shape", AttrValue::Ints(IntValues(in[1], op, "shape"))}});
}

namespace {
Arrays Init(const std::string& op, const std::string& static_op, const ir::NDArray& shape,
            const ir::Attrs& attrs) {
  return RunStaticOp(op, static_op, {},
                     {{"shape", AttrValue::Ints(IntValues(shape, op, "shape"))},
                      {"dtype", AttrsOf(attrs, op).get("dtype")}});
}
}  // namespace

Arrays Zeros(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckCount(in, 1, "dyn.zeros");
  return Init("dyn.zeros", "zeros", in[0], attrs);
}

Arrays Ones(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckCount(in, 1, "dyn.ones");
  return Init("dyn.ones", "ones", in[0], attrs);
}

Arrays Full(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  const std::string op = "dyn.full";
  CheckCount(in, 2, op);
  return RunStaticOp(op, "full", {in[0]},
                     {{"shape", AttrValue::Ints(IntValues(in[1], op, "shape"))},
                      {"dtype", AttrsOf(attrs, op).get("dtype")}});
}

Arrays Tile(const Arrays& in, const ir::Attrs&, const ir::Type&) {
  const std::string op = "dyn.tile";
  CheckCount(in, 2, op);
  return RunStaticOp(op, "tile", {in[0]},
                     {{"reps", AttrValue::Ints(IntValues(in[1], op, "reps"))}});
}

Arrays ExpandDims(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  const std::string op = "dyn.expand_dims";
  CheckCount(in, 2, op);
  return RunStaticOp(op, "expand_dims", {in[0]},
                     {{"axis", AttrValue::Int(IntScalar(in[1], op, "axis"))},
                      {"num_newaxis", AttrValue::Int(AttrsOf(attrs, op).get_int("num_newaxis"))}});
}

Arrays Squeeze(const Arrays& in, const ir::Attrs&, const ir::Type&) {
  const std::string op = "dyn.squeeze";
  CheckCount(in, 2, op);
  return RunStaticOp(op, "squeeze", {in[0]},
                     {{"axis", AttrValue::Ints(IntValues(in[1], op, "axis"))}});
}

Arrays StridedSlice(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  const std::string op = "dyn.strided_slice";
  CheckCount(in, 4, op);
  return RunStaticOp(op, "strided_slice", {in[0]},
                     {{"begin", AttrValue::Ints(IntValues(in[1], op, "begin"))},
                      {"end", AttrValue::Ints(IntValues(in[2], op, "end"))},
                      {"strides", AttrValue::Ints(IntValues(in[3], op, "strides"))},
                      {"slice_mode", AttrsOf(attrs, op).get("slice_mode")}});
}

Arrays OneHot(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  const std::string op = "dyn.one_hot";
  CheckCount(in, 4, op);
  const ir::AttrsNode& a = AttrsOf(attrs, op);
  return RunStaticOp(op, "one_hot", {in[0], in[1], in[2]},
                     {{"depth", AttrValue::Int(IntScalar(in[3], op, "depth"))},
                      {"axis", a.get("axis")},
                      {"dtype", a.get("dtype")}});
}

Arrays TopK(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  const std::string op = "dyn.topk";
  CheckCount(in, 2, op);
  const ir::AttrsNode& a = AttrsOf(attrs, op);
  return RunStaticOp(op, "topk", {in[0]},
                     {{"k", AttrValue::Int(IntScalar(in[1], op, "k"))},
                      {"axis", a.get("axis")},
                      {"ret_type", a.get("ret_type")},
                      {"is_ascend", a.get("is_ascend")},
                      {"dtype", a.get("dtype")}});
}

Arrays SparseToDense(const Arrays& in, const ir::Attrs&, const ir::Type&) {
  const std::string op = "dyn.sparse_to_dense";
  CheckCount(in, 4, op);
  return RunStaticOp(op, "sparse_to_dense", {in[0], in[1], in[2]},
                     {{"output_shape", AttrValue::Ints(IntValues(in[3], op, "output_shape"))}});
}

Arrays Pad(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  const std::string op = "dyn.nn.pad";
  CheckCount(in, 3, op);
  const ir::NDArray& width = in[1];
  if (width.ndim() != 2 || width.shape()[1] != 2) {
    throw Error(op + ": pad_width must have shape (N, 2), got " +
                kernels::ShapeString(width.shape()));
  }
  const std::vector<int64_t> flat =
      IntValues(kernels::Reshaped(width, {width.size()}), op, "pad_width");
  std::vector<AttrValue> rows;
  for (size_t i = 0; i + 1 < flat.size(); i += 2) {
    rows.push_back(AttrValue::Ints({flat[i], flat[i + 1]}));
  }
  return RunStaticOp(op, "nn.pad", {in[0], in[2]},
                     {{"pad_width", AttrValue::Array(std::move(rows))},
                      {"pad_mode", AttrsOf(attrs, op).get("pad_mode")}});
}

Arrays UpSampling(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  const std::string op = "dyn.nn.upsampling";
  CheckCount(in, 3, op);
  const ir::AttrsNode& a = AttrsOf(attrs, op);
  return RunStaticOp(
      op, "nn.upsampling", {in[0]},
      {{"scale_h", AttrValue::Double(DoubleScalar(in[1], op, "scale_h"), ir::DataType::Float(64))},
       {"scale_w", AttrValue::Double(DoubleScalar(in[2], op, "scale_w"), ir::DataType::Float(64))},
       {"layout", a.get("layout")},
       {"method", a.get("method")},
       {"align_corners", a.get("align_corners")}});
}

Arrays Resize2D(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  const std::string op = "dyn.image.resize2d";
  CheckCount(in, 3, op);
  const ir::AttrsNode& a = AttrsOf(attrs, op);
  if (in[2].size() != 4) {
    throw Error(op + ": roi must hold 4 values, got " + std::to_string(in[2].size()));
  }
  std::vector<AttrValue> roi;
  for (int64_t i = 0; i < 4; ++i) roi.push_back(AttrValue::Double(in[2].GetAsDouble(i)));
  AttrValues values = {{"size", AttrValue::Ints(IntValues(in[1], op, "size"))},
                       {"roi", AttrValue::Array(std::move(roi))}};
  for (const char* name : {"layout", "method", "coordinate_transformation_mode", "rounding_method",
                           "cubic_alpha", "cubic_exclude", "extrapolation_value", "out_dtype"}) {
    values.emplace_back(name, a.get(name));
  }
  return RunStaticOp(op, "image.resize2d", {in[0]}, values);
}

}  // namespace relaypass::op::dyn
