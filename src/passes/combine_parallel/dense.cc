// CombineParallelDense (TVM v0.13's src/relay/transforms/combine_parallel_dense.cc and
// combine_parallel_op_batch.cc). With to_batch (the default): dense calls on one input with equal
// weight shapes become one nn.batch_matmul of the stacked inputs and weights; following
// elementwise calls get their other arguments stacked (1-D ones expanded to (1, n) first); each
// branch takes its slice back with split + squeeze. Without to_batch: the weights are
// concatenated into one dense, following arguments concatenated along the last axis (repeated
// where they broadcast), and each branch takes its columns back with strided_slice.
#include "combiner.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/passes/combine_parallel.h"
#include "relaypass/relay.h"
#include "relaypass/support/error.h"

namespace relaypass::passes {

namespace {

using combine_parallel::Group;
using combine_parallel::TensorTypeOf;
using ir::Expr;

bool SameShape(const ir::TensorTypeNode& a, const ir::TensorTypeNode& b) {
  return a.dtype == b.dtype && a.shape == b.shape;
}

// TVM's ParallelDenseToBatchCombiner (a ParallelOpBatchCombiner from nn.dense to
// nn.batch_matmul).
class DenseToBatchCombiner final : public combine_parallel::ParallelOpCombiner {
 public:
  explicit DenseToBatchCombiner(uint64_t min_num_branches)
      : ParallelOpCombiner("nn.dense", min_num_branches) {}

 protected:
  bool IsSupportedOp(const ir::CallNode*) override { return true; }

  bool CanOpsBeCombined(const ir::CallNode* a, const ir::CallNode* b) override {
    const auto& wa = TensorTypeOf(a->args[1]).shape;
    const auto& wb = TensorTypeOf(b->args[1]).shape;
    return a->attrs->get("out_dtype") == b->attrs->get("out_dtype") && wa.size() >= 2 &&
           wb.size() >= 2 && wa[0] == wb[0] && wa[1] == wb[1];
  }

  Expr MakeCombinedOp(const Group& branches) override {
    std::vector<Expr> args;
    for (size_t i = 0; i < 2; ++i) {
      std::vector<Expr> fields;
      for (const auto& branch : branches) fields.push_back(branch[0]->args[i]);
      args.push_back(Stack(std::move(fields)));
    }
    return relay::nn::batch_matmul(
        args[0], args[1], branches[0][0]->attrs->get("out_dtype").as_string(), false, true);
  }

  bool IsArgCompatible(const ir::CallNode* a, const ir::CallNode* b, size_t index) override {
    return SameShape(TensorTypeOf(a->args[index]), TensorTypeOf(b->args[index]));
  }

  Expr MakeCombinedCallFromFollowingOps(const Expr& data, const Group& branches, size_t depth,
                                        size_t parent_index) override {
    const ir::CallNode* call = branches[0][depth];
    std::vector<Expr> args;
    for (size_t i = 0; i < call->args.size(); ++i) {
      if (i == parent_index) {
        args.push_back(data);
        continue;
      }
      std::vector<Expr> fields;
      for (const auto& branch : branches) {
        Expr arg = branch[depth]->args[i];
        // A (j,) argument becomes (1, j), so that it still broadcasts after stacking.
        if (TensorTypeOf(arg).shape.size() == 1) arg = relay::expand_dims(arg, 0, 1);
        fields.push_back(arg);
      }
      args.push_back(Stack(std::move(fields)));
    }
    return ir::MakeCall(call->op, std::move(args), call->attrs);
  }

  void UpdateGroupOutput(const Expr& data, const Group& branches, size_t depth,
                         combine_parallel::SubstMap& subst) override {
    Expr split = relay::split(data, static_cast<int>(branches.size()), 0);
    int index = 0;
    for (const auto& branch : branches) {
      subst.emplace(branch[depth], relay::squeeze(relay::get_item(split, index++), relay::Ints{0}));
    }
  }

 private:
  static Expr Stack(std::vector<Expr> fields) {
    return combine_parallel::CallOpNamed("stack", {relay::tuple(std::move(fields))},
                                         {{"axis", ir::AttrValue::Int(0)}});
  }
};

// TVM's ParallelDenseToDenseCombiner.
class DenseToDenseCombiner final : public combine_parallel::ParallelOpCombiner {
 public:
  explicit DenseToDenseCombiner(uint64_t min_num_branches)
      : ParallelOpCombiner("nn.dense", min_num_branches) {}

 protected:
  bool IsSupportedOp(const ir::CallNode*) override { return true; }

  bool CanOpsBeCombined(const ir::CallNode* a, const ir::CallNode* b) override {
    // The output units (the weights' first extent) may differ.
    const auto& wa = TensorTypeOf(a->args[1]).shape;
    const auto& wb = TensorTypeOf(b->args[1]).shape;
    return a->attrs->get("out_dtype") == b->attrs->get("out_dtype") && wa.size() >= 2 &&
           wb.size() >= 2 && wa[1] == wb[1];
  }

  Expr MakeCombinedOp(const Group& branches) override {
    std::vector<Expr> weights;
    int64_t units = 0;
    for (const auto& branch : branches) {
      weights.push_back(branch[0]->args[1]);
      units += TensorTypeOf(branch[0]->args[1]).shape[0];
    }
    const ir::CallNode* root = branches[0][0];
    return relay::nn::dense(root->args[0], relay::concatenate(std::move(weights), 0), units,
                            root->attrs->get("out_dtype").as_string());
  }

  bool IsArgCompatible(const ir::CallNode* a, const ir::CallNode* b, size_t index) override {
    const auto& ta = TensorTypeOf(a->args[index]);
    const auto& tb = TensorTypeOf(b->args[index]);
    if (ta.dtype != tb.dtype || ta.shape.size() != tb.shape.size()) return false;
    if (TensorTypeOf(a).shape.size() < ta.shape.size() ||
        TensorTypeOf(b).shape.size() < tb.shape.size()) {
      return false;  // not elementwise / broadcast
    }
    for (size_t i = 0; i + 1 < ta.shape.size(); ++i) {
      if (ta.shape[i] != tb.shape[i]) return false;  // all but the last extent equal
    }
    return true;
  }

  Expr MakeCombinedCallFromFollowingOps(const Expr& data, const Group& branches, size_t depth,
                                        size_t parent_index) override {
    const ir::CallNode* call = branches[0][depth];
    std::vector<Expr> args;
    for (size_t i = 0; i < call->args.size(); ++i) {
      if (i == parent_index) {
        args.push_back(data);
        continue;
      }
      const size_t arg_ndim = TensorTypeOf(call->args[i]).shape.size();
      const int axis = arg_ndim == 0 ? 0 : static_cast<int>(arg_ndim - 1);
      std::vector<Expr> fields;
      for (const auto& branch : branches) {
        const auto& parent_shape = TensorTypeOf(branch[depth]->args[parent_index]).shape;
        const int64_t out_dim = parent_shape.back();
        Expr arg = branch[depth]->args[i];
        bool repeat = false;
        if (arg_ndim == 0) {
          repeat = true;
          arg = relay::expand_dims(arg, -1, 1);
        } else if (out_dim > 1 && TensorTypeOf(arg).shape.back() == 1) {
          repeat = true;
        }
        if (repeat) arg = relay::repeat(arg, static_cast<int>(out_dim), axis);
        fields.push_back(arg);
      }
      args.push_back(relay::concatenate(std::move(fields), axis));
    }
    return ir::MakeCall(call->op, std::move(args), call->attrs);
  }

  // Calls after the dense may change the shape (expand_dims), so the sliced axis is the last one
  // whose extent is the dense's units (TVM's rule, with its caveat: a reshape or transpose that
  // moves that axis, or another axis of the same extent, would mislead it).
  void UpdateGroupOutput(const Expr& data, const Group& branches, size_t depth,
                         combine_parallel::SubstMap& subst) override {
    int64_t index = 0;
    for (const auto& branch : branches) {
      const auto& shape = TensorTypeOf(branch[depth]).shape;
      const int64_t units = TensorTypeOf(branch[0]).shape.at(1);
      size_t axis = shape.size();
      for (size_t i = shape.size(); i-- > 0;) {
        if (shape[i] == units) {
          axis = i;
          break;
        }
      }
      if (axis == shape.size()) {
        throw PassError("CombineParallelDense: no axis of the combined result has the dense's " +
                        std::to_string(units) + " units");
      }
      relay::Ints begin(shape.size(), 0), end(shape.size(), -1), strides(shape.size(), 1);
      begin[axis] = index;
      end[axis] = units;
      index += units;
      subst.emplace(branch[depth],
                    relay::strided_slice(data, begin, end, strides, std::nullopt, "size"));
    }
  }
};

}  // namespace

transform::Pass CombineParallelDense(int64_t min_num_branches, bool to_batch) {
  return transform::CreateFunctionPass(
      [min_num_branches, to_batch](const ir::Function& func, const ir::IRModule& mod,
                                   const transform::PassContext&) {
        ir::Function typed =
            func->checked_type ? func : ir::InferExprTypes(func, mod).downcast<ir::FunctionNode>();
        const auto n = static_cast<uint64_t>(min_num_branches);
        Expr out = to_batch ? DenseToBatchCombiner(n).Combine(typed)
                            : DenseToDenseCombiner(n).Combine(typed);
        return out.downcast<ir::FunctionNode>();
      },
      4, "CombineParallelDense", {"InferType"});
}

}  // namespace relaypass::passes
