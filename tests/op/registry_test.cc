#include <gtest/gtest.h>

#include "fake_call.h"
#include "relaypass/op/user_ops.h"
#include "relaypass/relay.h"

namespace relaypass::op {
namespace {

using testing::PrintedAttrs;

const OpDef& Def(const std::string& name) {
  return *op::Def(GetOp(name).get());
}

// The built-in operators: without those other tests of this binary register at run time
// (user_ops_test.cc), whatever order the tests run in.
std::vector<std::string> BuiltinNames() {
  std::vector<std::string> names;
  for (const std::string& name : OpRegistry::Global().ListNames()) {
    if (!IsUserOp(name)) names.push_back(name);
  }
  return names;
}

TEST(OpRegistryTest, EveryOpHasRelationAndArity) {
  for (const std::string& name : BuiltinNames()) {
    const OpDef& def = Def(name);
    EXPECT_TRUE(static_cast<bool>(def.type_relation)) << name;
    // zeros and ones take no inputs, as TVM's
    EXPECT_GE(def.num_inputs, name == "zeros" || name == "ones" ? 0 : 1) << name;
    EXPECT_FALSE(def.description.empty()) << name;
  }
}

TEST(OpRegistryTest, RegistersTheWholeOpSet) {
  const std::vector<std::string> expected = {
      "abs",
      "acos",
      "acosh",
      "add",
      "adv_index",
      "all",
      "annotation.checkpoint",
      "annotation.compiler_begin",
      "annotation.compiler_end",
      "annotation.stop_fusion",
      "any",
      "arange",
      "argmax",
      "argmin",
      "argsort",
      "argwhere",
      "asin",
      "asinh",
      "atan",
      "atanh",
      "bitwise_and",
      "bitwise_not",
      "bitwise_or",
      "bitwise_xor",
      "broadcast_to",
      "broadcast_to_like",
      "cast",
      "cast_like",
      "ceil",
      "clip",
      "collapse_sum_like",
      "collapse_sum_to",
      "concatenate",
      "contrib_reverse_reshape",
      "copy",
      "cos",
      "cosh",
      "cumsum",
      "debug",
      "device_copy",
      "divide",
      "dyn.broadcast_to",
      "dyn.expand_dims",
      "dyn.full",
      "dyn.image.resize2d",
      "dyn.nn.pad",
      "dyn.nn.upsampling",
      "dyn.nn.upsampling3d",
      "dyn.one_hot",
      "dyn.ones",
      "dyn.reshape",
      "dyn.sparse_to_dense",
      "dyn.squeeze",
      "dyn.strided_slice",
      "dyn.tile",
      "dyn.topk",
      "dyn.zeros",
      "einsum",
      "equal",
      "erf",
      "exp",
      "expand_dims",
      "fast_erf",
      "fast_exp",
      "fast_tanh",
      "floor",
      "floor_divide",
      "floor_mod",
      "full",
      "full_like",
      "gather",
      "gather_nd",
      "greater",
      "greater_equal",
      "image.affine_grid",
      "image.crop_and_resize",
      "image.grid_sample",
      "image.resize2d",
      "image.resize3d",
      "isfinite",
      "isinf",
      "isnan",
      "layout_transform",
      "left_shift",
      "less",
      "less_equal",
      "log",
      "log10",
      "log2",
      "logical_and",
      "logical_not",
      "logical_or",
      "logical_xor",
      "matrix_set_diag",
      "max",
      "maximum",
      "mean",
      "meshgrid",
      "min",
      "minimum",
      "mod",
      "multiply",
      "ndarray_size",
      "negative",
      "nn.adaptive_avg_pool1d",
      "nn.adaptive_avg_pool2d",
      "nn.adaptive_avg_pool3d",
      "nn.adaptive_max_pool1d",
      "nn.adaptive_max_pool2d",
      "nn.adaptive_max_pool3d",
      "nn.avg_pool1d",
      "nn.avg_pool2d",
      "nn.avg_pool3d",
      "nn.batch_flatten",
      "nn.batch_matmul",
      "nn.batch_norm",
      "nn.bias_add",
      "nn.bitpack",
      "nn.bitserial_conv2d",
      "nn.bitserial_dense",
      "nn.contrib_conv2d_NCHWc",
      "nn.contrib_depthwise_conv2d_NCHWc",
      "nn.conv1d",
      "nn.conv1d_transpose",
      "nn.conv2d",
      "nn.conv2d_backward_weight",
      "nn.conv2d_transpose",
      "nn.conv3d",
      "nn.conv3d_transpose",
      "nn.correlation",
      "nn.cross_entropy",
      "nn.cross_entropy_with_logits",
      "nn.deformable_conv2d",
      "nn.dense",
      "nn.depth_to_space",
      "nn.dilate",
      "nn.dropout",
      "nn.fast_softmax",
      "nn.global_avg_pool2d",
      "nn.global_max_pool2d",
      "nn.group_norm",
      "nn.instance_norm",
      "nn.l2_normalize",
      "nn.layer_norm",
      "nn.leaky_relu",
      "nn.log_softmax",
      "nn.lrn",
      "nn.matmul",
      "nn.max_pool1d",
      "nn.max_pool2d",
      "nn.max_pool3d",
      "nn.mirror_pad",
      "nn.nll_loss",
      "nn.pad",
      "nn.prelu",
      "nn.relu",
      "nn.softmax",
      "nn.space_to_depth",
      "nn.upsampling",
      "nn.upsampling3d",
      "not_equal",
      "on_device",
      "one_hot",
      "ones",
      "ones_like",
      "power",
      "prod",
      "qnn.abs",
      "qnn.add",
      "qnn.avg_pool2d",
      "qnn.batch_matmul",
      "qnn.concatenate",
      "qnn.conv2d",
      "qnn.conv2d_transpose",
      "qnn.dense",
      "qnn.dequantize",
      "qnn.erf",
      "qnn.exp",
      "qnn.hardswish",
      "qnn.leaky_relu",
      "qnn.log",
      "qnn.mul",
      "qnn.quantize",
      "qnn.requantize",
      "qnn.rsqrt",
      "qnn.sigmoid",
      "qnn.simulated_dequantize",
      "qnn.simulated_quantize",
      "qnn.softmax",
      "qnn.sqrt",
      "qnn.subtract",
      "qnn.tanh",
      "random.multinomial",
      "random.normal",
      "random.threefry_generate",
      "random.threefry_split",
      "random.uniform",
      "repeat",
      "reshape",
      "reshape_like",
      "reverse",
      "reverse_sequence",
      "right_shift",
      "round",
      "rsqrt",
      "scatter_elements",
      "scatter_nd",
      "searchsorted",
      "sequence_mask",
      "shape_of",
      "sigmoid",
      "sign",
      "sin",
      "sinh",
      "slice_like",
      "sort",
      "sparse_fill_empty_rows",
      "sparse_to_dense",
      "split",
      "sqrt",
      "squeeze",
      "stack",
      "stft",
      "strided_set",
      "strided_slice",
      "subtract",
      "sum",
      "take",
      "tan",
      "tanh",
      "tile",
      "topk",
      "transpose",
      "trilu",
      "trunc",
      "trunc_mod",
      "unique",
      "variance",
      "vision.all_class_non_max_suppression",
      "vision.get_valid_counts",
      "vision.non_max_suppression",
      "vision.roi_align",
      "where",
      "zeros",
      "zeros_like",
  };
  EXPECT_EQ(BuiltinNames(), expected);
  EXPECT_EQ(Def("nn.batch_norm").num_inputs, 5);
  EXPECT_EQ(Def("nn.pad").num_inputs, 2);
  EXPECT_EQ(Def("concatenate").num_inputs, 1);
  EXPECT_THROW(GetOp("nn.conv2d_winograd"), TypeError);
  EXPECT_EQ(Def("zeros").num_inputs, 0);
  EXPECT_EQ(Def("where").num_inputs, 3);
}

TEST(OpRegistryTest, PatternsFollowTvm) {
  EXPECT_EQ(Def("add").pattern, OpPattern::kBroadcast);
  EXPECT_EQ(Def("less").pattern, OpPattern::kBroadcast);
  EXPECT_EQ(Def("nn.relu").pattern, OpPattern::kElemWise);
  EXPECT_EQ(Def("clip").pattern, OpPattern::kElemWise);
  EXPECT_EQ(Def("cast").pattern, OpPattern::kElemWise);
  EXPECT_EQ(Def("nn.conv2d").pattern, OpPattern::kOutEWiseFusable);
  EXPECT_EQ(Def("nn.batch_norm").pattern, OpPattern::kOutEWiseFusable);
  EXPECT_EQ(Def("nn.max_pool2d").pattern, OpPattern::kOutEWiseFusable);
  EXPECT_EQ(Def("nn.global_avg_pool2d").pattern, OpPattern::kOutEWiseFusable);
  EXPECT_EQ(Def("nn.dense").pattern, OpPattern::kOutEWiseFusable);
  EXPECT_EQ(Def("nn.softmax").pattern, OpPattern::kOutEWiseFusable);
  EXPECT_EQ(Def("nn.bias_add").pattern, OpPattern::kBroadcast);
  EXPECT_EQ(Def("expand_dims").pattern, OpPattern::kBroadcast);
  EXPECT_EQ(Def("repeat").pattern, OpPattern::kBroadcast);
  EXPECT_EQ(Def("nn.batch_flatten").pattern, OpPattern::kInjective);
  EXPECT_EQ(Def("reshape").pattern, OpPattern::kInjective);
  EXPECT_EQ(Def("layout_transform").pattern, OpPattern::kInjective);
  EXPECT_EQ(Def("nn.pad").pattern, OpPattern::kInjective);
  EXPECT_EQ(Def("sum").pattern, OpPattern::kCommReduce);
  EXPECT_EQ(Def("nn.dropout").pattern, OpPattern::kOpaque);
}

TEST(OpRegistryTest, ReshapeOpsAndStatefulness) {
  for (const char* name : {"reshape", "expand_dims", "squeeze", "nn.batch_flatten"}) {
    EXPECT_TRUE(Def(name).is_reshape_op) << name;
  }
  for (const char* name : {"transpose", "layout_transform", "add", "nn.conv2d"}) {
    EXPECT_FALSE(Def(name).is_reshape_op) << name;
  }
  EXPECT_TRUE(Def("nn.dropout").stateful);
  EXPECT_FALSE(Def("nn.conv2d").stateful);
}

TEST(OpRegistryTest, AttrsSchemasInTvmOrder) {
  auto names = [](const std::string& op) {
    std::string out;
    for (const ir::AttrField& f : Def(op).attrs_schema->fields()) out += f.name + " ";
    return out;
  };
  EXPECT_EQ(Def("nn.conv2d").attrs_schema->type_key(), "relay.attrs.Conv2DAttrs");
  EXPECT_EQ(names("nn.conv2d"),
            "strides padding dilation groups channels kernel_size data_layout kernel_layout "
            "out_layout out_dtype ");
  EXPECT_EQ(names("nn.max_pool2d"),
            "pool_size strides dilation padding layout out_layout ceil_mode ");
  EXPECT_EQ(names("nn.avg_pool2d"),
            "pool_size strides dilation padding layout out_layout ceil_mode count_include_pad ");
  EXPECT_EQ(names("nn.batch_norm"), "axis epsilon center scale ");
  EXPECT_EQ(names("nn.dense"), "units out_dtype ");
  EXPECT_EQ(names("sum"), "axis keepdims exclude ");
  EXPECT_EQ(names("variance"), "axis keepdims exclude unbiased ");  // TVM's VarianceAttrs
  EXPECT_EQ(names("reshape"), "newshape allowzero ");
  EXPECT_EQ(Def("add").attrs_schema, nullptr);
  EXPECT_EQ(Def("mean").attrs_schema->type_key(), "relay.attrs.ReduceAttrs");
  EXPECT_EQ(Def("nn.global_avg_pool2d").attrs_schema->type_key(), "relay.attrs.GlobalPool2DAttrs");
}

TEST(OpRegistryTest, RequiredFieldsHaveNoDefault) {
  EXPECT_THROW(ir::MakeAttrs(*Def("nn.dense").attrs_schema, {}), TypeError);
  EXPECT_THROW(ir::MakeAttrs(*Def("clip").attrs_schema, {{"a_min", ir::AttrValue::Double(0)}}),
               TypeError);
  EXPECT_THROW(ir::MakeAttrs(*Def("layout_transform").attrs_schema, {}), TypeError);
  EXPECT_NO_THROW(ir::MakeAttrs(*Def("nn.conv2d").attrs_schema, {}));
}

TEST(OpAttrsPrintingTest, DefaultsAreOmitted) {
  using namespace relay;
  Var x = var("x"), w = var("w");
  EXPECT_EQ(PrintedAttrs(nn::conv2d(x, w)), "padding=[0, 0, 0, 0]");
  EXPECT_EQ(
      PrintedAttrs(nn::conv2d(
          x, w, {.strides = {2, 2}, .padding = {3, 3}, .channels = 64, .kernel_size = Ints{7, 7}})),
      "strides=[2, 2], padding=[3, 3, 3, 3], channels=64, kernel_size=[7, 7]");
  EXPECT_EQ(PrintedAttrs(nn::batch_norm(x, w, w, w, w, {.epsilon = 2e-5, .scale = false})),
            "epsilon=2e-05f, scale=False");
  EXPECT_EQ(PrintedAttrs(nn::dense(x, w, 1000)), "units=1000");
  EXPECT_EQ(PrintedAttrs(nn::dense(x, w)), "units=None");
  EXPECT_EQ(PrintedAttrs(nn::bias_add(x, w, -1)), "axis=-1");
  EXPECT_EQ(PrintedAttrs(nn::bias_add(x, w)), "");
  EXPECT_EQ(PrintedAttrs(nn::softmax(x)), "");
  EXPECT_EQ(PrintedAttrs(clip(x, 0, 6)), "a_min=0f, a_max=6f");
  EXPECT_EQ(PrintedAttrs(nn::leaky_relu(x, 0.1)), "alpha=0.1f");
  EXPECT_EQ(PrintedAttrs(nn::leaky_relu(x)), "");
  EXPECT_EQ(
      PrintedAttrs(nn::max_pool2d(x, {.pool_size = {3, 3}, .strides = {2, 2}, .padding = {1, 1}})),
      "pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1]");
  EXPECT_EQ(PrintedAttrs(nn::global_avg_pool2d(x, "NHWC")), "layout=\"NHWC\"");
  EXPECT_EQ(PrintedAttrs(expand_dims(x, 1, 2)), "axis=1, num_newaxis=2");
  EXPECT_EQ(PrintedAttrs(expand_dims(x, 0)), "axis=0");
  EXPECT_EQ(PrintedAttrs(repeat(x, 4, 0)), "repeats=4, axis=0");
  EXPECT_EQ(PrintedAttrs(split(x, 3)), "indices_or_sections=3");
  EXPECT_EQ(PrintedAttrs(split(x, Ints{2, 5}, 1)), "indices_or_sections=[2, 5], axis=1");
  EXPECT_EQ(PrintedAttrs(transpose(x)), "axes=None");
  EXPECT_EQ(PrintedAttrs(transpose(x, Ints{0, 2, 3, 1})), "axes=[0, 2, 3, 1]");
  EXPECT_EQ(PrintedAttrs(layout_transform(x, "NCHW", "NHWC")),
            "src_layout=\"NCHW\", dst_layout=\"NHWC\"");
  EXPECT_EQ(PrintedAttrs(cast(x, "float16")), "dtype=\"float16\"");
  EXPECT_EQ(PrintedAttrs(sum(x, Ints{1}, true)), "axis=[1], keepdims=True");
  EXPECT_EQ(PrintedAttrs(mean(x)), "");
  EXPECT_EQ(PrintedAttrs(nn::pad(x, {{0, 0}, {1, 1}})), "pad_width=[[0, 0], [1, 1]]");
  EXPECT_EQ(PrintedAttrs(concatenate({x, w}, 1)), "axis=1");
  EXPECT_EQ(PrintedAttrs(nn::conv2d(
                x, w, {.data_layout = "NHWC", .kernel_layout = "HWIO", .out_dtype = "float16"})),
            "padding=[0, 0, 0, 0], data_layout=\"NHWC\", kernel_layout=\"HWIO\", "
            "out_dtype=\"float16\"");
}

TEST(OpAttrsPrintingTest, StridesEqualTheirInt32Default) {
  using namespace relay;
  ir::Expr conv = nn::conv2d(var("x"), var("w"));
  const ir::AttrsNode& attrs = *conv.as<ir::CallNode>()->attrs;
  EXPECT_EQ(attrs.get("strides"), ir::AttrValue::Ints({1, 1}));
  EXPECT_EQ(attrs.get("strides").ToString(), "[1, 1]");
  EXPECT_NE(attrs.get("padding"), ir::AttrValue::Ints({0, 0}));
  EXPECT_NE(attrs.get("strides"),
            ir::AttrValue::Array({ir::AttrValue::Int(1, ir::DataType::Int64()),
                                  ir::AttrValue::Int(1, ir::DataType::Int64())}));
}

}  // namespace
}  // namespace relaypass::op
