// vision.roi_align and nn.deformable_conv2d: TVM v0.13's result types and the kernels' values,
// worked out by hand below. roi_align runs on data linear in x and y (value 4y + x), where every
// bilinear sample equals 4y + x at its point (torchvision's roi_align with aligned=False samples
// the same points); deformable_conv2d with zero offsets is conv2d, and with offsets of one row
// each tap reads the row below (0 past the data).
#include "relaypass/ir/type_infer.h"
#include "relaypass/text/parser.h"
#include "test_util.h"

namespace relaypass::eval {
namespace {

using namespace testing;  // NOLINT

ir::IRModule Typed(const std::string& text) {
  return ir::InferTypes(text::ParseModule("#[version = \"0.0.5\"]\n" + text));
}

NDArray Ramp() {
  NDArray x = NDArray::Empty({1, 1, 4, 4}, DataType::Float32());
  for (int i = 0; i < 16; ++i) x.mutable_data<float>()[i] = static_cast<float>(i);
  return x;
}

TEST(VisionTest, RoiAlignAveragesOrMaxesBilinearSamples) {
  ir::IRModule mod = Typed(R"(def @main(%x: Tensor[(1, 1, 4, 4), float32],
                                         %r: Tensor[(2, 5), float32]) {
  (vision.roi_align(%x, %r, pooled_size=[1, 1], spatial_scale=1f, sample_ratio=2),
   vision.roi_align(%x, %r, pooled_size=[1, 1], spatial_scale=1f, sample_ratio=2, mode="max"),
   vision.roi_align(%x, %r, pooled_size=[2, 2], spatial_scale=2f, sample_ratio=1))
})");
  EXPECT_EQ(ir::TypeToString(mod.Lookup("main")->body->checked_type),
            "(Tensor[(2, 1, 1, 1), float32], Tensor[(2, 1, 1, 1), float32], "
            "Tensor[(2, 1, 2, 2), float32])");
  const NDArray rois = Array({2, 5}, {0, 0, 0, 2, 2, 0, 0, 0, 1, 1});
  std::vector<NDArray> out = RunMain(mod, {Ramp(), rois});
  // Roi 1 (0, 0)-(2, 2): samples at (y, x) = (0.5, 0.5), (0.5, 1.5), (1.5, 0.5), (1.5, 1.5):
  // 2.5, 3.5, 6.5, 7.5. Roi 2 (0, 0)-(1, 1): samples at 0.25 and 0.75: 1.25, 1.75, 3.25, 3.75.
  ExpectValues(out[0], {2, 1, 1, 1}, {5, 2.5});
  ExpectValues(out[1], {2, 1, 1, 1}, {7.5, 3.75});
  // Scale 2: roi 1 becomes (0, 0)-(4, 4), bins of 2 sampled at their centres (1, 1), (1, 3),
  // (3, 1), (3, 3): 5, 7, 13, 15; roi 2 becomes (0, 0)-(2, 2): centres 0.5 and 1.5.
  ExpectValues(out[2], {2, 1, 2, 2}, {5, 7, 13, 15, 2.5, 3.5, 6.5, 7.5});
  const NDArray bad = Array({2, 5}, {3, 0, 0, 1, 1, 0, 0, 0, 1, 1});  // batch 3 of 1
  EXPECT_THROW(RunMain(mod, {Ramp(), bad}), Error);
}

TEST(VisionTest, DeformableConv2DSamplesAtTheOffsetTaps) {
  ir::IRModule mod = Typed(R"(def @main(%x: Tensor[(1, 1, 3, 3), float32],
                                         %o: Tensor[(1, 8, 2, 2), float32],
                                         %w: Tensor[(1, 1, 2, 2), float32]) {
  nn.deformable_conv2d(%x, %o, %w, padding=[0, 0, 0, 0], channels=1, kernel_size=[2, 2])
})");
  EXPECT_EQ(ir::TypeToString(mod.Lookup("main")->body->checked_type),
            "Tensor[(1, 1, 2, 2), float32]");
  NDArray x = NDArray::Empty({1, 1, 3, 3}, DataType::Float32());
  for (int i = 0; i < 9; ++i) x.mutable_data<float>()[i] = static_cast<float>(i);
  const NDArray w = Array({1, 1, 2, 2}, {1, 1, 1, 1});
  NDArray offsets = NDArray::Empty({1, 8, 2, 2}, DataType::Float32());
  // Zero offsets: the 2 x 2 window sums of [[0, 1, 2], [3, 4, 5], [6, 7, 8]].
  ExpectValues(RunMain(mod, {x, offsets, w})[0], {1, 1, 2, 2}, {8, 12, 20, 24});
  // dy = 1 for every tap (channels 0, 2, 4, 6): rows y + 1 and y + 2, row 3 being outside.
  for (int tap = 0; tap < 4; ++tap) {
    for (int p = 0; p < 4; ++p) offsets.mutable_data<float>()[tap * 2 * 4 + p] = 1;
  }
  ExpectValues(RunMain(mod, {x, offsets, w})[0], {1, 1, 2, 2}, {20, 24, 13, 15});
  EXPECT_THROW(Typed(R"(def @main(%x: Tensor[(1, 1, 3, 3), float32],
                                  %o: Tensor[(1, 4, 2, 2), float32],
                                  %w: Tensor[(1, 1, 2, 2), float32]) {
  nn.deformable_conv2d(%x, %o, %w, channels=1, kernel_size=[2, 2])
})"),
               Error);  // 4 offset channels for 4 taps: 8 needed
}

}  // namespace
}  // namespace relaypass::eval
