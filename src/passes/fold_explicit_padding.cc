#include "relaypass/passes/fold_explicit_padding.h"

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "relaypass/ir/visitor.h"
#include "relaypass/op/registry.h"

namespace relaypass::passes {

namespace {

using ir::AttrValue;
using ir::Expr;

// What follows the pad (TVM's SimplifyExplicitPad patterns): a convolution (folds a zero pad), a
// quantized convolution (folds a pad of its input zero point), an average pool (zero) or a max
// pool (the dtype's lowest value).
enum class Consumer { kConv, kQnnConv, kAvgPool, kMaxPool };

// The scalar value of a constant, or nullopt.
std::optional<double> ScalarValue(const Expr& e) {
  auto* c = e.as<ir::ConstantNode>();
  if (c == nullptr || c->data.size() != 1) return std::nullopt;
  return c->data.GetAsDouble(0);
}

// The lowest value of `dtype` (TVM's min_value), as a double.
std::optional<double> LowestValue(ir::DataType dtype) {
  if (dtype == ir::DataType::Float(32)) return std::numeric_limits<float>::lowest();
  if (dtype == ir::DataType::Float(64)) return std::numeric_limits<double>::lowest();
  if (dtype == ir::DataType::Float(16)) return -65504.0;
  if (dtype.is_int() && dtype.bits() < 64) return -std::ldexp(1.0, dtype.bits() - 1);
  if (dtype.is_int()) return static_cast<double>(std::numeric_limits<int64_t>::min());
  if (dtype.is_uint()) return 0.0;
  return std::nullopt;
}

// TVM's get_padding: the pad widths of the spatial axes of `layout`, all "before" values then all
// "after" values; nullopt if a non-spatial axis is padded or the ranks differ.
std::optional<std::vector<AttrValue>> SpatialPadding(const AttrValue& pad_width,
                                                     const std::string& layout) {
  const std::vector<AttrValue>& widths = pad_width.as_array();
  if (widths.size() != layout.size()) return std::nullopt;
  auto spatial = [](char c) { return c == 'H' || c == 'W' || c == 'D'; };
  for (size_t i = 0; i < widths.size(); ++i) {
    if (spatial(layout[i])) continue;
    for (const AttrValue& w : widths[i].as_array()) {
      if (w.as_int() != 0) return std::nullopt;
    }
  }
  std::vector<AttrValue> padding;
  for (size_t j = 0; j < 2; ++j) {
    for (size_t i = 0; i < widths.size(); ++i) {
      if (!spatial(layout[i])) continue;
      const std::vector<AttrValue>& w = widths[i].as_array();
      if (j >= w.size()) return std::nullopt;
      padding.push_back(w[j]);
    }
  }
  return padding;
}

// padding + old, elementwise; int64 if either value is (TVM adds IntImms).
std::optional<AttrValue> Combined(const std::vector<AttrValue>& padding, const AttrValue& old) {
  const std::vector<AttrValue>& previous = old.as_array();
  if (previous.size() != padding.size()) return std::nullopt;
  std::vector<AttrValue> out;
  for (size_t i = 0; i < padding.size(); ++i) {
    const bool wide = padding[i].int_dtype().bits() == 64 || previous[i].int_dtype().bits() == 64;
    out.push_back(AttrValue::Int(padding[i].as_int() + previous[i].as_int(),
                                 wide ? ir::DataType::Int(64) : ir::DataType::Int32()));
  }
  return AttrValue::Array(std::move(out));
}

class PaddingFolder : public ir::ExprMutator {
 public:
  PaddingFolder() : pad_(op::GetOp("nn.pad").get()) {
    for (const char* name : {"nn.conv1d", "nn.conv2d", "nn.conv3d"})
      consumers_.push_back({name, Consumer::kConv});
    consumers_.push_back({"qnn.conv2d", Consumer::kQnnConv});
    for (const char* name : {"nn.avg_pool1d", "nn.avg_pool2d", "nn.avg_pool3d"}) {
      consumers_.push_back({name, Consumer::kAvgPool});
    }
    for (const char* name : {"nn.max_pool1d", "nn.max_pool2d", "nn.max_pool3d"}) {
      consumers_.push_back({name, Consumer::kMaxPool});
    }
  }

 protected:
  Expr RewriteCall(const ir::CallNode*, const Expr& post) override {
    Expr current = post;
    // Each fold may expose another pad (pad(pad(x))): fold until none does.
    while (std::optional<Expr> folded = FoldOnce(current)) current = *folded;
    return current;
  }

 private:
  std::optional<Expr> FoldOnce(const Expr& e) const {
    auto* call = e.as<ir::CallNode>();
    const ir::OpNode* op = call->op_node();
    if (op == nullptr || call->args.empty()) return std::nullopt;
    std::optional<Consumer> kind;
    for (const auto& [name, k] : consumers_) {
      if (op->name == name) kind = k;
    }
    if (!kind) return std::nullopt;
    auto* pad = call->args[0].as<ir::CallNode>();
    if (pad == nullptr || pad->op_node() != pad_ || pad->args.size() != 2) return std::nullopt;
    if (pad->attrs->get_string("pad_mode") != "constant") return std::nullopt;
    std::optional<double> value = ScalarValue(pad->args[1]);
    if (!value) return std::nullopt;
    ir::Attrs attrs = call->attrs;
    const bool conv = *kind == Consumer::kConv || *kind == Consumer::kQnnConv;
    const std::string layout = attrs->get_string(conv ? "data_layout" : "layout");
    if (*kind == Consumer::kQnnConv) {
      // The pad value must be the input zero point (both scalar constants, TVM's IsEqualScalar).
      if (call->args.size() != 6) return std::nullopt;
      std::optional<double> zero_point = ScalarValue(call->args[2]);
      if (!zero_point || *zero_point != *value) return std::nullopt;
    } else if (*kind == Consumer::kMaxPool) {
      std::optional<double> lowest = LowestValue(pad->args[1].as<ir::ConstantNode>()->data.dtype());
      if (!lowest || *value != *lowest) return std::nullopt;
    } else if (*value != 0.0) {
      return std::nullopt;
    }
    std::optional<std::vector<AttrValue>> padding =
        SpatialPadding(pad->attrs->get("pad_width"), layout);
    if (!padding) return std::nullopt;
    std::optional<AttrValue> combined = Combined(*padding, attrs->get("padding"));
    if (!combined) return std::nullopt;
    if (*kind == Consumer::kAvgPool && !attrs->get_bool("count_include_pad")) {
      // The divisor must count the folded padding: only if the pool pads nothing itself.
      for (const AttrValue& p : attrs->get("padding").as_array()) {
        if (p.as_int() != 0) return std::nullopt;
      }
      attrs = attrs->With("count_include_pad", AttrValue::Bool(true));
    }
    attrs = attrs->With("padding", *combined);
    std::vector<Expr> args = call->args;
    args[0] = pad->args[0];
    return ir::MakeCall(call->op, std::move(args), attrs);
  }

  const ir::OpNode* pad_;
  std::vector<std::pair<std::string, Consumer>> consumers_;
};

}  // namespace

transform::Pass FoldExplicitPadding() {
  return transform::CreateFunctionPass(
      [](const ir::Function& func, const ir::IRModule&, const transform::PassContext&) {
        return PaddingFolder().Mutate(func).downcast<ir::FunctionNode>();
      },
      0, "FoldExplicitPadding", {"InferType"});
}

void RegisterFoldExplicitPadding(transform::PassRegistry& registry) {
  registry.Register({"FoldExplicitPadding",
                     {},
                     [](const transform::PassOptions&) { return FoldExplicitPadding(); },
                     "folds an explicit nn.pad into the padding of the conv/pool after it"});
}

}  // namespace relaypass::passes
