// arange, meshgrid, argwhere, unique, adv_index, image.resize3d, 3-D image.grid_sample,
// nn.cross_entropy(_with_logits) and scatter_elements' "mean": TVM v0.13's result types (static
// where TVM's relations know the extent, `?` where only values decide it) and the kernels' values.
// Expected values are NumPy's for the same call (numpy.arange, numpy.meshgrid, numpy.argwhere,
// numpy.unique, x[i, j]) or PyTorch's definitions (grid_sample), worked out by hand in the
// comments.
#include <cmath>

#include "relaypass/ir/type_infer.h"
#include "relaypass/text/parser.h"
#include "test_util.h"

namespace relaypass::eval {
namespace {

using namespace testing;  // NOLINT

ir::IRModule Typed(const std::string& text) {
  return ir::InferTypes(text::ParseModule("#[version = \"0.0.5\"]\n" + text));
}

std::string ResultType(const ir::IRModule& mod) {
  return ir::TypeToString(mod.Lookup("main")->body->checked_type);
}

TEST(RangeOpsTest, ArangeOfConstantsHasAStaticExtent) {
  // numpy.arange(1, 2.5, 0.5) = [1, 1.5, 2]: ceil((2.5 - 1) / 0.5) = 3 values.
  ir::IRModule mod = Typed(R"(def @main() {
  arange(1f, 2.5f, 0.5f, dtype="float32")
})");
  EXPECT_EQ(ResultType(mod), "Tensor[(3), float32]");
  ExpectValues(RunMain(mod, {})[0], {3}, {1, 1.5, 2});
  // numpy.arange(1, 6, 2, dtype=int64) = [1, 3, 5]
  ir::IRModule ints = Typed(R"(def @main() {
  arange(1i64, 6i64, 2i64, dtype="int64")
})");
  EXPECT_EQ(ResultType(ints), "Tensor[(3), int64]");
  ExpectValues(RunMain(ints, {})[0], {3}, {1, 3, 5});
}

TEST(RangeOpsTest, ArangeOfVariablesIsSizedAtRunTime) {
  ir::IRModule mod = Typed(R"(def @main(%start: int32, %stop: int32, %step: int32) {
  arange(%start, %stop, %step, dtype="int32")
})");
  EXPECT_EQ(ResultType(mod), "Tensor[(?), int32]");
  auto scalar = [](int32_t v) { return NDArray::Scalar<int32_t>(v, DataType::Int32()); };
  // numpy.arange(10, 1, -3) = [10, 7, 4]; numpy.arange(5, 1, 1) is empty.
  ExpectValues(RunMain(mod, {scalar(10), scalar(1), scalar(-3)})[0], {3}, {10, 7, 4});
  EXPECT_EQ(RunMain(mod, {scalar(5), scalar(1), scalar(1)})[0].shape(), (Shape{0}));
  EXPECT_THROW(RunMain(mod, {scalar(0), scalar(5), scalar(0)}), Error);  // a zero step
}

TEST(RangeOpsTest, ArangeRejectsAnEmptyConstantRangeAsTvmDoes) {
  // TVM's ArangeRel requires a positive number of values for constant bounds.
  EXPECT_THROW(Typed(R"(def @main() { arange(5f, 1f, 1f, dtype="float32") })"), Error);
  EXPECT_THROW(Typed(R"(def @main() { arange(0f, 1f, 0f, dtype="float32") })"), Error);
}

TEST(RangeOpsTest, MeshgridRepeatsEachVectorAlongItsAxis) {
  ir::IRModule mod = Typed(R"(def @main(%x: Tensor[(3), int64], %y: Tensor[(2), int64]) {
  (meshgrid((%x, %y)), meshgrid((%x, %y), indexing="xy"))
})");
  EXPECT_EQ(ResultType(mod),
            "((Tensor[(3, 2), int64], Tensor[(3, 2), int64]), (Tensor[(2, 3), int64], "
            "Tensor[(2, 3), int64]))");
  const NDArray x = Array<int64_t>({3}, {1, 2, 3}, DataType::Int64());
  const NDArray y = Array<int64_t>({2}, {4, 5}, DataType::Int64());
  std::vector<NDArray> out = RunMain(mod, {x, y});
  ASSERT_EQ(out.size(), 4u);
  // numpy.meshgrid([1, 2, 3], [4, 5], indexing="ij")
  ExpectValues(out[0], {3, 2}, {1, 1, 2, 2, 3, 3});
  ExpectValues(out[1], {3, 2}, {4, 5, 4, 5, 4, 5});
  // numpy.meshgrid([1, 2, 3], [4, 5]) ("xy")
  ExpectValues(out[2], {2, 3}, {1, 2, 3, 1, 2, 3});
  ExpectValues(out[3], {2, 3}, {4, 4, 4, 5, 5, 5});
  EXPECT_THROW(Typed(R"(def @main(%x: Tensor[(3), int64], %y: Tensor[(2, 2), int64]) {
  meshgrid((%x, %y))
})"),
               Error);
}

TEST(UniqueOpsTest, ArgwhereListsNonZeroCoordinates) {
  ir::IRModule mod = Typed(R"(def @main(%x: Tensor[(2, 3), float32]) {
  argwhere(%x)
})");
  EXPECT_EQ(ResultType(mod), "Tensor[(?, 2), int32]");
  // numpy.argwhere([[0, 1, 0], [2, 0, 9]]) = [[0, 1], [1, 0], [1, 2]]
  std::vector<NDArray> out = RunMain(mod, {Array({2, 3}, {0, 1, 0, 2, 0, 9})});
  EXPECT_EQ(out[0].dtype(), DataType::Int32());
  ExpectValues(out[0], {3, 2}, {0, 1, 1, 0, 1, 2});
  EXPECT_EQ(RunMain(mod, {Array({2, 3}, {0, 0, 0, 0, 0, 0})})[0].shape(), (Shape{0, 2}));
}

TEST(UniqueOpsTest, UniqueSortedAndInOrderOfFirstOccurrence) {
  ir::IRModule mod = Typed(R"(def @main(%x: Tensor[(8), int32]) {
  (unique(%x, return_counts=True), unique(%x, sorted=False))
})");
  EXPECT_EQ(ResultType(mod),
            "((Tensor[(8), int32], Tensor[(8), int32], Tensor[(8), int32], Tensor[(1), int32], "
            "Tensor[(8), int32]), (Tensor[(8), int32], Tensor[(8), int32], Tensor[(8), int32], "
            "Tensor[(1), int32]))");
  const NDArray x = Array<int32_t>({8}, {4, 5, 1, 2, 3, 3, 4, 5}, DataType::Int32());
  std::vector<NDArray> out = RunMain(mod, {x});
  ASSERT_EQ(out.size(), 9u);
  // numpy.unique(x, return_index=True, return_inverse=True, return_counts=True): values
  // [1, 2, 3, 4, 5], first indices [2, 3, 4, 0, 1], inverse [3, 4, 0, 1, 2, 2, 3, 4], counts
  // [1, 1, 2, 2, 2]; padding: 0 values and counts, indices the length (8).
  ExpectValues(out[0], {8}, {1, 2, 3, 4, 5, 0, 0, 0});
  ExpectValues(out[1], {8}, {2, 3, 4, 0, 1, 8, 8, 8});
  ExpectValues(out[2], {8}, {3, 4, 0, 1, 2, 2, 3, 4});
  ExpectValues(out[3], {1}, {5});
  ExpectValues(out[4], {8}, {1, 1, 2, 2, 2, 0, 0, 0});
  // Unsorted: the values in order of first occurrence (TVM's topi.unique example).
  ExpectValues(out[5], {8}, {4, 5, 1, 2, 3, 0, 0, 0});
  ExpectValues(out[6], {8}, {0, 1, 2, 3, 4, 8, 8, 8});
  ExpectValues(out[7], {8}, {0, 1, 2, 3, 4, 4, 0, 1});
  ExpectValues(out[8], {1}, {5});
  EXPECT_THROW(Typed(R"(def @main(%x: Tensor[(2, 2), int32]) { unique(%x) })"), Error);
}

TEST(UniqueOpsTest, AdvIndexIsNumpyAdvancedIndexing) {
  ir::IRModule mod = Typed(R"(def @main(%x: Tensor[(3, 2), float32], %i: Tensor[(2), int64],
                                         %j: Tensor[(1), int64], %r: Tensor[(2, 1), int32]) {
  (adv_index((%x, %i, %j)), adv_index((%x, %r)))
})");
  EXPECT_EQ(ResultType(mod), "(Tensor[(2), float32], Tensor[(2, 1, 2), float32])");
  const NDArray x = Array({3, 2}, {0, 1, 2, 3, 4, 5});
  std::vector<NDArray> out = RunMain(mod, {x, Array<int64_t>({2}, {2, -3}, DataType::Int64()),
                                           Array<int64_t>({1}, {1}, DataType::Int64()),
                                           Array<int32_t>({2, 1}, {0, 2}, DataType::Int32())});
  // x[[2, -3], [1]] = [x[2, 1], x[0, 1]]; x[[[0], [2]]] = [[[0, 1]], [[4, 5]]]
  ExpectValues(out[0], {2}, {5, 1});
  ExpectValues(out[1], {2, 1, 2}, {0, 1, 4, 5});
  EXPECT_THROW(RunMain(mod, {x, Array<int64_t>({2}, {3, 0}, DataType::Int64()),
                             Array<int64_t>({1}, {0}, DataType::Int64()),
                             Array<int32_t>({2, 1}, {0, 0}, DataType::Int32())}),
               Error);
}

TEST(ImageOpsTest, Resize3DNearestAndTrilinear) {
  ir::IRModule mod = Typed(R"(def @main(%x: Tensor[(1, 1, 2, 2, 2), float32]) {
  (image.resize3d(%x, size=[4, 4, 4], roi=[0f, 0f, 0f, 0f, 0f, 0f], method="nearest_neighbor",
     coordinate_transformation_mode="asymmetric", rounding_method=""),
   image.resize3d(%x, size=[3, 3, 3], roi=[0f, 0f, 0f, 0f, 0f, 0f],
     coordinate_transformation_mode="align_corners"))
})");
  EXPECT_EQ(ResultType(mod),
            "(Tensor[(1, 1, 4, 4, 4), float32], Tensor[(1, 1, 3, 3, 3), float32])");
  const NDArray x = Array({1, 1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  std::vector<NDArray> out = RunMain(mod, {x});
  // Nearest, asymmetric, floor: output (d, h, w) takes input (d / 2, h / 2, w / 2).
  const std::vector<double> got = Values(out[0]);
  for (int d = 0; d < 4; ++d) {
    for (int h = 0; h < 4; ++h) {
      for (int w = 0; w < 4; ++w) {
        EXPECT_EQ(got[(d * 4 + h) * 4 + w], 1 + (d / 2) * 4 + (h / 2) * 2 + w / 2);
      }
    }
  }
  // Trilinear with align_corners: the centre (1, 1, 1) is the mean of all eight corners, 4.5,
  // and (0, 0, 1) the mean of 1 and 2.
  const std::vector<double> tri = Values(out[1]);
  EXPECT_NEAR(tri[13], 4.5, 1e-6);
  EXPECT_NEAR(tri[1], 1.5, 1e-6);
  EXPECT_NEAR(tri[26], 8, 1e-6);
}

TEST(ImageOpsTest, GridSample3DTrilinearAndNearest) {
  ir::IRModule mod = Typed(R"(def @main(%x: Tensor[(1, 1, 2, 2, 2), float32],
                                         %g: Tensor[(1, 3, 1, 1, 2), float32]) {
  (image.grid_sample(%x, %g, layout="NCDHW"),
   image.grid_sample(%x, %g, method="nearest", layout="NCDHW", padding_mode="border"))
})");
  EXPECT_EQ(ResultType(mod),
            "(Tensor[(1, 1, 1, 1, 2), float32], Tensor[(1, 1, 1, 1, 2), float32])");
  const NDArray x = Array({1, 1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  // Points (x, y, z) = (-1, -1, -1) and (0, 0, 0); align_corners: the first is voxel (0, 0, 0),
  // the second the centre, where trilinear sampling averages all eight voxels (4.5) and nearest
  // rounds 0.5 half to even, to voxel (0, 0, 0), as PyTorch's grid_sample.
  const NDArray g = Array({1, 3, 1, 1, 2}, {-1, 0, -1, 0, -1, 0});
  std::vector<NDArray> out = RunMain(mod, {x, g});
  ExpectValues(out[0], {1, 1, 1, 1, 2}, {1, 4.5});
  ExpectValues(out[1], {1, 1, 1, 1, 2}, {1, 1});
  EXPECT_THROW(Typed(R"(def @main(%x: Tensor[(1, 1, 2, 2, 2), float32],
                                  %g: Tensor[(1, 2, 1, 1, 2), float32]) {
  image.grid_sample(%x, %g, layout="NCDHW")
})"),
               Error);
}

TEST(LossOpsTest, CrossEntropyIsTheBatchMeanOfMinusSumOfProducts) {
  ir::IRModule mod = Typed(R"(def @main(%x: Tensor[(2, 2), float32], %y: Tensor[(2, 2), float32]) {
  (nn.cross_entropy_with_logits(%x, %y), nn.cross_entropy(%x, %y))
})");
  EXPECT_EQ(ResultType(mod), "(float32, float32)");
  const NDArray x = Array({2, 2}, {0.5, 0.25, 0.125, 1});
  const NDArray y = Array({2, 2}, {1, 0, 0, 1});
  std::vector<NDArray> out = RunMain(mod, {x, y});
  // -(0.5 + 1) / 2 and -(log 0.5 + log 1) / 2
  ExpectValues(out[0], {}, {-0.75});
  ExpectValues(out[1], {}, {-std::log(0.5) / 2});
  EXPECT_THROW(Typed(R"(def @main(%x: Tensor[(2, 2), float32], %y: Tensor[(2, 3), float32]) {
  nn.cross_entropy(%x, %y)
})"),
               Error);
}

TEST(ScatterMeanTest, EachUpdateIsAveragedWithTheCurrentValue) {
  ir::IRModule mod = Typed(R"(def @main(%d: Tensor[(3), float32], %i: Tensor[(3), int64],
                                         %u: Tensor[(3), float32]) {
  scatter_elements(%d, %i, %u, reduction="mean")
})");
  // TVM's topi: out[i] = (out[i] + u) / 2 in turn: place 0 gets 2 then 4: ((0 + 2) / 2 + 4) / 2
  // = 2.5; place 2 gets 6: (10 + 6) / 2 = 8.
  std::vector<NDArray> out =
      RunMain(mod, {Array({3}, {0, 1, 10}), Array<int64_t>({3}, {0, 0, 2}, DataType::Int64()),
                    Array({3}, {2, 4, 6})});
  ExpectValues(out[0], {3}, {2.5, 1, 8});
}

}  // namespace
}  // namespace relaypass::eval
