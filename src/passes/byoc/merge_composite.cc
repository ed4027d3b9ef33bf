// MergeComposite (TVM v0.13, src/relay/transforms/merge_composite.cc): for each row of the
// pattern table in order, partition the function with the row's pattern and check, giving each
// extracted function the attribute Composite="<row name>", then infer types.
#include "relaypass/ir/type_infer.h"
#include "relaypass/passes/byoc.h"
#include "relaypass/pattern/match.h"

namespace relaypass::passes {

transform::Pass MergeComposite(PatternTable table) {
  return transform::CreateFunctionPass(
      [table = std::move(table)](const ir::Function& func, const ir::IRModule& mod,
                                 const transform::PassContext&) {
        ir::Expr merged = func;
        for (const PatternTableEntry& row : table) {
          merged = pattern::Partition(row.pattern, merged,
                                      {{"Composite", ir::AttrValue::Str(row.name)}}, row.check);
          merged = ir::InferExprTypes(merged, mod);
        }
        return merged.downcast<ir::FunctionNode>();
      },
      0, "MergeComposite", {});
}

}  // namespace relaypass::passes
