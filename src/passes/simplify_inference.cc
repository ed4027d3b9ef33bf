#include "relaypass/passes/simplify_inference.h"

#include <optional>

#include "relaypass/ir/visitor.h"
#include "relaypass/relay.h"

namespace relaypass::passes {

namespace {

using ir::Expr;

// A scalar constant of `dtype` holding `value` (the float32 value cast, as TVM's
// MakeConstantScalar).
Expr Scalar(double value, ir::DataType dtype) {
  if (dtype == ir::DataType::Float32()) return relay::const_(static_cast<float>(value));
  return relay::const_(static_cast<double>(static_cast<float>(value)), dtype.ToString());
}

// expand_dims(v, axis=1, num_newaxis=ndim-axis-1) so a per-channel vector broadcasts against the
// data; omitted when the channel is the last axis (TVM's ExpandBiasToMatchAxis).
Expr ExpandToAxis(const Expr& v, int ndim, int axis) {
  int num_newaxis = ndim - axis - 1;
  return num_newaxis > 0 ? relay::expand_dims(v, 1, num_newaxis) : v;
}

// batch_norm(x, gamma, beta, mean, var).0 for inference.
Expr UnpackBatchNorm(const ir::CallNode* call, const ir::Type& data_type) {
  auto* tensor = data_type.as<ir::TensorTypeNode>();
  const ir::AttrsNode& attrs = *call->attrs;
  int ndim = tensor->ndim();
  int axis = static_cast<int>(attrs.get_int("axis"));
  if (axis < 0) axis += ndim;
  const Expr& x = call->args[0];
  const Expr& gamma = call->args[1];
  const Expr& beta = call->args[2];
  const Expr& mean = call->args[3];
  const Expr& var = call->args[4];
  Expr epsilon = Scalar(attrs.get_double("epsilon"), tensor->dtype);
  Expr scale = relay::divide(Scalar(1, tensor->dtype), relay::sqrt(relay::add(var, epsilon)));
  if (attrs.get_bool("scale")) scale = relay::multiply(scale, gamma);
  Expr shift = relay::multiply(relay::negative(mean), scale);
  if (attrs.get_bool("center")) shift = relay::add(shift, beta);
  return relay::add(relay::multiply(x, ExpandToAxis(scale, ndim, axis)),
                    ExpandToAxis(shift, ndim, axis));
}

// (x - mean) / sqrt(variance + eps) over `axes`, as TVM's *NormToInferUnpack compute it.
Expr Standardize(const Expr& x, const relay::Ints& axes, const Expr& epsilon) {
  Expr mean = relay::mean(x, axes, true);
  Expr var = relay::variance(x, mean, axes, true);
  Expr denom = relay::sqrt(relay::add(var, epsilon));
  return relay::divide(relay::subtract(x, mean), denom);
}

// gamma and beta of a norm expanded to `axis` and applied, as its scale and center attrs say.
Expr ScaleAndCenter(Expr out, const ir::CallNode* call, int ndim, int axis) {
  const ir::AttrsNode& attrs = *call->attrs;
  if (attrs.get_bool("scale")) out = relay::multiply(out, ExpandToAxis(call->args[1], ndim, axis));
  if (attrs.get_bool("center")) out = relay::add(out, ExpandToAxis(call->args[2], ndim, axis));
  return out;
}

// TVM's LayerNormToInferUnpack (the axis as given, negative or not) and
// InstanceNormToInferUnpack (every axis but the batch and channel ones).
Expr UnpackNorm(const ir::CallNode* call, const ir::Type& data_type, bool instance) {
  auto* tensor = data_type.as<ir::TensorTypeNode>();
  const ir::AttrsNode& attrs = *call->attrs;
  const int ndim = tensor->ndim();
  const auto given = static_cast<int>(attrs.get_int("axis"));
  const int axis = given < 0 ? given + ndim : given;
  relay::Ints axes;
  if (instance) {
    for (int i = 1; i < ndim; ++i) {
      if (i != axis) axes.push_back(i);
    }
  } else {
    axes.push_back(given);
  }
  Expr epsilon = Scalar(attrs.get_double("epsilon"), tensor->dtype);
  return ScaleAndCenter(Standardize(call->args[0], axes, epsilon), call, ndim, axis);
}

// TVM's GroupNormToInferUnpack: the channel axis split into (num_groups, channels / num_groups),
// standardized over that second part and every later axis, reshaped back.
Expr UnpackGroupNorm(const ir::CallNode* call, const ir::Type& data_type) {
  auto* tensor = data_type.as<ir::TensorTypeNode>();
  if (!tensor->is_static()) return Expr();
  const ir::AttrsNode& attrs = *call->attrs;
  const int ndim = tensor->ndim();
  int axis = static_cast<int>(attrs.get_int("axis"));
  if (axis < 0) axis += ndim;
  const int64_t groups = attrs.get_int("num_groups");
  relay::Ints grouped, reduced, original(tensor->shape.begin(), tensor->shape.end());
  for (int i = 0; i < ndim; ++i) {
    if (i == axis) {
      grouped.push_back(groups);
      grouped.push_back(tensor->shape[i] / groups);
      reduced.push_back(i + 1);
      continue;
    }
    if (i >= axis) reduced.push_back(i + 1);
    grouped.push_back(tensor->shape[i]);
  }
  Expr epsilon = Scalar(attrs.get_double("epsilon"), tensor->dtype);
  Expr out = Standardize(relay::reshape(call->args[0], grouped), reduced, epsilon);
  return ScaleAndCenter(relay::reshape(out, original), call, ndim, axis);
}

// TVM's L2NormToInferUnpack: x / sqrt(max(sum(x * x, axis, keepdims), eps)).
Expr UnpackL2Normalize(const ir::CallNode* call) {
  const ir::AttrsNode& attrs = *call->attrs;
  const Expr& x = call->args[0];
  std::optional<relay::Ints> axis;
  if (!attrs.get("axis").is_null()) axis = attrs.get_ints("axis");
  Expr epsilon = Scalar(attrs.get_double("eps"), ir::DataType::Float32());
  Expr sum = relay::maximum(relay::sum(relay::multiply(x, x), axis, true), epsilon);
  return relay::divide(x, relay::sqrt(sum));
}

class InferenceSimplifier : public ir::ExprMutator {
 protected:
  Expr RewriteCall(const ir::CallNode* pre, const Expr& post) override {
    auto* call = post.as<ir::CallNode>();
    auto* op = call ? call->op_node() : nullptr;
    if (!op) return post;
    if (op->name == "nn.l2_normalize") return UnpackL2Normalize(call);
    const bool group = op->name == "nn.group_norm";
    if (op->name != "nn.layer_norm" && op->name != "nn.instance_norm" && !group) return post;
    ir::Type data_type = pre->args[0]->checked_type;
    if (!data_type.as<ir::TensorTypeNode>()) return post;
    if (group) {
      Expr unpacked = UnpackGroupNorm(call, data_type);
      return unpacked ? unpacked : post;
    }
    return UnpackNorm(call, data_type, op->name == "nn.instance_norm");
  }

  Expr RewriteTupleGetItem(const ir::TupleGetItemNode* pre, const Expr& post) override {
    auto* item = post.as<ir::TupleGetItemNode>();
    auto* call = item->tuple.as<ir::CallNode>();
    auto* op = call ? call->op_node() : nullptr;
    if (!op || item->index != 0) return post;
    if (op->name == "nn.batch_norm") {
      // The data type comes from the input graph: the rewritten argument may be a new,
      // not yet typed node.
      ir::Type data_type = pre->tuple.as<ir::CallNode>()->args[0]->checked_type;
      if (!data_type.as<ir::TensorTypeNode>()) return post;
      return UnpackBatchNorm(call, data_type);
    }
    if (op->name == "nn.dropout") return call->args[0];
    return post;
  }
};

}  // namespace

transform::Pass SimplifyInference() {
  return transform::CreateFunctionPass(
      [](const ir::Function& func, const ir::IRModule&, const transform::PassContext&) {
        return InferenceSimplifier().Mutate(func).downcast<ir::FunctionNode>();
      },
      0, "SimplifyInference", {"InferType"});
}

void RegisterSimplifyInference(transform::PassRegistry& registry) {
  registry.Register(
      {"SimplifyInference",
       {},
       [](const transform::PassOptions&) { return SimplifyInference(); },
       "rewrites batch_norm, layer_norm, instance_norm, group_norm, l2_normalize and dropout "
       "into inference arithmetic"});
}

}  // namespace relaypass::passes
