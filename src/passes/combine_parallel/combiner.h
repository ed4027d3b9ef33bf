// TVM's ParallelOpCombiner (src/relay/transforms/combine_parallel_op.cc): finds groups of
// branches that start with calls to one operator on the same input and continue through the same
// elementwise/broadcast calls, and replaces each group of at least min_num_branches branches by
// one combined call (plus the combined following calls) whose result is sliced back into the
// branches. The subclasses say which calls combine and how (conv2d.cc, dense.cc,
// batch_matmul.cc). Iterative throughout; linear in the size of the function.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "relaypass/ir/expr.h"
#include "substitute.h"

namespace relaypass::passes::combine_parallel {

// A branch: the operator call, then each single-use elementwise/broadcast call after it.
using Branch = std::vector<const ir::CallNode*>;
using Group = std::vector<Branch>;

class ParallelOpCombiner {
 public:
  ParallelOpCombiner(const std::string& op_name, uint64_t min_num_branches);
  virtual ~ParallelOpCombiner() = default;

  // `expr` (typed: the hooks read checked types) with every large enough group combined.
  ir::Expr Combine(const ir::Expr& expr);

 protected:
  // Whether a call to the operator may root a group (its data input becomes a group root).
  virtual bool IsSupportedOp(const ir::CallNode* n) = 0;
  // Whether two calls to the operator with the same data input can be combined.
  virtual bool CanOpsBeCombined(const ir::CallNode* a, const ir::CallNode* b) = 0;
  // The combined call of the branches' first calls.
  virtual ir::Expr MakeCombinedOp(const Group& branches) = 0;
  // Whether argument `index` of the following calls a and b can be combined.
  virtual bool IsArgCompatible(const ir::CallNode* a, const ir::CallNode* b, size_t index) = 0;
  // The combined call at `depth`, `data` being the combined result so far (argument
  // `parent_index`).
  virtual ir::Expr MakeCombinedCallFromFollowingOps(const ir::Expr& data, const Group& branches,
                                                    size_t depth, size_t parent_index) = 0;
  // Maps each branch's call at `depth` to its part of the combined result `data`.
  virtual void UpdateGroupOutput(const ir::Expr& data, const Group& branches, size_t depth,
                                 SubstMap& subst) = 0;

  const ir::OpNode* op() const { return op_; }

 private:
  std::vector<Group> FindGroups(const ir::Expr& expr);
  void CombineBranches(const Group& branches);
  bool CheckLevel(const Group& branches, size_t depth, size_t parent_index);

  const ir::OpNode* op_;
  uint64_t min_num_branches_;
  SubstMap subst_;
};

// The tensor type `e` was checked with; InternalError if it has none.
const ir::TensorTypeNode& TensorTypeOf(const ir::Expr& e);
const ir::TensorTypeNode& TensorTypeOf(const ir::CallNode* call);
// A call to the registered operator `name` with attrs made from `values` (its schema's defaults
// for the others; no attrs for an operator without a schema).
ir::Expr CallOpNamed(const std::string& name, std::vector<ir::Expr> args,
                     const std::vector<std::pair<std::string, ir::AttrValue>>& values = {});

}  // namespace relaypass::passes::combine_parallel
