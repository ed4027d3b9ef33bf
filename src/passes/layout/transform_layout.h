// The layout rewrite shared by ConvertLayout and AlterOpLayout (TVM's transform_layout.h
// LayoutRewriter driven by ForwardRewrite; relay_semantics.md 3.8).
//
// A forward post-order rewrite in which each value carries (value, old layout, new layout). For
// each operator call:
//  1. the op's layout rule on the producers' old layouts gives the layouts the call had (a call
//     whose op has no rule, or whose inference fails, is not converted: its arguments are
//     converted back to their old layouts and the op is rebuilt as it was);
//  2. the pass re-creates the call (LayoutCallBuilder), and the rule on the producers' new
//     layouts gives the layouts the new call needs, and its attrs;
//  3. each argument is converted (layout_transform, expand_dims; see LayoutTransformer) to what
//     the new call needs; the result carries (new call, old output layout, new output layout),
//     per field through get-items for tuple results.
// Values flowing anywhere else (a function's result, a let, an if, a call to a function) are
// converted back to their old layouts.
#pragma once

#include <vector>

#include "relaypass/ir/expr.h"
#include "relaypass/ir/module.h"

namespace relaypass::passes::layout {

/// What a layout pass does to one call (TVM's CallWithNewLayouts).
class LayoutCallBuilder {
 public:
  virtual ~LayoutCallBuilder() = default;
  /// The call `ref_call` re-created in the layouts the pass wants: `new_attrs` are the attrs its
  /// layout rule returned for the original layouts, `args` the arguments as rewritten so far (a
  /// tuple argument as a tuple). Must return a call (PassError otherwise); a call to another
  /// operator is allowed.
  virtual ir::Expr CallWithNewLayouts(const ir::CallNode& ref_call, const ir::Attrs& new_attrs,
                                      const std::vector<ir::Expr>& args) = 0;
};

/// Rewrites `func` (a function of `mod`) as described above. An untyped `func` is typed first
/// (a pass called directly does not run its required InferType); the result is not typed (the
/// pass infrastructure re-infers types after a function pass).
ir::Function RewriteLayouts(const ir::Function& func, const ir::IRModule& mod,
                            LayoutCallBuilder& builder);

}  // namespace relaypass::passes::layout
