// The C++ builder API, read like the tutorials' Python: relay::nn::conv2d(x, w), relay::add(a, b),
// relay::const_(2.0f). Attribute normalisation follows TVM's Python wrappers (conv/pool padding
// always 4 values), so built graphs print exactly like TVM's.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "relaypass/ir/expr.h"
#include "relaypass/ir/module.h"

namespace relaypass::relay {

using ir::Constant;
using ir::DataType;
using ir::Expr;
using ir::Function;
using ir::IRModule;
using ir::Type;
using ir::Var;
using Ints = std::vector<int64_t>;

// Variables and constants.
Var var(const std::string& name, Type type = nullptr);
Var var(const std::string& name, const Ints& shape, const std::string& dtype = "float32");
Constant const_(float value);
Constant const_(double value, const std::string& dtype);  // e.g. const_(2, "float32")
Constant const_(int32_t value);
Constant const_(ir::NDArray data);
Function function(std::vector<Var> params, Expr body);
Expr tuple(std::vector<Expr> fields);
Expr get_item(Expr tuple, int index);

// Elementwise and broadcast.
Expr add(Expr a, Expr b);
Expr subtract(Expr a, Expr b);
Expr multiply(Expr a, Expr b);
Expr divide(Expr a, Expr b);
Expr maximum(Expr a, Expr b);
Expr minimum(Expr a, Expr b);
Expr power(Expr a, Expr b);
Expr negative(Expr x);
Expr sqrt(Expr x);
Expr rsqrt(Expr x);
Expr exp(Expr x);
Expr log(Expr x);
Expr tanh(Expr x);
Expr sigmoid(Expr x);
Expr clip(Expr x, double a_min, double a_max);
Expr abs(Expr x);
Expr round(Expr x);  // halves to even, as TVM's llvm.nearbyint

// Transforms and reductions.
Expr cast(Expr x, const std::string& dtype);
Expr expand_dims(Expr x, int axis, int num_newaxis = 1);
Expr squeeze(Expr x, std::optional<Ints> axis = std::nullopt);
Expr repeat(Expr x, int repeats, int axis);
Expr stop_fusion(Expr x);  // annotation.stop_fusion: a boundary FuseOps does not fuse across
// The tuple call: `sections` equal pieces, or pieces cut at ascending `indices`.
Expr split(Expr x, int sections, int axis = 0);
Expr split(Expr x, const Ints& indices, int axis = 0);
Expr reshape(Expr x, const Ints& newshape);
Expr transpose(Expr x, std::optional<Ints> axes = std::nullopt);
Expr concatenate(std::vector<Expr> fields, int axis = 0);
Expr layout_transform(Expr x, const std::string& src_layout, const std::string& dst_layout);
Expr sum(Expr x, std::optional<Ints> axis = std::nullopt, bool keepdims = false,
         bool exclude = false);
Expr mean(Expr x, std::optional<Ints> axis = std::nullopt, bool keepdims = false,
          bool exclude = false);
Expr max(Expr x, std::optional<Ints> axis = std::nullopt, bool keepdims = false,
         bool exclude = false);
Expr min(Expr x, std::optional<Ints> axis = std::nullopt, bool keepdims = false,
         bool exclude = false);
Expr prod(Expr x, std::optional<Ints> axis = std::nullopt, bool keepdims = false,
          bool exclude = false);

namespace nn {

struct Conv2DArgs {
  Ints strides{1, 1};
  Ints padding{0, 0};  // 1, 2 or 4 values; normalised to 4 as TVM's Python does
  Ints dilation{1, 1};
  int groups = 1;
  std::optional<int64_t> channels{};  // `{}` keeps designated initializers warning-free
  std::optional<Ints> kernel_size{};
  std::string data_layout = "NCHW";
  std::string kernel_layout = "OIHW";
  std::string out_layout = "";
  std::string out_dtype = "";
};
Expr conv2d(Expr data, Expr weight, const Conv2DArgs& args = {});

struct BatchNormArgs {
  int axis = 1;
  double epsilon = 1e-5;
  bool center = true;
  bool scale = true;
};
// Returns the 3-tuple call; use get_item(bn, 0) for the normalised data (as TVM's
// relay.nn.batch_norm(...)[0]).
Expr batch_norm(Expr data, Expr gamma, Expr beta, Expr moving_mean, Expr moving_var,
                const BatchNormArgs& args = {});
Expr bias_add(Expr data, Expr bias, int axis = 1);
Expr dense(Expr data, Expr weight, std::optional<int64_t> units = std::nullopt,
           const std::string& out_dtype = "");
Expr relu(Expr x);
Expr leaky_relu(Expr x, double alpha = 0.25);
Expr softmax(Expr x, int axis = -1);
Expr log_softmax(Expr x, int axis = -1);
Expr dropout(Expr x, double rate = 0.5);  // the 2-tuple call, like batch_norm

struct Pool2DArgs {
  Ints pool_size{1, 1};
  Ints strides{1, 1};
  Ints dilation{1, 1};
  Ints padding{0, 0};  // normalised to 4 values
  std::string layout = "NCHW";
  std::string out_layout = "";
  bool ceil_mode = false;
  bool count_include_pad = false;  // avg_pool2d only
};
Expr max_pool2d(Expr x, const Pool2DArgs& args);
Expr avg_pool2d(Expr x, const Pool2DArgs& args);
Expr global_avg_pool2d(Expr x, const std::string& layout = "NCHW");
Expr global_max_pool2d(Expr x, const std::string& layout = "NCHW");
Expr batch_flatten(Expr x);
// pad_value defaults to the int32 scalar 0 as in TVM's Python wrapper.
Expr pad(Expr x, const std::vector<Ints>& pad_width, Expr pad_value = nullptr,
         const std::string& pad_mode = "constant");

}  // namespace nn
}  // namespace relaypass::relay
