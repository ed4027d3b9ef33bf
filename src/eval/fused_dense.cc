#include "fused_dense.h"

#include "kernel_errors.h"
#include "output_budget.h"
#include "relaypass/ir/type.h"

namespace relaypass::eval {

namespace {

bool IsFloat32Tensor(const ir::Expr& e, bool need_static_matrix) {
  const auto* tt = e->checked_type.defined() ? e->checked_type.as<ir::TensorTypeNode>() : nullptr;
  if (!tt || tt->dtype != ir::DataType::Float32()) return false;
  return !need_static_matrix || (tt->is_static() && tt->shape.size() == 2);
}

int ParamIndex(const ir::Expr& e, const ir::FunctionNode* fn) {
  for (size_t i = 0; i < fn->params.size(); ++i) {
    if (fn->params[i].get() == e.get()) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace

std::unique_ptr<FusedDense> MatchFusedDense(const ir::FunctionNode* fn) {
  if (!fn->is_primitive()) return nullptr;
  const auto* call = fn->body.as<ir::CallNode>();
  if (!call || !call->op_node() || call->op_node()->name != "nn.dense" || call->args.size() != 2 ||
      !IsFloat32Tensor(fn->body, false) || !IsFloat32Tensor(call->args[0], false) ||
      !IsFloat32Tensor(call->args[1], true)) {
    return nullptr;
  }
  auto fused = std::make_unique<FusedDense>();
  fused->dense = call;
  fused->data_param = ParamIndex(call->args[0], fn);
  if (fused->data_param < 0) return nullptr;
  if (const auto* c = call->args[1].as<ir::ConstantNode>()) {
    fused->weight_constant = c->data;
    fused->prepacked = op::PrepackDenseWeight(c->data);
    if (!fused->prepacked) return nullptr;
  } else {
    fused->weight_param = ParamIndex(call->args[1], fn);
    if (fused->weight_param < 0 || fused->weight_param == fused->data_param) return nullptr;
  }
  return fused;
}

Value RunFusedDense(const FusedDense& fused, const std::vector<Value>& args,
                    const op::PrepackedDenseWeight& prepacked) {
  const ir::NDArray& data = args.at(static_cast<size_t>(fused.data_param)).tensor();
  return Value(WithCallContext(fused.dense, "nn.dense", [&] {
    CheckResultFitsBudget(fused.dense->checked_type);
    return op::DenseWithPrepackedWeight(data, prepacked);
  }));
}

}  // namespace relaypass::eval
