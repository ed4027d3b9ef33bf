// The static forms of the dyn.* operators (op::StaticForm): which static op each stands for, and
// how its run-time arguments' values become that op's attributes. Their kernels run the form
// (static_call.h: DynKernel); DynamicToStatic applies it to calls with constant arguments.
#pragma once

#include "relaypass/op/registry.h"

namespace relaypass::op::dyn {

// dyn.reshape, dyn.broadcast_to, dyn.zeros, dyn.ones, dyn.full, dyn.tile, dyn.expand_dims,
// dyn.squeeze, dyn.strided_slice, dyn.one_hot, dyn.topk, dyn.sparse_to_dense.
StaticForm ReshapeForm(const std::vector<ir::NDArray>& values, const ir::Attrs& attrs);
StaticForm BroadcastToForm(const std::vector<ir::NDArray>& values, const ir::Attrs& attrs);
StaticForm ZerosForm(const std::vector<ir::NDArray>& values, const ir::Attrs& attrs);
StaticForm OnesForm(const std::vector<ir::NDArray>& values, const ir::Attrs& attrs);
StaticForm FullForm(const std::vector<ir::NDArray>& values, const ir::Attrs& attrs);
StaticForm TileForm(const std::vector<ir::NDArray>& values, const ir::Attrs& attrs);
StaticForm ExpandDimsForm(const std::vector<ir::NDArray>& values, const ir::Attrs& attrs);
StaticForm SqueezeForm(const std::vector<ir::NDArray>& values, const ir::Attrs& attrs);
StaticForm StridedSliceForm(const std::vector<ir::NDArray>& values, const ir::Attrs& attrs);
StaticForm OneHotForm(const std::vector<ir::NDArray>& values, const ir::Attrs& attrs);
StaticForm TopKForm(const std::vector<ir::NDArray>& values, const ir::Attrs& attrs);
StaticForm SparseToDenseForm(const std::vector<ir::NDArray>& values, const ir::Attrs& attrs);
// dyn.nn.pad, dyn.nn.upsampling, dyn.nn.upsampling3d, dyn.image.resize2d.
StaticForm PadForm(const std::vector<ir::NDArray>& values, const ir::Attrs& attrs);
StaticForm UpSamplingForm(const std::vector<ir::NDArray>& values, const ir::Attrs& attrs);
StaticForm UpSampling3DForm(const std::vector<ir::NDArray>& values, const ir::Attrs& attrs);
StaticForm Resize2DForm(const std::vector<ir::NDArray>& values, const ir::Attrs& attrs);

}  // namespace relaypass::op::dyn
