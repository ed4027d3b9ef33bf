// Bring-your-own-codegen partitioning (TVM v0.13): the passes that cut a module into the regions
// an external compiler takes, and what they read.
//
//   mod = MergeComposite(GetPatternTable("dnnl"))(mod);     // fused patterns -> Composite fns
//   mod = AnnotateTarget({"dnnl"})(mod);                    // compiler_begin/end around ops
//   mod = MergeCompilerRegions()(mod);                      // grow regions as far as possible
//   mod = PartitionGraph()(mod);                            // regions -> global functions
//
// An operator is offloaded to target T when its `target.T` predicate (TVM's op attribute
// FTVMAnnotateTarget, registered with RegisterOpTargetAttr here or
// `tvm.ir.register_op_attr(op, "target.T")` in Python) accepts the call; a composite function is
// offloaded to the target named before the first '.' of its Composite attribute.
//
// A pretend "dnnl" target is built in (RegisterExampleDnnlTarget, registered on first lookup):
// nn.conv2d, nn.relu and add, and the pattern table of TVM's test_pass_partition_graph.py
// dnnl test (dnnl.conv2d_bias_relu, dnnl.conv2d_relu).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "relaypass/ir/expr.h"
#include "relaypass/pattern/pattern.h"
#include "relaypass/transform/pass.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {

/// `annotation.compiler_begin(expr, compiler=...)` / `annotation.compiler_end(...)`.
ir::Expr CompilerBegin(ir::Expr expr, const std::string& compiler);
ir::Expr CompilerEnd(ir::Expr expr, const std::string& compiler);
/// The `compiler` of a compiler_begin (resp. compiler_end) call, or null if `expr` is none.
const std::string* CompilerBeginTarget(const ir::Expr& expr);
const std::string* CompilerEndTarget(const ir::Expr& expr);

/// A `target.<compiler>` predicate: whether the call (of the op it is registered for) goes to
/// that compiler.
using AnnotateTargetFunc = std::function<bool(const ir::Expr& call)>;
/// Sets op attribute `attr_name` (e.g. "target.dnnl") of `op_name` to `fn`, replacing an earlier
/// value. InternalError for an unknown operator or an empty function.
void RegisterOpTargetAttr(const std::string& op_name, const std::string& attr_name,
                          AnnotateTargetFunc fn);
/// The predicate, or an empty function.
AnnotateTargetFunc GetOpTargetAttr(const std::string& op_name, const std::string& attr_name);
/// Removes the attribute (for tests and the Python binding's reset).
void ResetOpTargetAttr(const std::string& op_name, const std::string& attr_name);

/// One row of a pattern table: the composite name ("dnnl.conv2d_relu"), the pattern, and an
/// optional check on the matched root.
struct PatternTableEntry {
  std::string name;
  pattern::DFPattern pattern;
  std::function<bool(const ir::Expr&)> check = nullptr;
};
using PatternTable = std::vector<PatternTableEntry>;
/// TVM's register_pattern_table / get_pattern_table. GetPatternTable throws PassError naming
/// the registered tables when `compiler` has none.
void RegisterPatternTable(const std::string& compiler, std::function<PatternTable()> table);
PatternTable GetPatternTable(const std::string& compiler);

/// Registers the pretend "dnnl" target (idempotent).
void RegisterExampleDnnlTarget();

/// Function pass "MergeComposite" (opt_level 0): each pattern in turn, its matches become calls
/// of functions with PartitionedFromPattern and Composite attributes.
transform::Pass MergeComposite(PatternTable table);
/// "AnnotateTarget" (a Sequential of AnnotateTargetFunc and InferType, as TVM's).
transform::Pass AnnotateTarget(std::vector<std::string> targets, bool include_non_call_ops = true);
/// "MergeCompilerRegions" (a Sequential of the merge and InferType).
transform::Pass MergeCompilerRegions();
/// "PartitionGraph" (a Sequential of RemoveDefaultAnnotations, PartitionGraph, InferType):
/// each region becomes a global function `tvmgen_<mod_name>_<compiler>_main_<region id>` with
/// attributes global_symbol, Primitive=1, Compiler, Inline=1, called from where the region was.
/// bind_constants: constant inputs of a region are bound into its function.
transform::Pass PartitionGraph(const std::string& mod_name = "default", bool bind_constants = true);

void RegisterByocPasses(transform::PassRegistry& registry);

}  // namespace relaypass::passes
