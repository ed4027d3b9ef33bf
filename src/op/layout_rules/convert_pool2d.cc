// The ConvertLayout hooks of the 2D pooling ops (TVM's convert_max_pool2d, convert_avg_pool2d,
// convert_global_avg_pool2d): layout and out_layout become the desired layout.
#include "layout_rules.h"
#include "relaypass/op/registry.h"
#include "relaypass/support/error.h"

namespace relaypass::op::layout_rules {

ConvertOpLayout ConvertPool2D(const std::string& op_name) {
  return [op_name](const ir::Attrs& attrs, const std::vector<ir::Expr>& args,
                   const std::vector<ir::Type>& /*arg_types*/,
                   const std::vector<std::string>& desired_layouts) -> ir::Expr {
    if (desired_layouts.empty()) {
      throw PassError("A desired layout is expected for " + op_name + "'s input");
    }
    ir::AttrValue layout = ir::AttrValue::Str(desired_layouts[0]);
    return ir::MakeCall(GetOp(op_name), args,
                        attrs->With("layout", layout)->With("out_layout", layout));
  };
}

}  // namespace relaypass::op::layout_rules
