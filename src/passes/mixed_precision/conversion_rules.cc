// The operators' mixed precision rules: TVM v0.13's default lists
// (python/tvm/relay/transform/mixed_precision.py), and the ones registered since.
#include "conversion_rules.h"

#include <mutex>
#include <unordered_map>

namespace relaypass::passes::mixed_precision {

namespace {

const char* const kAlwaysList[] = {
    "nn.conv1d",           "nn.conv2d",           "nn.conv3d", "nn.conv1d_transpose",
    "nn.conv2d_transpose", "nn.conv3d_transpose", "nn.dense",  "nn.batch_matmul",
};
const char* const kFollowList[] = {
    // These ops add new data or change shape
    "nn.pad",
    "nn.batch_flatten",
    "concatenate",
    "zeros",
    "split",
    "squeeze",
    "transpose",
    "expand_dims",
    "reshape",
    "dyn.reshape",
    "broadcast_to_like",
    "dyn.broadcast_to",
    "strided_slice",
    "dyn.strided_slice",
    "take",
    "argwhere",
    "where",
    "tile",
    "dyn.tile",
    "scatter",
    "scatter_elements",
    "scatter_nd",
    "full",
    "dyn.full",
    "nn.depth_to_space",
    // Comparison
    "less",
    "greater",
    "less_equal",
    "greater_equal",
    // By definition copy and cast will depend on inputs for output.
    "copy",
    "cast",
    "cast_like",
    // Simple arithmetic
    "add",
    "subtract",
    "multiply",
    "divide",
    "nn.bias_add",
    "nn.batch_norm",
    "sqrt",
    "shape_of",
    // Simple activations
    "max",
    "min",
    "maximum",
    "minimum",
    "argmax",
    "argmin",
    "nn.relu",
    "nn.leaky_relu",
    "nn.prelu",
    "nn.dropout",
    // Complicated activations which saturate in a narrow range
    "sigmoid",
    "tanh",
    "fast_tanh",
    "fast_exp",
    "fast_erf",
    "clip",
    // Pooling operations
    "nn.max_pool1d",
    "nn.max_pool2d",
    "nn.max_pool3d",
    "nn.avg_pool1d",
    "nn.avg_pool2d",
    "nn.avg_pool3d",
    "nn.global_max_pool2d",
    "nn.adaptive_max_pool1d",
    "nn.adaptive_max_pool2d",
    "nn.adaptive_max_pool3d",
    "image.resize2d",
};
const char* const kNeverList[] = {
    "exp",
    "power",
    "nn.cross_entropy",
    "nn.cross_entropy_with_logits",
    "nn.softmax",
    "nn.l2_normalize",
    "erf",
    "arange",
    "nn.global_avg_pool2d",
    "nn.adaptive_avg_pool1d",
    "nn.adaptive_avg_pool2d",
    "nn.adaptive_avg_pool3d",
    "sum",
    "mean",
    "variance",
    "nn.layer_norm",
};

struct Rules {
  std::mutex mutex;
  std::unordered_map<std::string, MixedPrecisionRule> by_op;
};

Rules& Table() {
  static Rules* rules = [] {
    auto* r = new Rules();
    for (const char* op : kAlwaysList) {
      r->by_op[op] = GenericMixedPrecisionRule(MixedPrecisionCategory::kAlways);
    }
    for (const char* op : kFollowList) {
      r->by_op[op] = GenericMixedPrecisionRule(MixedPrecisionCategory::kFollow);
    }
    for (const char* op : kNeverList) {
      r->by_op[op] = GenericMixedPrecisionRule(MixedPrecisionCategory::kNever);
    }
    return r;
  }();
  return *rules;
}

}  // namespace

std::optional<MixedPrecisionRule> FindRule(const std::string& op_name) {
  Rules& rules = Table();
  std::lock_guard<std::mutex> lock(rules.mutex);
  auto it = rules.by_op.find(op_name);
  if (it == rules.by_op.end()) return std::nullopt;
  return it->second;
}

}  // namespace relaypass::passes::mixed_precision

namespace relaypass::passes {

MixedPrecisionRule GenericMixedPrecisionRule(MixedPrecisionCategory category) {
  // TVM's get_generic_out_dtypes: accumulate and output in the mixed type.
  return [category](const ir::Call&, const std::string& mixed_type) {
    return MixedPrecisionConversion{category, mixed_type, mixed_type};
  };
}

void RegisterMixedPrecisionConversion(const std::string& op_name, MixedPrecisionRule rule) {
  mixed_precision::Rules& rules = mixed_precision::Table();
  std::lock_guard<std::mutex> lock(rules.mutex);
  rules.by_op[op_name] = std::move(rule);
}

}  // namespace relaypass::passes
