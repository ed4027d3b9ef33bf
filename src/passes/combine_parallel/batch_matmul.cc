// CombineParallelBatchMatmul (TVM v0.13's src/relay/transforms/combine_parallel_batch_matmul.cc):
// batch_matmul calls (transpose_a=False, transpose_b=True) on one input whose weights agree in
// batch extent and dtypes become one batch_matmul on the weights concatenated along axis 1;
// following elementwise calls get their other arguments concatenated along the last axis; each
// branch takes its features back with strided_slice(slice_mode="size").
#include "combiner.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/passes/combine_parallel.h"
#include "relaypass/relay.h"

namespace relaypass::passes {

namespace {

using combine_parallel::Group;
using combine_parallel::TensorTypeOf;
using ir::Expr;

class BatchMatmulCombiner final : public combine_parallel::ParallelOpCombiner {
 public:
  explicit BatchMatmulCombiner(uint64_t min_num_branches)
      : ParallelOpCombiner("nn.batch_matmul", min_num_branches) {}

 protected:
  bool IsSupportedOp(const ir::CallNode*) override { return true; }

  bool CanOpsBeCombined(const ir::CallNode* a, const ir::CallNode* b) override {
    // TVM supports only the legacy layout (it logs a warning for the others).
    for (const ir::CallNode* call : {a, b}) {
      if (call->attrs->get_bool("transpose_a") || !call->attrs->get_bool("transpose_b")) {
        return false;
      }
    }
    const auto& rhs_a = TensorTypeOf(a->args[1]);
    const auto& rhs_b = TensorTypeOf(b->args[1]);
    return rhs_a.dtype == rhs_b.dtype && TensorTypeOf(a).dtype == TensorTypeOf(b).dtype &&
           rhs_a.shape.size() == 3 && rhs_b.shape.size() == 3 && rhs_a.shape[0] == rhs_b.shape[0] &&
           a->attrs->get("out_dtype") == b->attrs->get("out_dtype");
  }

  Expr MakeCombinedOp(const Group& branches) override {
    std::vector<Expr> weights;
    for (const auto& branch : branches) weights.push_back(branch[0]->args[1]);
    const ir::CallNode* root = branches[0][0];
    return relay::nn::batch_matmul(root->args[0], relay::concatenate(std::move(weights), 1),
                                   root->attrs->get("out_dtype").as_string(),
                                   root->attrs->get_bool("transpose_a"),
                                   root->attrs->get_bool("transpose_b"));
  }

  bool IsArgCompatible(const ir::CallNode*, const ir::CallNode*, size_t) override { return true; }

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
      for (const auto& branch : branches) fields.push_back(branch[depth]->args[i]);
      args.push_back(relay::concatenate(std::move(fields), -1));
    }
    return ir::MakeCall(call->op, std::move(args), call->attrs);
  }

  void UpdateGroupOutput(const Expr& data, const Group& branches, size_t depth,
                         combine_parallel::SubstMap& subst) override {
    int64_t index = 0;
    for (const auto& branch : branches) {
      const int64_t features = TensorTypeOf(branch[0]->args[1]).shape[1];
      relay::Ints begin{0, 0, index}, end{-1, -1, features};
      index += features;
      subst.emplace(branch[depth], relay::strided_slice(data, begin, end, relay::Ints{1, 1, 1},
                                                        std::nullopt, "size"));
    }
  }
};

}  // namespace

transform::Pass CombineParallelBatchMatmul(int64_t min_num_branches) {
  return transform::CreateFunctionPass(
      [min_num_branches](const ir::Function& func, const ir::IRModule& mod,
                         const transform::PassContext&) {
        ir::Function typed =
            func->checked_type ? func : ir::InferExprTypes(func, mod).downcast<ir::FunctionNode>();
        return BatchMatmulCombiner(static_cast<uint64_t>(min_num_branches))
            .Combine(typed)
            .downcast<ir::FunctionNode>();
      },
      4, "CombineParallelBatchMatmul", {"InferType"});
}

}  // namespace relaypass::passes
