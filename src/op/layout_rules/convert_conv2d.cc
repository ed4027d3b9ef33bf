// nn.conv2d's ConvertLayout hook (TVM's convert_conv2d in python/tvm/relay/op/nn/_nn.py).
#include <cctype>
#include <optional>
#include <string>

#include "layout_rules.h"
#include "relaypass/op/registry.h"
#include "relaypass/support/error.h"
#include "rule_util.h"

namespace relaypass::op::layout_rules {

namespace {

// The full extent of primal axis `axis` of a tensor of `shape` in `layout`, or -1.
ir::Dim Extent(const std::vector<ir::Dim>& shape, const Layout& layout, char axis) {
  int i = layout.IndexOf(axis);
  if (i < 0 || static_cast<size_t>(i) >= shape.size() || !ir::IsKnownDim(shape[i])) return -1;
  int64_t factor = layout.FactorOf(axis);
  return shape[i] * (factor > 0 ? factor : 1);
}

// TVM's is_depthwise_conv2d: in channels == out channels == groups.
bool IsDepthwise(const ir::Attrs& attrs, const std::vector<ir::Type>& arg_types) {
  std::optional<std::vector<ir::Dim>> data = ShapeOf(arg_types.at(0));
  std::optional<std::vector<ir::Dim>> weight = ShapeOf(arg_types.at(1));
  if (!data || !weight) return false;
  ir::Dim in = Extent(*data, ParsedLayout(attrs->get_string("data_layout")), 'C');
  ir::Dim out = Extent(*weight, ParsedLayout(attrs->get_string("kernel_layout")), 'O');
  return in >= 0 && in == out && in == attrs->get_int("groups");
}

}  // namespace

ir::Expr ConvertConv2D(const ir::Attrs& attrs, const std::vector<ir::Expr>& args,
                       const std::vector<ir::Type>& arg_types,
                       const std::vector<std::string>& desired_layouts) {
  if (desired_layouts.size() != 2) {
    throw PassError("A desired layout is expected for both of nn.conv2d's inputs");
  }
  const std::string& data_layout = desired_layouts[0];
  const std::string& kernel_layout = desired_layouts[1];
  if (data_layout == "default") throw PassError("Data layout cannot be default");
  // TVM's re.match(r"NCHW(\d*)c", ...): NCHW<n>c needs nn.contrib_conv2d_NCHWc.
  size_t digits = 4;
  while (digits < data_layout.size() &&
         std::isdigit(static_cast<unsigned char>(data_layout[digits]))) {
    ++digits;
  }
  if (data_layout.rfind("NCHW", 0) == 0 && digits < data_layout.size() &&
      data_layout[digits] == 'c') {
    if (kernel_layout == "default") throw PassError("Kernel layout cannot be default.");
    // TVM keeps a conv whose data is a variable with channels that do not split into tiles.
    const int64_t tile =
        digits > 4 && digits - 4 <= 9 ? std::stoll(data_layout.substr(4, digits - 4)) : 0;
    std::optional<std::vector<ir::Dim>> data_shape = ShapeOf(arg_types.at(0));
    if (tile > 0 && args.at(0).as<ir::VarNode>() && data_shape && data_shape->size() > 1 &&
        ir::IsKnownDim((*data_shape)[1]) && (*data_shape)[1] % tile != 0) {
      return ir::MakeCall(GetOp("nn.conv2d"), args, attrs);
    }
    throw PassError("ConvertLayout to " + data_layout +
                    " needs nn.contrib_conv2d_NCHWc, which is not supported");
  }

  std::string kernel = kernel_layout;
  if (kernel == "default") {
    if (data_layout == "NCHW") {
      kernel = "OIHW";
    } else if (data_layout == "NHWC") {
      kernel = IsDepthwise(attrs, arg_types) ? "HWOI" : "HWIO";
    } else if (data_layout == "HWNC") {
      kernel = "HWOI";
    } else {
      throw PassError("Layout " + data_layout + " is not yet supported.");
    }
  }
  ir::Attrs new_attrs = attrs->With("data_layout", ir::AttrValue::Str(data_layout))
                            ->With("kernel_layout", ir::AttrValue::Str(kernel));
  return ir::MakeCall(GetOp("nn.conv2d"), args, new_attrs);
}

}  // namespace relaypass::op::layout_rules
