// Type relations of the operators the ONNX importer needs, against TVM's: take, strided_slice,
// where, broadcast_to, tile, gather, gather_nd, one_hot, cumsum, topk, argmax, prelu,
// batch_matmul, the norms, conv3d, conv*_transpose, pool3d, resize2d, upsampling and the
// sub-pixel ops; with their printed attributes.
#include <gtest/gtest.h>

#include "fake_call.h"
#include "relaypass/relay.h"
#include "test_util.h"

namespace relaypass::op {
namespace {

using relay::Ints;
using relay::var;
using testing::ExpectTypeError;
using testing::Infer;
using testing::PrintedAttrs;
using testing::T;

TEST(IndexingRelTest, TakeAndGather) {
  EXPECT_EQ(Infer(relay::take(var("x"), var("i"), 1), {T({3, 4, 5}), T({2, 6}, "int64")}),
            "Tensor[(3, 2, 6, 5), float32]");
  EXPECT_EQ(Infer(relay::take(var("x"), var("i")), {T({3, 4}), T({7}, "int32")}),
            "Tensor[(7), float32]");
  ExpectTypeError(
      [] {
        Infer(relay::take(var("x"), var("i"), 0), {T({3}), T({2})});
      },
      "indices must be an integer tensor");
  EXPECT_EQ(Infer(relay::gather(var("x"), 1, var("i")), {T({3, 4}), T({3, 2}, "int64")}),
            "Tensor[(3, 2), float32]");
  ExpectTypeError(
      [] {
        Infer(relay::gather(var("x"), 1, var("i")), {T({3, 4}), T({3}, "int64")});
      },
      "same rank");
  EXPECT_EQ(Infer(relay::gather_nd(var("x"), var("i")), {T({3, 4, 5}), T({2, 7}, "int64")}),
            "Tensor[(7, 5), float32]");
  EXPECT_EQ(Infer(relay::gather_nd(var("x"), var("i"), 1), {T({3, 4, 5}), T({1, 3}, "int64")}),
            "Tensor[(3, 5), float32]");
  EXPECT_EQ(PrintedAttrs(relay::take(var("x"), var("i"), 1)), "axis=1");
}

TEST(IndexingRelTest, StridedSliceBroadcastTile) {
  EXPECT_EQ(Infer(relay::strided_slice(var("x"), {1, 0}, {3, 4}, Ints{1, 2}), {T({3, 4})}),
            "Tensor[(2, 2), float32]");
  EXPECT_EQ(Infer(relay::strided_slice(var("x"), {-1}, {-10}, Ints{-1}, Ints{1}), {T({3, 4})}),
            "Tensor[(3, 4), float32]");
  EXPECT_EQ(Infer(relay::strided_slice(var("x"), {0}, {INT64_MAX}, Ints{2}, Ints{0}), {T({5})}),
            "Tensor[(3), float32]");
  EXPECT_EQ(PrintedAttrs(relay::strided_slice(var("x"), {0}, {INT64_MAX}, Ints{2}, Ints{0})),
            "begin=[0], end=[9223372036854775807i64], strides=[2], axes=[0]");
  ExpectTypeError([] { Infer(relay::strided_slice(var("x"), {0}, {1}, Ints{0}), {T({5})}); },
                  "strides");
  EXPECT_EQ(Infer(relay::broadcast_to(var("x"), {2, 3, 4}), {T({3, 1})}),
            "Tensor[(2, 3, 4), float32]");
  ExpectTypeError(
      [] {
        Infer(relay::broadcast_to(var("x"), {2, 2}), {T({3})});
      },
      "does not broadcast");
  EXPECT_EQ(Infer(relay::tile(var("x"), {2, 3}), {T({4})}), "Tensor[(2, 12), float32]");
  EXPECT_EQ(Infer(relay::broadcast_to_like(var("x"), var("y")), {T({3, 1}), T({2, 3, 4}, "int8")}),
            "Tensor[(2, 3, 4), float32]");
  EXPECT_EQ(Infer(relay::cast_like(var("x"), var("y")), {T({3, 1}), T({5}, "int8")}),
            "Tensor[(3, 1), int8]");
  EXPECT_EQ(Infer(relay::tile(var("x"), {2}), {T({4, 5})}), "Tensor[(4, 10), float32]");
}

TEST(IndexingRelTest, WhereOneHotScanTopKTrilu) {
  EXPECT_EQ(Infer(relay::where(var("c"), var("x"), var("y")), {T({2, 1}, "bool"), T({3}), T({})}),
            "Tensor[(2, 3), float32]");
  ExpectTypeError(
      [] {
        Infer(relay::where(var("c"), var("x"), var("y")), {T({}, "bool"), T({3}), T({3}, "int32")});
      },
      "same dtype");
  EXPECT_EQ(Infer(relay::one_hot(var("i"), var("a"), var("b"), 5, 0, "int32"),
                  {T({2, 3}, "int64"), T({}), T({})}),
            "Tensor[(5, 2, 3), int32]");
  EXPECT_EQ(Infer(relay::cumsum(var("x")), {T({2, 3})}), "Tensor[(6), float32]");
  EXPECT_EQ(Infer(relay::cumsum(var("x"), 1, "float64"), {T({2, 3})}), "Tensor[(2, 3), float64]");
  EXPECT_EQ(Infer(relay::topk(var("x"), 2, 1, "both", false, "int64"), {T({3, 5})}),
            "(Tensor[(3, 2), float32], Tensor[(3, 2), int64])");
  EXPECT_EQ(Infer(relay::topk(var("x"), 0, 0, "indices"), {T({3, 5})}), "Tensor[(3, 5), int32]");
  EXPECT_EQ(Infer(relay::trilu(var("x"), var("k")), {T({2, 3, 4}), T({}, "int64")}),
            "Tensor[(2, 3, 4), float32]");
  ExpectTypeError(
      [] {
        Infer(relay::trilu(var("x"), var("k")), {T({4}), T({}, "int64")});
      },
      "rank >= 2");
  EXPECT_EQ(Infer(relay::argmax(var("x"), Ints{1}, true), {T({2, 3, 4})}),
            "Tensor[(2, 1, 4), int32]");
  EXPECT_EQ(Infer(relay::argmin(var("x")), {T({2, 3})}), "int32");  // a scalar, as TVM prints it
  EXPECT_EQ(Infer(relay::isnan(var("x")), {T({2})}), "Tensor[(2), bool]");
  ExpectTypeError(
      [] {
        Infer(relay::logical_and(var("a"), var("b")), {T({2}), T({2})});
      },
      "requires bool operands");
  EXPECT_EQ(Infer(relay::full(var("v"), {2, 3}, "int8"), {T({})}), "Tensor[(2, 3), int8]");
  EXPECT_EQ(Infer(relay::zeros({4}, "float16"), {}), "Tensor[(4), float16]");
}

TEST(NNRelTest, NewNNOps) {
  EXPECT_EQ(Infer(relay::nn::prelu(var("x"), var("a")), {T({1, 3, 4, 4}), nullptr}),
            "Tensor[(1, 3, 4, 4), float32]");
  EXPECT_EQ(Infer(relay::nn::batch_matmul(var("a"), var("b")), {T({2, 3, 4}), T({1, 5, 4})}),
            "Tensor[(2, 3, 5), float32]");
  EXPECT_EQ(Infer(relay::nn::batch_matmul(var("a"), var("b"), "", true, false),
                  {T({2, 4, 3}), T({2, 4, 5})}),
            "Tensor[(2, 3, 5), float32]");
  ExpectTypeError(
      [] {
        Infer(relay::nn::batch_matmul(var("a"), var("b")), {T({2, 3, 4}), T({2, 5, 3})});
      },
      "reduction dimensions differ");
  EXPECT_EQ(
      Infer(relay::nn::layer_norm(var("x"), var("g"), var("b")), {T({2, 8}), nullptr, nullptr}),
      "Tensor[(2, 8), float32]");
  EXPECT_EQ(
      Infer(relay::nn::instance_norm(var("x"), var("g"), var("b")), {T({2, 3, 5}), T({3}), T({3})}),
      "Tensor[(2, 3, 5), float32]");
  EXPECT_EQ(Infer(relay::nn::lrn(var("x")), {T({1, 8, 2, 2})}), "Tensor[(1, 8, 2, 2), float32]");
  relay::nn::ConvTransposeArgs t;
  t.strides = {2, 2};
  t.padding = {1, 1};
  t.output_padding = {1, 1};
  EXPECT_EQ(
      Infer(relay::nn::conv2d_transpose(var("x"), var("w"), t), {T({1, 4, 5, 5}), T({4, 3, 3, 3})}),
      "Tensor[(1, 3, 10, 10), float32]");
  EXPECT_EQ(PrintedAttrs(relay::nn::conv2d_transpose(var("x"), var("w"), t)),
            "strides=[2, 2], padding=[1, 1, 1, 1], output_padding=[1, 1]");
  t.groups = 2;
  t.padding = {};
  t.output_padding = {};
  t.strides = {1};
  EXPECT_EQ(Infer(relay::nn::conv1d_transpose(var("x"), var("w"), t), {T({1, 4, 5}), T({4, 3, 2})}),
            "Tensor[(1, 6, 6), float32]");
  relay::nn::Conv3DArgs c;
  c.padding = {1};
  c.strides = {2, 2, 2};
  EXPECT_EQ(Infer(relay::nn::conv3d(var("x"), var("w")), {T({1, 2, 5, 5, 5}), T({4, 2, 3, 3, 3})}),
            "Tensor[(1, 4, 3, 3, 3), float32]");
  EXPECT_EQ(
      Infer(relay::nn::conv3d(var("x"), var("w"), c), {T({1, 2, 5, 5, 5}), T({4, 2, 3, 3, 3})}),
      "Tensor[(1, 4, 3, 3, 3), float32]");
  relay::nn::Pool3DArgs p;
  p.pool_size = {2, 2, 2};
  p.strides = {2, 2, 2};
  p.ceil_mode = true;
  EXPECT_EQ(Infer(relay::nn::max_pool3d(var("x"), p), {T({1, 2, 5, 4, 3})}),
            "Tensor[(1, 2, 3, 2, 2), float32]");
}

TEST(ImageRelTest, ResizeUpsamplingSubPixel) {
  EXPECT_EQ(Infer(relay::image::resize2d(var("x"), {7, 9}), {T({1, 3, 4, 4})}),
            "Tensor[(1, 3, 7, 9), float32]");
  EXPECT_EQ(PrintedAttrs(relay::image::resize2d(var("x"), {7, 9})),
            "size=[7, 9], roi=[0f, 0f, 0f, 0f], rounding_method=\"\"");
  EXPECT_EQ(Infer(relay::nn::upsampling(var("x"), 2, 1.5), {T({1, 3, 4, 4})}),
            "Tensor[(1, 3, 8, 6), float32]");
  EXPECT_EQ(Infer(relay::nn::depth_to_space(var("x"), 2), {T({1, 8, 3, 3})}),
            "Tensor[(1, 2, 6, 6), float32]");
  EXPECT_EQ(Infer(relay::nn::space_to_depth(var("x"), 2), {T({1, 2, 6, 4})}),
            "Tensor[(1, 8, 3, 2), float32]");
  // Extents the block does not divide are floored, as TVM's DepthToSpaceRel / SpaceToDepthRel
  // (indexdiv) do: 6 channels by a block of 2 give 1 channel, 3 by 4 none.
  EXPECT_EQ(Infer(relay::nn::depth_to_space(var("x"), 2), {T({1, 6, 3, 3})}),
            "Tensor[(1, 1, 6, 6), float32]");
  EXPECT_EQ(Infer(relay::nn::depth_to_space(var("x"), 4), {T({1, 3, 2, 2})}),
            "Tensor[(1, 0, 8, 8), float32]");
  EXPECT_EQ(Infer(relay::nn::space_to_depth(var("x"), 2), {T({1, 2, 7, 5})}),
            "Tensor[(1, 8, 3, 2), float32]");
}

// TVM v0.13's level-10 and sorting relations: collapse_sum_like/to, sequence_mask,
// matrix_set_diag, slice_like, sort, argsort, searchsorted (hand-derived result types).
TEST(IndexingRelTest, LevelTenAndSortingOps) {
  EXPECT_EQ(Infer(relay::collapse_sum_like(var("x"), var("y")), {T({3, 4, 5}), T({4, 1})}),
            "Tensor[(4, 1), float32]");
  ExpectTypeError(
      [] {
        Infer(relay::collapse_sum_like(var("x"), var("y")), {T({3, 4}), T({3})});
      },
      "does not broadcast to data");
  const ir::Expr to = relay::collapse_sum_to(var("x"), {1, 5});
  EXPECT_EQ(Infer(to, {T({3, 4, 5}), T({2}, "int32")}), "Tensor[(1, 5), float32]");
  EXPECT_EQ(PrintedAttrs(to), "shape=[1, 5]");
  EXPECT_EQ(
      Infer(relay::sequence_mask(var("x"), var("v"), 0.0, 1), {T({4, 3, 2}), T({4}, "int64")}),
      "Tensor[(4, 3, 2), float32]");
  ExpectTypeError(
      [] {
        Infer(relay::sequence_mask(var("x"), var("v"), 0.0, 0), {T({4, 3}), T({4}, "int32")});
      },
      "must have shape (3,)");
  // k = (-1, 2) on 3x4 matrices: 4 diagonals of at most min(3 + 0, 4 - 0) = 3 elements.
  EXPECT_EQ(Infer(relay::matrix_set_diag(var("x"), var("d"), -1, 2),
                  {T({2, 3, 4}, "int32"), T({2, 4, 3}, "int32")}),
            "Tensor[(2, 3, 4), int32]");
  ExpectTypeError(
      [] {
        Infer(relay::matrix_set_diag(var("x"), var("d")), {T({3, 4}), T({4})});
      },
      "must have shape (3)");
  EXPECT_EQ(
      Infer(relay::slice_like(var("x"), var("y"), Ints{-1, -3}), {T({3, 4, 5}), T({1, 2, 3})}),
      "Tensor[(1, 4, 3), float32]");
  EXPECT_EQ(Infer(relay::sort(var("x"), 0), {T({3, 4}, "int8")}), "Tensor[(3, 4), int8]");
  EXPECT_EQ(Infer(relay::argsort(var("x"), 1, false, "int64"), {T({3, 4})}),
            "Tensor[(3, 4), int64]");
  EXPECT_EQ(PrintedAttrs(relay::argsort(var("x"), 0, false)),
            "axis=0, is_ascend=False, dtype=\"int32\"");
  EXPECT_EQ(Infer(relay::searchsorted(var("s"), var("v"), true, "int64"), {T({8}), T({2, 5})}),
            "Tensor[(2, 5), int64]");
  ExpectTypeError(
      [] {
        Infer(relay::searchsorted(var("s"), var("v")), {T({2, 8}), T({3, 5})});
      },
      "leading dimensions");
}

}  // namespace
}  // namespace relaypass::op
