// Unique as TVM v0.13's from_onnx converts it: relay `unique` on the flattened input (or a 1-D
// input with axis 0) with counts, the unique values, first indices and counts cut to the number
// of unique values with a dynamic strided_slice (`?` extents), the indices cast to int64.
// Unique along an axis of a tensor of rank 2 or more (unique slices) has no Relay operator: TVM
// rejects it ("TVM only supports 1D Unique operator.") and so does relaypass, as unsupported.
#include "context.h"
#include "data_dependent.h"
#include "relaypass/relay.h"

namespace relaypass::frontend::onnx_import {

namespace {

namespace relay = relaypass::relay;

Outputs Unique(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  const int64_t sorted = ctx.attr_int("sorted", 1);
  if (sorted != 0 && sorted != 1) ctx.Fail("sorted must be 0 or 1");
  ir::Expr data = ctx.input(0);
  if (!ctx.has_attr("axis")) {
    data = relay::reshape(data, relay::Ints{-1});
  } else {
    NormalizeAxis(ctx, ctx.attr_int("axis", 0), ctx.ndim(0));
    if (ctx.ndim(0) != 1) {
      ctx.Unsupported("Unique along an axis of a " + std::to_string(ctx.ndim(0)) +
                      "-D tensor (TVM only supports 1D Unique operator)");
    }
  }
  // ONNX's counts output is optional without a flag saying whether it is wanted: always made.
  ir::Expr u = relay::call(
      "unique", {data},
      {{"sorted", ir::AttrValue::Bool(sorted == 1)}, {"return_counts", ir::AttrValue::Bool(true)}});
  ir::NDArray zero = ir::NDArray::Empty({1}, ir::DataType::Int32());
  *zero.mutable_data<int32_t>() = 0;
  const ir::Expr num_unique = relay::get_item(u, 3);
  auto trim = [&](int field) {
    return DynamicStridedSlice(relay::get_item(u, field), relay::const_(zero), num_unique);
  };
  return {trim(0), relay::cast(trim(1), "int64"), relay::cast(relay::get_item(u, 2), "int64"),
          relay::cast(trim(4), "int64")};
}

}  // namespace

void RegisterUnique(ConverterTable& t) {
  t.Add("Unique", 11, Unique);
}

}  // namespace relaypass::frontend::onnx_import
