// Kernels of the operators the ONNX importer needs, against values computed by hand (numpy's
// and ONNX's definitions): take, strided_slice, where, broadcast_to, tile, reverse, gather,
// gather_nd, one_hot, cumsum, topk, trilu, argmax / argmin, the new elementwise ops, prelu, lrn,
// instance_norm, layer_norm, batch_matmul, conv2d_transpose, conv3d, 3-D pooling, resize2d,
// upsampling, depth_to_space and space_to_depth.
#include <cmath>

#include "test_util.h"

namespace relaypass::eval {
namespace {

using namespace testing;  // NOLINT
using relay::Ints;

NDArray I64(const Shape& shape, const std::vector<double>& v) {
  return Array<int64_t>(shape, v, DataType::Int64());
}
NDArray Iota(const Shape& shape) {
  std::vector<double> v;
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  for (int64_t i = 0; i < n; ++i) v.push_back(static_cast<double>(i));
  return Array(shape, v);
}

TEST(TakeTest, AxisFlatAndModes) {
  NDArray x = Iota({3, 4});
  ExpectValues(EvalOp(relay::take(C(x), C(I64({2}, {2, 0})), 0)), {2, 4},
               {8, 9, 10, 11, 0, 1, 2, 3});
  ExpectValues(EvalOp(relay::take(C(x), C(I64({2, 2}, {0, 3, 1, 1})), 1)), {3, 2, 2},
               {0, 3, 1, 1, 4, 7, 5, 5, 8, 11, 9, 9});
  ExpectValues(EvalOp(relay::take(C(x), C(I64({3}, {11, -1, 20})))), {3}, {11, 0, 11});
  ExpectValues(EvalOp(relay::take(C(x), C(I64({2}, {-1, 13})), std::nullopt, 0, "wrap")), {2},
               {11, 1});
  EXPECT_THROW(EvalOp(relay::take(C(x), C(I64({1}, {12})), std::nullopt, 0, "fast")), Error);
}

TEST(StridedSliceTest, StepsAxesAndNegativeStrides) {
  NDArray x = Iota({3, 4});
  ExpectValues(EvalOp(relay::strided_slice(C(x), {1, 0}, {3, 4}, Ints{1, 2})), {2, 2},
               {4, 6, 8, 10});
  ExpectValues(EvalOp(relay::strided_slice(C(x), {-1}, {-5}, Ints{-2}, Ints{1})), {3, 2},
               {3, 1, 7, 5, 11, 9});
  // ONNX's INT64_MAX end clamps to the extent.
  ExpectValues(EvalOp(relay::strided_slice(C(x), {2}, {INT64_MAX}, Ints{1}, Ints{0})), {1, 4},
               {8, 9, 10, 11});
  ExpectValues(
      EvalOp(relay::strided_slice(C(x), {0, 1}, {2, -1}, std::nullopt, std::nullopt, "size")),
      {2, 3}, {1, 2, 3, 5, 6, 7});
}

TEST(WhereTest, BroadcastsAllThree) {
  NDArray cond = Array<bool>({2, 1}, {1, 0}, DataType::Bool());
  NDArray x = Array({3}, {1, 2, 3});
  NDArray y = Array({}, {-1});
  ExpectValues(EvalOp(relay::where(C(cond), C(x), C(y))), {2, 3}, {1, 2, 3, -1, -1, -1});
}

TEST(BroadcastTileReverseTest, Values) {
  NDArray x = Array({2, 1}, {1, 2});
  ExpectValues(EvalOp(relay::broadcast_to(C(x), {2, 3})), {2, 3}, {1, 1, 1, 2, 2, 2});
  ExpectValues(EvalOp(relay::tile(C(x), {2, 2})), {4, 2}, {1, 1, 2, 2, 1, 1, 2, 2});
  ExpectValues(EvalOp(relay::broadcast_to_like(C(x), C(Iota({2, 3})))), {2, 3}, {1, 1, 1, 2, 2, 2});
  NDArray as_int = EvalOp(relay::cast_like(C(Array({2}, {1.7, -2.2})), C(I64({1}, {0}))));
  EXPECT_EQ(as_int.dtype(), DataType::Int64());
  ExpectValues(as_int, {2}, {1, -2});
  ExpectValues(EvalOp(relay::tile(C(Array({2}, {1, 2})), {2, 1})), {2, 2}, {1, 2, 1, 2});
  ExpectValues(EvalOp(relay::reverse(C(Iota({2, 3})), 1)), {2, 3}, {2, 1, 0, 5, 4, 3});
  EXPECT_THROW(EvalOp(relay::broadcast_to(C(Array({3}, {1, 2, 3})), {2, 2})), Error);
}

TEST(GatherTest, ElementsAndND) {
  // ONNX GatherElements example: data [[1, 2], [3, 4]], indices [[0, 0], [1, 0]], axis 1.
  NDArray data = Array({2, 2}, {1, 2, 3, 4});
  ExpectValues(EvalOp(relay::gather(C(data), 1, C(I64({2, 2}, {0, 0, 1, 0})))), {2, 2},
               {1, 1, 4, 3});
  // GatherND with the tuple axis first: indices [[0, 1], [1, 0]] as [2, 2] transposed.
  ExpectValues(EvalOp(relay::gather_nd(C(data), C(I64({2, 2}, {0, 1, 1, 0})))), {2}, {2, 3});
  // Rows: indices [[1], [0]] -> [1, 2] transposed to [1, 2].
  ExpectValues(EvalOp(relay::gather_nd(C(data), C(I64({1, 2}, {1, 0})))), {2, 2}, {3, 4, 1, 2});
  // batch_dims 1: data [2, 2, 2], per batch one index into the next axis.
  NDArray d3 = Iota({2, 2, 2});
  ExpectValues(EvalOp(relay::gather_nd(C(d3), C(I64({1, 2}, {1, 0})), 1)), {2, 2}, {2, 3, 4, 5});
}

TEST(OneHotTest, AxisAndValues) {
  NDArray idx = Array<int32_t>({3}, {0, 2, 1}, DataType::Int32());
  ExpectValues(
      EvalOp(relay::one_hot(C(idx), relay::const_(5.0f), relay::const_(-1.0f), 3, -1, "float32")),
      {3, 3}, {5, -1, -1, -1, -1, 5, -1, 5, -1});
  ExpectValues(
      EvalOp(relay::one_hot(C(idx), relay::const_(1.0f), relay::const_(0.0f), 3, 0, "float32")),
      {3, 3}, {1, 0, 0, 0, 0, 1, 0, 1, 0});
}

TEST(CumSumTest, InclusiveExclusiveFlat) {
  NDArray x = Array({2, 3}, {1, 2, 3, 4, 5, 6});
  ExpectValues(EvalOp(relay::cumsum(C(x), 1)), {2, 3}, {1, 3, 6, 4, 9, 15});
  ExpectValues(EvalOp(relay::cumsum(C(x), 0, "", true)), {2, 3}, {0, 0, 0, 1, 2, 3});
  ExpectValues(EvalOp(relay::cumsum(C(x))), {6}, {1, 3, 6, 10, 15, 21});
}

TEST(TopKTest, LargestSmallestAndTies) {
  NDArray x = Array({2, 4}, {1, 4, 4, 2, 7, 3, 9, 0});
  Value both = EvalValue(relay::topk(C(x), 2, 1, "both", false, "int64"));
  ExpectValues(both.fields()[0].tensor(), {2, 2}, {4, 4, 9, 7});
  ExpectValues(both.fields()[1].tensor(), {2, 2}, {1, 2, 2, 0});
  ExpectValues(EvalOp(relay::topk(C(x), 1, 0, "indices", true)), {1, 4}, {0, 1, 0, 1});
}

TEST(TriluTest, UpperLowerAndK) {
  NDArray x = Iota({3, 3});
  NDArray k0 = Array<int64_t>({}, {0}, DataType::Int64());
  NDArray k1 = Array<int64_t>({}, {1}, DataType::Int64());
  ExpectValues(EvalOp(relay::trilu(C(x), C(k0))), {3, 3}, {0, 1, 2, 0, 4, 5, 0, 0, 8});
  ExpectValues(EvalOp(relay::trilu(C(x), C(k1))), {3, 3}, {0, 1, 2, 0, 0, 5, 0, 0, 0});
  ExpectValues(EvalOp(relay::trilu(C(x), C(k0), false)), {3, 3}, {0, 0, 0, 3, 4, 0, 6, 7, 8});
}

TEST(ArgReduceTest, FirstLastAndKeepdims) {
  NDArray x = Array({2, 3}, {3, 1, 3, 0, 5, 5});
  NDArray out = EvalOp(relay::argmax(C(x), Ints{1}));
  EXPECT_EQ(out.dtype(), DataType::Int32());
  ExpectValues(out, {2}, {0, 1});
  ExpectValues(EvalOp(relay::argmax(C(x), Ints{1}, true, false, true)), {2, 1}, {2, 2});
  ExpectValues(EvalOp(relay::argmin(C(x), Ints{0})), {3}, {1, 0, 0});
  ExpectValues(EvalOp(relay::argmax(C(x))), {}, {4});
}

TEST(NewElementwiseTest, Values) {
  NDArray x = Array({4}, {-2.5, 0, 3, -0.5});
  ExpectValues(EvalOp(relay::sign(C(x))), {4}, {-1, 0, 1, -1});
  ExpectValues(EvalOp(relay::floor_mod(C(x), C(Array({}, {2})))), {4}, {1.5, 0, 1, 1.5});
  ExpectValues(EvalOp(relay::mod(C(x), C(Array({}, {2})))), {4}, {-0.5, 0, 1, -0.5});
  NDArray i = Array<int32_t>({3}, {-7, 7, -8}, DataType::Int32());
  NDArray d = Array<int32_t>({}, {3}, DataType::Int32());
  ExpectValues(EvalOp(relay::floor_mod(C(i), C(d))), {3}, {2, 1, 1});
  ExpectValues(EvalOp(relay::mod(C(i), C(d))), {3}, {-1, 1, -2});
  NDArray a = Array<bool>({4}, {1, 1, 0, 0}, DataType::Bool());
  NDArray b = Array<bool>({4}, {1, 0, 1, 0}, DataType::Bool());
  ExpectValues(EvalOp(relay::logical_and(C(a), C(b))), {4}, {1, 0, 0, 0});
  ExpectValues(EvalOp(relay::logical_or(C(a), C(b))), {4}, {1, 1, 1, 0});
  ExpectValues(EvalOp(relay::logical_xor(C(a), C(b))), {4}, {0, 1, 1, 0});
  ExpectValues(EvalOp(relay::logical_not(C(a))), {4}, {0, 0, 1, 1});
  NDArray special = Array({3}, {NAN, INFINITY, 1});
  ExpectValues(EvalOp(relay::isnan(C(special))), {3}, {1, 0, 0});
  ExpectValues(EvalOp(relay::isinf(C(special))), {3}, {0, 1, 0});
  ExpectValues(EvalOp(relay::full(relay::const_(2.5f), {2}, "int32")), {2}, {2, 2});
  ExpectValues(EvalOp(relay::ones({2}, "float32")), {2}, {1, 1});
  ExpectValues(EvalOp(relay::zeros_like(C(special))), {3}, {0, 0, 0});
  ExpectValues(EvalOp(CallOp("atanh", {C(Array({1}, {0.5}))})), {1}, {std::atanh(0.5)}, 1e-6);
  ExpectValues(EvalOp(CallOp("right_shift", {C(i), C(Array<int32_t>({}, {1}, DataType::Int32()))})),
               {3}, {-4, 3, -4});
}

TEST(NormTest, PReluLrnInstanceLayer) {
  NDArray x = Array({1, 2, 1, 2}, {-1, 2, -3, 4});
  ExpectValues(EvalOp(relay::nn::prelu(C(x), C(Array({2}, {0.5, 0.25})))), {1, 2, 1, 2},
               {-0.5, 2, -0.75, 4});
  // size 3 across 2 channels: each sums both squares; bias 1, alpha 3 (alpha/size = 1), beta 1.
  NDArray y = EvalOp(relay::nn::lrn(C(x), 3, 1, 1.0, 3.0, 1.0));
  ExpectValues(y, {1, 2, 1, 2}, {-1.0 / 11, 2.0 / 21, -3.0 / 11, 4.0 / 21});
  NDArray in = Array({1, 2, 2}, {1, 3, 2, 6});
  NDArray g = Array({2}, {1, 2}), b = Array({2}, {0, 1});
  // per channel: (1, 3) -> (-1, 1); (2, 6) -> (-1, 1) * 2 + 1
  ExpectValues(EvalOp(relay::nn::instance_norm(C(in), C(g), C(b), 1, 0)), {1, 2, 2}, {-1, 1, -1, 3},
               1e-5);
  // last axis: rows (1, 3) and (2, 6) each -> (-1, 1), scaled by (1, 2), shifted by (0, 1)
  ExpectValues(EvalOp(relay::nn::layer_norm(C(in), C(g), C(b), -1, 0)), {1, 2, 2}, {-1, 3, -1, 3},
               1e-5);
}

TEST(BatchMatmulTest, TransposesAndBroadcast) {
  NDArray a = Array({1, 2, 2}, {1, 2, 3, 4});
  NDArray b = Array({2, 2, 2}, {1, 0, 0, 1, 0, 1, 1, 0});
  // y transposed by default: a x b^T.
  ExpectValues(EvalOp(relay::nn::batch_matmul(C(a), C(b))), {2, 2, 2}, {1, 2, 3, 4, 2, 1, 4, 3});
  ExpectValues(EvalOp(relay::nn::batch_matmul(C(a), C(a), "", true, false)), {1, 2, 2},
               {10, 14, 14, 20});
}

TEST(ConvNDTest, TransposeConv3DAndPool3D) {
  // 1-D transposed convolution by hand: x [1, 2, 3] (one channel), w [[1, 1]], stride 2.
  NDArray x = Array({1, 1, 2}, {1, 2});
  NDArray w = Array({1, 1, 2}, {1, 10});
  relay::nn::ConvTransposeArgs t;
  t.strides = {2};
  ExpectValues(EvalOp(relay::nn::conv1d_transpose(C(x), C(w), t)), {1, 1, 4}, {1, 10, 2, 20});
  t.padding = {1, 0};
  t.output_padding = {1};
  ExpectValues(EvalOp(relay::nn::conv1d_transpose(C(x), C(w), t)), {1, 1, 4}, {10, 2, 20, 0});
  // 2-D: a 1x1 input spreads the kernel.
  NDArray k = Array({1, 1, 2, 2}, {1, 2, 3, 4});
  ExpectValues(EvalOp(relay::nn::conv2d_transpose(C(Array({1, 1, 1, 1}, {2})), C(k))), {1, 1, 2, 2},
               {2, 4, 6, 8});
  // conv3d of ones by a 2x2x2 kernel of ones: every output is 8.
  NDArray ones = Array({1, 1, 2, 2, 3}, std::vector<double>(12, 1));
  NDArray w3 = Array({1, 1, 2, 2, 2}, std::vector<double>(8, 1));
  ExpectValues(EvalOp(relay::nn::conv3d(C(ones), C(w3))), {1, 1, 1, 1, 2}, {8, 8});
  relay::nn::Pool3DArgs p;
  p.pool_size = {1, 2, 2};
  p.strides = {1, 2, 2};
  NDArray v = Iota({1, 1, 1, 2, 2});
  ExpectValues(EvalOp(relay::nn::max_pool3d(C(v), p)), {1, 1, 1, 1, 1}, {3});
  ExpectValues(EvalOp(relay::nn::avg_pool3d(C(v), p)), {1, 1, 1, 1, 1}, {1.5});
}

TEST(ImageTest, ResizeUpsamplingAndSubPixel) {
  NDArray x = Array({1, 1, 2, 2}, {1, 2, 3, 4});
  relay::image::Resize2DArgs nearest;
  nearest.method = "nearest_neighbor";
  nearest.coordinate_transformation_mode = "asymmetric";
  ExpectValues(EvalOp(relay::image::resize2d(C(x), {4, 4}, nearest)), {1, 1, 4, 4},
               {1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4});
  relay::image::Resize2DArgs align;
  align.coordinate_transformation_mode = "align_corners";
  ExpectValues(EvalOp(relay::image::resize2d(C(x), {3, 3}, align)), {1, 1, 3, 3},
               {1, 1.5, 2, 2, 2.5, 3, 3, 3.5, 4});
  // half_pixel linear 2 -> 4 (ONNX's resize_upsample_scales_linear row 0).
  relay::image::Resize2DArgs half;
  ExpectValues(EvalOp(relay::image::resize2d(C(x), {1, 4}, half)), {1, 1, 1, 4}, {2, 2.25, 2.75, 3},
               1e-6);
  ExpectValues(EvalOp(relay::nn::upsampling(C(x), 1, 2)), {1, 1, 2, 4}, {1, 1, 2, 2, 3, 3, 4, 4});
  NDArray d = Iota({1, 4, 1, 1});
  ExpectValues(EvalOp(relay::nn::depth_to_space(C(d), 2)), {1, 1, 2, 2}, {0, 1, 2, 3});
  NDArray s = Iota({1, 1, 2, 2});
  ExpectValues(EvalOp(relay::nn::space_to_depth(C(s), 2)), {1, 4, 1, 1}, {0, 1, 2, 3});
  NDArray e = Iota({1, 8, 1, 1});
  // DCR: channel (i * 2 + j) * 2 + c; CRD: c * 4 + i * 2 + j.
  ExpectValues(EvalOp(relay::nn::depth_to_space(C(e), 2, "NCHW", "DCR")), {1, 2, 2, 2},
               {0, 2, 4, 6, 1, 3, 5, 7});
  ExpectValues(EvalOp(relay::nn::depth_to_space(C(e), 2, "NCHW", "CRD")), {1, 2, 2, 2},
               {0, 1, 2, 3, 4, 5, 6, 7});
  // Extents the block does not divide are floored (TVM's relations and topi): 6 channels by a
  // block of 2 keep channel 0's DCR places (channels 0, 1, 2, 3 of the 4 the block reads, by hand),
  // a 3 x 5 image to depth keeps its first 2 x 4; 3 channels by a block of 4 leave none.
  NDArray six = Iota({1, 6, 1, 1});
  ExpectValues(EvalOp(relay::nn::depth_to_space(C(six), 2)), {1, 1, 2, 2}, {0, 1, 2, 3});
  NDArray odd = Iota({1, 1, 3, 5});
  ExpectValues(EvalOp(relay::nn::space_to_depth(C(odd), 2)), {1, 4, 1, 2},
               {0, 2, 1, 3, 5, 7, 6, 8});
  EXPECT_EQ(EvalOp(relay::nn::depth_to_space(C(Iota({1, 3, 2, 2})), 4)).shape(),
            (Shape{1, 0, 8, 8}));
}

}  // namespace
}  // namespace relaypass::eval
