// The C++ builder API, read like the tutorials' Python: relay::nn::conv2d(x, w), relay::add(a, b),
// relay::const_(2.0f). Attribute normalisation follows TVM's Python wrappers (conv/pool padding
// always 4 values), so built graphs print exactly like TVM's.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "relaypass/ir/attrs.h"
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

/// Variables and constants.
Var var(const std::string& name, Type type = nullptr);
Var var(const std::string& name, const Ints& shape, const std::string& dtype = "float32");
Constant const_(float value);
Constant const_(double value, const std::string& dtype);  // e.g. const_(2, "float32")
Constant const_(int32_t value);
Constant const_(ir::NDArray data);
Function function(std::vector<Var> params, Expr body);
Expr tuple(std::vector<Expr> fields);
Expr get_item(Expr tuple, int index);

/// A call to any registered operator by name, with its attributes by field name (Python's
/// `relay.op._make.call`): unnamed fields take their defaults; an unknown operator or field is an
/// error. The builders below are this with TVM's argument normalisation.
using AttrValues = std::vector<std::pair<std::string, ir::AttrValue>>;
Expr call(const std::string& op_name, std::vector<Expr> args, const AttrValues& attrs = {});

/// Elementwise and broadcast.
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
Expr round(Expr x);  // halves away from zero, as TVM's (llvm.round)
Expr sign(Expr x);
Expr isnan(Expr x);  // bool result
Expr isinf(Expr x);  // bool result
Expr logical_not(Expr x);
Expr logical_and(Expr a, Expr b);
Expr logical_or(Expr a, Expr b);
Expr logical_xor(Expr a, Expr b);
Expr floor_mod(Expr a, Expr b);  // numpy.mod: the sign of the divisor
Expr mod(Expr a, Expr b);        // numpy.fmod: the sign of the dividend
Expr zeros_like(Expr x);
Expr ones_like(Expr x);
/// `fill_value` (a scalar) broadcast to `shape`; dtype "" keeps the fill value's.
Expr full(Expr fill_value, const Ints& shape, const std::string& dtype = "");
Expr zeros(const Ints& shape, const std::string& dtype = "float32");
Expr ones(const Ints& shape, const std::string& dtype = "float32");
Expr where(Expr condition, Expr x, Expr y);

/// Indexing and data movement with index inputs (src/op/indexing.cc).
/// mode "clip" (TVM's default), "wrap" or "fast"; axis None takes from the flattened data.
Expr take(Expr data, Expr indices, std::optional<int64_t> axis = std::nullopt, int batch_dims = 0,
          const std::string& mode = "clip");
Expr strided_slice(Expr data, const Ints& begin, const Ints& end,
                   std::optional<Ints> strides = std::nullopt,
                   std::optional<Ints> axes = std::nullopt, const std::string& slice_mode = "end");
Expr broadcast_to(Expr data, const Ints& shape);
Expr broadcast_to_like(Expr data, Expr like);  // data broadcast to like's shape
Expr cast_like(Expr data, Expr like);          // data cast to like's dtype
Expr tile(Expr data, const Ints& reps);
Expr reverse(Expr data, int axis);
Expr gather(Expr data, int axis, Expr indices);
Expr gather_nd(Expr data, Expr indices, int batch_dims = 0,
               std::optional<int64_t> index_rank = std::nullopt);
Expr one_hot(Expr indices, Expr on_value, Expr off_value, int depth, int axis,
             const std::string& dtype);
Expr cumsum(Expr data, std::optional<int64_t> axis = std::nullopt, const std::string& dtype = "",
            std::optional<bool> exclusive = std::nullopt);
/// ret_type "both" gives the tuple (values, indices); "values" or "indices" one tensor.
Expr topk(Expr data, int k = 1, int axis = -1, const std::string& ret_type = "both",
          bool is_ascend = false, const std::string& dtype = "int32");
Expr trilu(Expr data, Expr k, bool upper = true);
/// Stable sorts along `axis`: the values (sort) or the positions (argsort, as `dtype`).
Expr sort(Expr data, int axis = -1, bool is_ascend = true);
Expr argsort(Expr data, int axis = -1, bool is_ascend = true, const std::string& dtype = "int32");
/// For each value, its insertion position in the matching row of sorted_sequence (before equal
/// elements, or after them with `right`).
Expr searchsorted(Expr sorted_sequence, Expr values, bool right = false,
                  const std::string& dtype = "int32");
/// TVM's einsum over a tuple of operands, e.g. einsum({a, b}, "bij,bjk->bik").
Expr einsum(std::vector<Expr> operands, const std::string& equation);
/// reduction "update", "add", "mul", "min" or "max"; negative indices count from the end.
Expr scatter_elements(Expr data, Expr indices, Expr updates, int axis = 0,
                      const std::string& reduction = "update");
/// indices (M, Y...) as gather_nd's; mode "update", "add" or "mul".
Expr scatter_nd(Expr data, Expr indices, Expr updates, const std::string& mode = "update");
Expr reverse_sequence(Expr data, Expr seq_lengths, int seq_axis = 1, int batch_axis = 0);
/// Positions at or past valid_length[b] along `axis` (0 or 1; the batch is the other) set to
/// mask_value.
Expr sequence_mask(Expr data, Expr valid_length, double mask_value = 0.0, int axis = 0);
/// Diagonals k1..k2 of the last two axes replaced by `diagonal` (TVM's matrix_set_diag attrs).
Expr matrix_set_diag(Expr data, Expr diagonal, int k1 = 0, int k2 = 0,
                     bool super_diag_right_align = true, bool sub_diag_right_align = false);
/// data[:s0, :s1, ...] with shape_like's extents on `axes` (all of shape_like's leading axes by
/// default).
Expr slice_like(Expr data, Expr shape_like, std::optional<Ints> axes = std::nullopt);
Expr argmax(Expr x, std::optional<Ints> axis = std::nullopt, bool keepdims = false,
            bool exclude = false, bool select_last_index = false);
Expr argmin(Expr x, std::optional<Ints> axis = std::nullopt, bool keepdims = false,
            bool exclude = false, bool select_last_index = false);

/// Transforms and reductions.
Expr cast(Expr x, const std::string& dtype);
Expr expand_dims(Expr x, int axis, int num_newaxis = 1);
Expr squeeze(Expr x, std::optional<Ints> axis = std::nullopt);
Expr repeat(Expr x, int repeats, int axis);
Expr stop_fusion(Expr x);  // annotation.stop_fusion: a boundary FuseOps does not fuse across
/// The tuple call: `sections` equal pieces, or pieces cut at ascending `indices`.
Expr split(Expr x, int sections, int axis = 0);
Expr split(Expr x, const Ints& indices, int axis = 0);
Expr reshape(Expr x, const Ints& newshape);
/// contrib_reverse_reshape: newshape's special values applied from the right.
Expr reverse_reshape(Expr x, const Ints& newshape);
Expr shape_of(Expr x, const std::string& dtype = "int32");
Expr ndarray_size(Expr x, const std::string& dtype = "int32");
/// The sum of data over the axes broadcasting added: collapse_sum_like to like's shape,
/// collapse_sum_to to a static shape (a constant shape input, as TVM's).
Expr collapse_sum_like(Expr data, Expr like);
Expr collapse_sum_to(Expr data, const Ints& shape);
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
/// Logical and / or of the elements over `axis` (TVM's relay.all / relay.any).
Expr all(Expr x, std::optional<Ints> axis = std::nullopt, bool keepdims = false,
         bool exclude = false);
Expr any(Expr x, std::optional<Ints> axis = std::nullopt, bool keepdims = false,
         bool exclude = false);
/// TVM's `variance` operator: the mean of (x - mean)^2 over `axis`, `mean` given (with the reduced
/// axes kept, as relay.variance passes it); divided by count - 1 when `unbiased`.
Expr variance(Expr x, Expr mean, std::optional<Ints> axis = std::nullopt, bool keepdims = false,
              bool exclude = false, bool unbiased = false);

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
/// Returns the 3-tuple call; use get_item(bn, 0) for the normalised data (as TVM's
/// relay.nn.batch_norm(...)[0]).
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

struct Pool3DArgs {
  Ints pool_size{1, 1, 1};
  Ints strides{1, 1, 1};
  Ints dilation{1, 1, 1};
  Ints padding{0, 0, 0};  // 1, 3 or 6 values (front, top, left, back, bottom, right)
  std::string layout = "NCDHW";
  std::string out_layout = "";
  bool ceil_mode = false;
  bool count_include_pad = false;  // avg_pool3d only
};
Expr max_pool3d(Expr x, const Pool3DArgs& args);
Expr avg_pool3d(Expr x, const Pool3DArgs& args);

/// nn.conv3d (NCDHW / OIDHW); padding normalised to 6 values as TVM's get_pad_tuple3d.
struct Conv3DArgs {
  Ints strides{1, 1, 1};
  Ints padding{0, 0, 0};
  Ints dilation{1, 1, 1};
  int groups = 1;
  std::optional<int64_t> channels{};
  std::optional<Ints> kernel_size{};
  std::string data_layout = "NCDHW";
  std::string kernel_layout = "OIDHW";
  std::string out_layout = "";
  std::string out_dtype = "";
};
Expr conv3d(Expr data, Expr weight, const Conv3DArgs& args = {});

/// nn.conv1d_transpose / conv2d_transpose / conv3d_transpose: the weight is (in, out / groups,
/// k...) (IOW / IOHW / IODHW). Empty vectors take the op's defaults for its rank.
struct ConvTransposeArgs {
  Ints strides{};
  Ints padding{};
  Ints output_padding{};
  Ints dilation{};
  int groups = 1;
  std::optional<int64_t> channels{};
  std::optional<Ints> kernel_size{};
  std::string data_layout = "";  // NCW / NCHW / NCDHW
  std::string kernel_layout = "";
  std::string out_layout = "";
  std::string out_dtype = "";
};
Expr conv1d_transpose(Expr data, Expr weight, const ConvTransposeArgs& args = {});
Expr conv2d_transpose(Expr data, Expr weight, const ConvTransposeArgs& args = {});
Expr conv3d_transpose(Expr data, Expr weight, const ConvTransposeArgs& args = {});

Expr prelu(Expr data, Expr alpha, int axis = 1);
/// TVM v0.13's nn.batch_matmul: x [b, m, k] (or [b, k, m] with transpose_a), y [b, n, k] (the
/// default transpose_b=True) or [b, k, n].
Expr batch_matmul(Expr x, Expr y, const std::string& out_dtype = "", bool transpose_a = false,
                  bool transpose_b = true);
Expr lrn(Expr data, int size = 5, int axis = 1, double bias = 2, double alpha = 1e-5,
         double beta = 0.75);
Expr instance_norm(Expr data, Expr gamma, Expr beta, int axis = 1, double epsilon = 1e-5,
                   bool center = true, bool scale = true);
Expr layer_norm(Expr data, Expr gamma, Expr beta, int axis = -1, double epsilon = 1e-5,
                bool center = true, bool scale = true);
Expr depth_to_space(Expr data, int block_size, const std::string& layout = "NCHW",
                    const std::string& mode = "DCR");
Expr space_to_depth(Expr data, int block_size, const std::string& layout = "NCHW");
Expr upsampling(Expr data, double scale_h = 1, double scale_w = 1,
                const std::string& layout = "NCHW", const std::string& method = "nearest_neighbor",
                bool align_corners = false);
Expr batch_flatten(Expr x);
/// pad_value defaults to the int32 scalar 0 as in TVM's Python wrapper.
Expr pad(Expr x, const std::vector<Ints>& pad_width, Expr pad_value = nullptr,
         const std::string& pad_mode = "constant");

}  // namespace nn

namespace image {

/// image.resize2d as TVM's: method "nearest_neighbor", "linear" or "cubic";
/// coordinate_transformation_mode "half_pixel", "align_corners", "asymmetric",
/// "pytorch_half_pixel" or "tf_crop_and_resize" (with roi [start_h, start_w, end_h, end_w]);
/// rounding_method for nearest: "round", "round_prefer_floor", "round_prefer_ceil", "floor",
/// "ceil" ("" is "round").
struct Resize2DArgs {
  std::optional<std::vector<double>> roi{};
  std::string layout = "NCHW";
  std::string method = "linear";
  std::string coordinate_transformation_mode = "half_pixel";
  std::string rounding_method = "";
  double cubic_alpha = -0.5;
  int cubic_exclude = 0;
  double extrapolation_value = 0.0;
  std::string out_dtype = "";
};
Expr resize2d(Expr data, const Ints& size, const Resize2DArgs& args = {});
/// image.grid_sample: data NCHW sampled at grid [N, 2, H', W'] (x then y, in [-1, 1]); method
/// "bilinear", "nearest" or "bicubic"; padding_mode "zeros", "border" or "reflection".
Expr grid_sample(Expr data, Expr grid, const std::string& method = "bilinear",
                 const std::string& layout = "NCHW", const std::string& padding_mode = "zeros",
                 bool align_corners = true);

}  // namespace image
}  // namespace relaypass::relay
