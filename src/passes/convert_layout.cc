#include "relaypass/passes/convert_layout.h"

#include <iostream>

#include "layout/transform_layout.h"
#include "relaypass/op/registry.h"
#include "relaypass/support/error.h"

namespace relaypass::passes {

namespace {

// ConvertLayout re-creates a call through its op's conversion hook when the user listed the op.
class ConvertCallBuilder : public layout::LayoutCallBuilder {
 public:
  explicit ConvertCallBuilder(const DesiredLayouts& desired) : desired_(desired) {}

  ir::Expr CallWithNewLayouts(const ir::CallNode& ref_call, const ir::Attrs& new_attrs,
                              const std::vector<ir::Expr>& args) override {
    const op::OpDef* def = op::Def(ref_call.op_node());
    if (def && def->convert_layout) {
      auto it = desired_.find(def->name);
      if (it != desired_.end()) {
        std::vector<ir::Type> arg_types;
        for (const ir::Expr& arg : ref_call.args) arg_types.push_back(arg->checked_type);
        if (ir::Expr converted = def->convert_layout(new_attrs, args, arg_types, it->second)) {
          return converted;
        }
      } else {
        std::cerr << "Warning: Desired layout(s) not specified for op: " << def->name << "\n";
      }
    }
    return ir::MakeCall(ref_call.op, args, new_attrs);
  }

 private:
  const DesiredLayouts& desired_;
};

DesiredLayouts DesiredLayoutsOf(const transform::OptionValue& value) {
  DesiredLayouts desired;
  for (const auto& [op_name, layouts] : value.as_map()) {
    if (layouts.kind() != transform::OptionValue::Kind::kArray) {
      throw PassError("ConvertLayout: desired_layouts[\"" + op_name +
                      "\"] must be a list of layout strings, got " +
                      transform::OptionLiteral(layouts));
    }
    std::vector<std::string>& list = desired[op_name];
    for (const transform::OptionValue& layout : layouts.as_array()) {
      if (layout.kind() != transform::OptionValue::Kind::kString) {
        throw PassError("ConvertLayout: desired_layouts[\"" + op_name +
                        "\"] must be a list of layout strings, got " +
                        transform::OptionLiteral(layouts));
      }
      list.push_back(layout.as_string());
    }
  }
  return desired;
}

}  // namespace

transform::Pass ConvertLayout(DesiredLayouts desired_layouts) {
  return transform::CreateFunctionPass(
      [desired = std::move(desired_layouts)](const ir::Function& func, const ir::IRModule& mod,
                                             const transform::PassContext&) {
        ConvertCallBuilder builder(desired);
        return layout::RewriteLayouts(func, mod, builder);
      },
      3, "ConvertLayout", {"InferType", "CanonicalizeOps"});
}

void RegisterConvertLayout(transform::PassRegistry& registry) {
  registry.Register(
      {"ConvertLayout",
       {{"desired_layouts", transform::OptionType::kDict, std::nullopt,
         "operator name -> desired layout of each input, e.g. {\"nn.conv2d\": [\"NHWC\", "
         "\"default\"]}"}},
       [](const transform::PassOptions& options) {
         return ConvertLayout(DesiredLayoutsOf(options.Get("desired_layouts")));
       },
       "converts operators to the desired layouts, inserting layout_transforms"});
}

}  // namespace relaypass::passes
