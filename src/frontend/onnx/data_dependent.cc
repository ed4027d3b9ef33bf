#include "data_dependent.h"

#include "relaypass/relay.h"

namespace relaypass::frontend::onnx_import {

namespace relay = relaypass::relay;

ir::Expr DynamicStridedSlice(const ir::Expr& data, const ir::Expr& begin, const ir::Expr& end) {
  ir::Expr ishape = relay::cast_like(relay::shape_of(data), begin);
  ir::Expr ishape_slice = relay::slice_like(ishape, begin);
  ir::Expr zero = relay::cast_like(relay::const_(0), begin);
  ir::Expr b =
      relay::where(relay::call("less", {begin, zero}), relay::add(begin, ishape_slice), begin);
  b = relay::where(relay::call("greater_equal", {b, ishape_slice}), ishape_slice, b);
  ir::NDArray one = ir::NDArray::Empty({1}, ir::DataType::Int32());
  *one.mutable_data<int32_t>() = 1;
  return relay::call("dyn.strided_slice", {data, b, end, relay::const_(one)},
                     {{"slice_mode", ir::AttrValue::Str("end")}});
}

}  // namespace relaypass::frontend::onnx_import
