// CombineParallelConv2D (TVM v0.13's src/relay/transforms/combine_parallel_conv2d.cc): conv2d
// calls (groups=1) on one input with equal attributes and kernel sizes become one conv2d on the
// weights concatenated along O; following elementwise calls are combined by concatenating their
// other arguments along the channel axis; each branch takes its channels back with
// strided_slice(slice_mode="size").
#include "combiner.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/passes/combine_parallel.h"
#include "relaypass/relay.h"

namespace relaypass::passes {

namespace {

using combine_parallel::Group;
using combine_parallel::TensorTypeOf;
using ir::Expr;

// The O extent of a conv2d's weight (TVM's GetConv2DSuperChannelsDim).
int64_t SuperChannels(const ir::CallNode* conv) {
  const size_t o = conv->attrs->get_string("kernel_layout").find('O');
  return TensorTypeOf(conv->args[1]).shape.at(o);
}

class Conv2DCombiner final : public combine_parallel::ParallelOpCombiner {
 public:
  explicit Conv2DCombiner(uint64_t min_num_branches)
      : ParallelOpCombiner("nn.conv2d", min_num_branches) {}

 protected:
  bool IsSupportedOp(const ir::CallNode* n) override { return n->attrs->get_int("groups") == 1; }

  bool CanOpsBeCombined(const ir::CallNode* a, const ir::CallNode* b) override {
    for (const char* field : {"strides", "padding", "dilation", "groups", "data_layout",
                              "kernel_layout", "out_dtype", "out_layout"}) {
      if (a->attrs->get(field) != b->attrs->get(field)) return false;
    }
    // The kernel's H and W extents (TVM maps the weight shape to OIHW).
    const std::string& layout = a->attrs->get_string("kernel_layout");
    const auto& wa = TensorTypeOf(a->args[1]).shape;
    const auto& wb = TensorTypeOf(b->args[1]).shape;
    for (char axis : {'H', 'W'}) {
      const size_t at = layout.find(axis);
      if (at == std::string::npos || at >= wa.size() || at >= wb.size() || wa[at] != wb[at]) {
        return false;
      }
    }
    return true;
  }

  Expr MakeCombinedOp(const Group& branches) override {
    const ir::CallNode* root = branches[0][0];
    std::vector<Expr> weights;
    int64_t num_filters = 0;
    for (const auto& branch : branches) {
      weights.push_back(branch[0]->args[1]);
      num_filters += SuperChannels(branch[0]);
    }
    const auto weight_axis = static_cast<int>(root->attrs->get_string("kernel_layout").find('O'));
    Expr weight = relay::concatenate(std::move(weights), weight_axis);
    const std::string& out_layout = root->attrs->get_string("out_layout");
    const std::string& layout =
        out_layout.empty() ? root->attrs->get_string("data_layout") : out_layout;
    channel_pos_ = layout.find('C');
    ir::Attrs attrs = root->attrs->With("channels", ir::AttrValue::Int(num_filters));
    return ir::MakeCall(root->op, {root->args[0], weight}, attrs);
  }

  bool IsArgCompatible(const ir::CallNode* a, const ir::CallNode* b, size_t index) override {
    const auto& ta = TensorTypeOf(a->args[index]);
    const auto& tb = TensorTypeOf(b->args[index]);
    const auto& out_a = TensorTypeOf(a);
    const auto& out_b = TensorTypeOf(b);
    if (ta.dtype != tb.dtype || ta.shape.size() != tb.shape.size()) return false;
    // The channel axis must be present in the argument, not broadcast.
    if (out_a.shape.size() > ta.shape.size() + channel_pos_) return false;
    const size_t arg_pos = channel_pos_ + ta.shape.size() - out_a.shape.size();
    if (ta.shape[arg_pos] != out_a.shape[channel_pos_] ||
        tb.shape[arg_pos] != out_b.shape[channel_pos_]) {
      return false;
    }
    for (size_t i = 0; i < ta.shape.size(); ++i) {
      if (i != arg_pos && ta.shape[i] != tb.shape[i]) return false;
    }
    return true;
  }

  Expr MakeCombinedCallFromFollowingOps(const Expr& data, const Group& branches, size_t depth,
                                        size_t parent_index) override {
    const ir::CallNode* call = branches[0][depth];
    const size_t ndim = TensorTypeOf(call).shape.size();
    std::vector<Expr> args;
    for (size_t i = 0; i < call->args.size(); ++i) {
      if (i == parent_index) {
        args.push_back(data);
        continue;
      }
      const size_t arg_ndim = TensorTypeOf(call->args[i]).shape.size();
      std::vector<Expr> fields;
      for (const auto& branch : branches) fields.push_back(branch[depth]->args[i]);
      args.push_back(
          relay::concatenate(std::move(fields), static_cast<int>(channel_pos_ + arg_ndim - ndim)));
    }
    return ir::MakeCall(call->op, std::move(args), call->attrs);
  }

  void UpdateGroupOutput(const Expr& data, const Group& branches, size_t depth,
                         combine_parallel::SubstMap& subst) override {
    int64_t index = 0;
    for (const auto& branch : branches) {
      const int64_t channels = SuperChannels(branch[0]);
      relay::Ints begin(channel_pos_, 0), end(channel_pos_, -1);
      begin.push_back(index);
      end.push_back(channels);
      index += channels;
      relay::Ints strides(begin.size(), 1);
      subst.emplace(branch[depth],
                    relay::strided_slice(data, begin, end, strides, std::nullopt, "size"));
    }
  }

 private:
  size_t channel_pos_ = 1;
};

}  // namespace

transform::Pass CombineParallelConv2D(int64_t min_num_branches) {
  return transform::CreateFunctionPass(
      [min_num_branches](const ir::Function& func, const ir::IRModule& mod,
                         const transform::PassContext&) {
        ir::Function typed =
            func->checked_type ? func : ir::InferExprTypes(func, mod).downcast<ir::FunctionNode>();
        return Conv2DCombiner(static_cast<uint64_t>(min_num_branches))
            .Combine(typed)
            .downcast<ir::FunctionNode>();
      },
      4, "CombineParallelConv2D", {"InferType"});
}

}  // namespace relaypass::passes
