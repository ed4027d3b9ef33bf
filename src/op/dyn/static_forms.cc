// The dyn.* operators' static forms (static_forms.h): run-time values read as attributes.
#include "static_forms.h"

#include <string>
#include <vector>

#include "../kernels/kernel_util.h"
#include "static_call.h"

namespace relaypass::op::dyn {

namespace {

using ir::AttrValue;
using Values = std::vector<ir::NDArray>;

void CheckCount(const Values& in, size_t n, const std::string& op) {
  if (in.size() != n) {
    throw Error(op + ": expected " + std::to_string(n) + " inputs, got " +
                std::to_string(in.size()));
  }
}

const ir::AttrsNode& AttrsOf(const ir::Attrs& attrs, const std::string& op) {
  if (!attrs) throw Error(op + ": the call has no attributes");
  return *attrs;
}

AttrValue ShapeOf(const Values& in, size_t i, const std::string& op, const std::string& what) {
  return AttrValue::Ints(IntValues(in[i], op, what));
}

StaticForm Init(const std::string& op, const std::string& static_op, const Values& in,
                const ir::Attrs& attrs) {
  CheckCount(in, 1, op);
  return {static_op,
          {},
          {{"shape", ShapeOf(in, 0, op, "shape")}, {"dtype", AttrsOf(attrs, op).get("dtype")}}};
}

}  // namespace

StaticForm ReshapeForm(const Values& in, const ir::Attrs& attrs) {
  const std::string op = "dyn.reshape";
  CheckCount(in, 2, op);
  const std::vector<int64_t> newshape = IntValues(in[1], op, "newshape");
  for (int64_t d : newshape) {
    // TVM's dynamic reshape keeps the output rank the length of newshape.
    if (d == -2 || d == -4) {
      throw Error(op + ": value " + std::to_string(d) +
                  " is not valid in newshape of dynamic reshape");
    }
  }
  return {"reshape",
          {0},
          {{"newshape", AttrValue::Ints(newshape)},
           {"allowzero", AttrValue::Bool(AttrsOf(attrs, op).get_bool("allowzero"))}}};
}

StaticForm BroadcastToForm(const Values& in, const ir::Attrs&) {
  const std::string op = "dyn.broadcast_to";
  CheckCount(in, 2, op);
  return {"broadcast_to", {0}, {{"shape", ShapeOf(in, 1, op, "shape")}}};
}

StaticForm ZerosForm(const Values& in, const ir::Attrs& attrs) {
  return Init("dyn.zeros", "zeros", in, attrs);
}

StaticForm OnesForm(const Values& in, const ir::Attrs& attrs) {
  return Init("dyn.ones", "ones", in, attrs);
}

StaticForm FullForm(const Values& in, const ir::Attrs& attrs) {
  const std::string op = "dyn.full";
  CheckCount(in, 2, op);
  return {"full",
          {0},
          {{"shape", ShapeOf(in, 1, op, "shape")}, {"dtype", AttrsOf(attrs, op).get("dtype")}}};
}

StaticForm TileForm(const Values& in, const ir::Attrs&) {
  const std::string op = "dyn.tile";
  CheckCount(in, 2, op);
  return {"tile", {0}, {{"reps", ShapeOf(in, 1, op, "reps")}}};
}

StaticForm ExpandDimsForm(const Values& in, const ir::Attrs& attrs) {
  const std::string op = "dyn.expand_dims";
  CheckCount(in, 2, op);
  return {"expand_dims",
          {0},
          {{"axis", AttrValue::Int(IntScalar(in[1], op, "axis"))},
           {"num_newaxis", AttrValue::Int(AttrsOf(attrs, op).get_int("num_newaxis"))}}};
}

StaticForm SqueezeForm(const Values& in, const ir::Attrs&) {
  const std::string op = "dyn.squeeze";
  CheckCount(in, 2, op);
  return {"squeeze", {0}, {{"axis", ShapeOf(in, 1, op, "axis")}}};
}

StaticForm StridedSliceForm(const Values& in, const ir::Attrs& attrs) {
  const std::string op = "dyn.strided_slice";
  CheckCount(in, 4, op);
  return {"strided_slice",
          {0},
          {{"begin", ShapeOf(in, 1, op, "begin")},
           {"end", ShapeOf(in, 2, op, "end")},
           {"strides", ShapeOf(in, 3, op, "strides")},
           {"slice_mode", AttrsOf(attrs, op).get("slice_mode")}}};
}

StaticForm OneHotForm(const Values& in, const ir::Attrs& attrs) {
  const std::string op = "dyn.one_hot";
  CheckCount(in, 4, op);
  const ir::AttrsNode& a = AttrsOf(attrs, op);
  return {"one_hot",
          {0, 1, 2},
          {{"depth", AttrValue::Int(IntScalar(in[3], op, "depth"))},
           {"axis", a.get("axis")},
           {"dtype", a.get("dtype")}}};
}

StaticForm TopKForm(const Values& in, const ir::Attrs& attrs) {
  const std::string op = "dyn.topk";
  CheckCount(in, 2, op);
  const ir::AttrsNode& a = AttrsOf(attrs, op);
  return {"topk",
          {0},
          {{"k", AttrValue::Int(IntScalar(in[1], op, "k"))},
           {"axis", a.get("axis")},
           {"ret_type", a.get("ret_type")},
           {"is_ascend", a.get("is_ascend")},
           {"dtype", a.get("dtype")}}};
}

StaticForm SparseToDenseForm(const Values& in, const ir::Attrs&) {
  const std::string op = "dyn.sparse_to_dense";
  CheckCount(in, 4, op);
  return {"sparse_to_dense", {0, 1, 2}, {{"output_shape", ShapeOf(in, 3, op, "output_shape")}}};
}

StaticForm PadForm(const Values& in, const ir::Attrs& attrs) {
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
  return {"nn.pad",
          {0, 2},
          {{"pad_width", AttrValue::Array(std::move(rows))},
           {"pad_mode", AttrsOf(attrs, op).get("pad_mode")}}};
}

StaticForm UpSamplingForm(const Values& in, const ir::Attrs& attrs) {
  const std::string op = "dyn.nn.upsampling";
  CheckCount(in, 3, op);
  const ir::AttrsNode& a = AttrsOf(attrs, op);
  const ir::DataType f64 = ir::DataType::Float(64);
  return {"nn.upsampling",
          {0},
          {{"scale_h", AttrValue::Double(DoubleScalar(in[1], op, "scale_h"), f64)},
           {"scale_w", AttrValue::Double(DoubleScalar(in[2], op, "scale_w"), f64)},
           {"layout", a.get("layout")},
           {"method", a.get("method")},
           {"align_corners", a.get("align_corners")}}};
}

StaticForm UpSampling3DForm(const Values& in, const ir::Attrs& attrs) {
  const std::string op = "dyn.nn.upsampling3d";
  CheckCount(in, 4, op);
  const ir::AttrsNode& a = AttrsOf(attrs, op);
  const ir::DataType f64 = ir::DataType::Float(64);
  return {"nn.upsampling3d",
          {0},
          {{"scale_d", AttrValue::Double(DoubleScalar(in[1], op, "scale_d"), f64)},
           {"scale_h", AttrValue::Double(DoubleScalar(in[2], op, "scale_h"), f64)},
           {"scale_w", AttrValue::Double(DoubleScalar(in[3], op, "scale_w"), f64)},
           {"layout", a.get("layout")},
           {"method", a.get("method")},
           {"coordinate_transformation_mode", a.get("coordinate_transformation_mode")}}};
}

StaticForm Resize2DForm(const Values& in, const ir::Attrs& attrs) {
  const std::string op = "dyn.image.resize2d";
  CheckCount(in, 3, op);
  const ir::AttrsNode& a = AttrsOf(attrs, op);
  if (in[2].size() != 4) {
    throw Error(op + ": roi must hold 4 values, got " + std::to_string(in[2].size()));
  }
  std::vector<AttrValue> roi;
  for (int64_t i = 0; i < 4; ++i) roi.push_back(AttrValue::Double(in[2].GetAsDouble(i)));
  StaticForm form{
      "image.resize2d",
      {0},
      {{"size", ShapeOf(in, 1, op, "size")}, {"roi", AttrValue::Array(std::move(roi))}}};
  for (const char* name : {"layout", "method", "coordinate_transformation_mode", "rounding_method",
                           "cubic_alpha", "cubic_exclude", "extrapolation_value", "out_dtype"}) {
    form.attrs.emplace_back(name, a.get(name));
  }
  return form;
}

}  // namespace relaypass::op::dyn
