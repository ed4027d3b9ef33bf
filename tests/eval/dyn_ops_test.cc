// The dyn.* operators and the sparse ones (their result sizes come from values): type relations
// giving `?` where TVM's do, kernels taking their shape arguments at run time (the result shapes
// and values are NumPy's for the same call, worked out by hand below), and bad run-time values as
// errors naming the op.
#include "relaypass/ir/type_infer.h"
#include "relaypass/support/resource_error.h"
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

NDArray I64(const std::vector<double>& values) {
  return Array<int64_t>({static_cast<int64_t>(values.size())}, values, DataType::Int64());
}

NDArray Iota(const Shape& shape) {
  NDArray x = NDArray::Empty(shape, DataType::Float32());
  for (int64_t i = 0; i < x.size(); ++i) x.mutable_data<float>()[i] = static_cast<float>(i);
  return x;
}

TEST(DynOpsTest, ReshapeTakesTheShapeAtRunTime) {
  ir::IRModule mod = Typed(R"(def @main(%x: Tensor[(2, 3, 4), float32], %s: Tensor[(2), int64]) {
  dyn.reshape(%x, %s)
})");
  EXPECT_EQ(ResultType(mod), "Tensor[(?, ?), float32]");
  const NDArray x = Iota({2, 3, 4});
  // numpy.reshape(x, (4, 6)); 0 copies the input's extent and -1 infers: (2, 12).
  std::vector<NDArray> out = RunMain(mod, {x, I64({4, -1})});
  EXPECT_EQ(out[0].shape(), (Shape{4, 6}));
  EXPECT_EQ(Values(out[0]), Values(x));
  EXPECT_EQ(RunMain(mod, {x, I64({0, -1})})[0].shape(), (Shape{2, 12}));
  EXPECT_THROW(RunMain(mod, {x, I64({5, -1})}), Error);  // 24 elements are not 5 x k
  EXPECT_THROW(RunMain(mod, {x, I64({-2, 4})}), Error);  // -2 would change the rank
}

TEST(DynOpsTest, InitOpsAndBroadcastTo) {
  ir::IRModule mod =
      Typed(R"(def @main(%s: Tensor[(2), int32], %v: float32, %y: Tensor[(3), float32]) {
  (dyn.zeros(%s, dtype="int8"), dyn.ones(%s, dtype="float32"), dyn.full(%v, %s, dtype="float32"),
   dyn.broadcast_to(%y, %s))
})");
  EXPECT_EQ(ResultType(mod),
            "(Tensor[(?, ?), int8], Tensor[(?, ?), float32], Tensor[(?, ?), float32], "
            "Tensor[(?, ?), float32])");
  const NDArray shape = Array<int32_t>({2}, {2, 3}, DataType::Int32());
  std::vector<NDArray> out = RunMain(
      mod, {shape, NDArray::Scalar<float>(7.5f, DataType::Float32()), Array({3}, {1, 2, 3})});
  ExpectValues(out[0], {2, 3}, {0, 0, 0, 0, 0, 0});
  EXPECT_EQ(out[0].dtype(), DataType::Int(8));
  ExpectValues(out[1], {2, 3}, {1, 1, 1, 1, 1, 1});
  ExpectValues(out[2], {2, 3}, {7.5, 7.5, 7.5, 7.5, 7.5, 7.5});
  ExpectValues(out[3], {2, 3}, {1, 2, 3, 1, 2, 3});  // numpy.broadcast_to([1, 2, 3], (2, 3))
  const NDArray negative = Array<int32_t>({2}, {2, -3}, DataType::Int32());
  EXPECT_THROW(RunMain(mod, {negative, NDArray::Scalar<float>(1, DataType::Float32()),
                             Array({3}, {1, 2, 3})}),
               Error);
}

TEST(DynOpsTest, HugeRunTimeShapesAreErrorsNotAllocations) {
  ir::IRModule mod = Typed(R"(def @main(%s: Tensor[(3), int64]) {
  dyn.zeros(%s, dtype="float32")
})");
  // 2^62 elements overflow int64 bytes; 2^20 x 2^20 float32 is 4 TiB, over any memory budget.
  EXPECT_THROW(RunMain(mod, {I64({4611686018427387904.0, 1, 1})}), ResourceError);
  EXPECT_THROW(RunMain(mod, {I64({1048576, 1048576, 1})}), ResourceError);
}

TEST(DynOpsTest, TileExpandDimsSqueezeAndStridedSlice) {
  ir::IRModule mod = Typed(R"(def @main(%x: Tensor[(1, 2, 3), float32], %r: Tensor[(2), float32],
                                    %a: int32, %axes: Tensor[(1), int32],
                                    %b: Tensor[(2), int64], %e: Tensor[(2), int64],
                                    %st: Tensor[(2), int64]) {
  (dyn.tile(%x, %r), dyn.expand_dims(%x, %a, num_newaxis=2), dyn.squeeze(%x, %axes),
   dyn.strided_slice(%x, %b, %e, %st))
})");
  EXPECT_EQ(
      ResultType(mod),
      "(Tensor[(?, ?, ?), float32], Tensor[(?, ?, ?, ?, ?), float32], Tensor[(?, ?), float32], "
      "Tensor[(?, ?, 3), float32])");
  const NDArray x = Iota({1, 2, 3});
  std::vector<NDArray> out = RunMain(
      mod, {x, Array({2}, {2, 1}), NDArray::Scalar<int32_t>(1, DataType::Int32()),
            Array<int32_t>({1}, {0}, DataType::Int32()), I64({0, 1}), I64({1, 2}), I64({1, 1})});
  // numpy.tile(x, (2, 1)): reps padded to (1, 2, 1).
  ExpectValues(out[0], {1, 4, 3}, {0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5});
  EXPECT_EQ(out[1].shape(), (Shape{1, 1, 1, 2, 3}));
  ExpectValues(out[2], {2, 3}, {0, 1, 2, 3, 4, 5});
  ExpectValues(out[3], {1, 1, 3}, {3, 4, 5});  // x[0:1, 1:2, :]
}

TEST(DynOpsTest, OneHotTopKAndPad) {
  ir::IRModule mod = Typed(R"(def @main(%i: Tensor[(2), int32], %d: int32, %x: Tensor[(4), float32],
                                    %k: Tensor[(1), float32], %w: Tensor[(1, 2), int64]) {
  (dyn.one_hot(%i, 1f, 0f, %d, axis=-1, dtype="float32"),
   dyn.topk(%x, %k, axis=-1, ret_type="values", is_ascend=False, dtype="int32"),
   dyn.nn.pad(%x, %w, 9f))
})");
  EXPECT_EQ(ResultType(mod),
            "(Tensor[(2, ?), float32], Tensor[(?), float32], Tensor[(?), float32])");
  std::vector<NDArray> out =
      RunMain(mod, {Array<int32_t>({2}, {2, 0}, DataType::Int32()),
                    NDArray::Scalar<int32_t>(3, DataType::Int32()), Array({4}, {3, 9, 1, 5}),
                    Array({1}, {2}), Array<int64_t>({1, 2}, {1, 2}, DataType::Int64())});
  ExpectValues(out[0], {2, 3}, {0, 0, 1, 1, 0, 0});
  ExpectValues(out[1], {2}, {9, 5});  // the 2 largest, as TVM's k given as a float32 (1,) tensor
  ExpectValues(out[2], {7}, {9, 3, 9, 1, 5, 9, 9});  // numpy.pad(x, (1, 2), constant_values=9)
}

TEST(DynOpsTest, UpSamplingAndResizeInBothLayouts) {
  ir::IRModule mod = Typed(R"(def @main(%x: Tensor[(1, 1, 2, 2), float32], %h: float64, %w: float64,
                                    %y: Tensor[(1, 2, 2, 1), float32], %size: Tensor[(2), int64],
                                    %roi: Tensor[(4), float32]) {
  (dyn.nn.upsampling(%x, %h, %w, method="nearest_neighbor"),
   dyn.image.resize2d(%y, %size, %roi, layout="NHWC", method="nearest_neighbor",
                      coordinate_transformation_mode="asymmetric", rounding_method="floor"))
})");
  EXPECT_EQ(ResultType(mod), "(Tensor[(1, 1, ?, ?), float32], Tensor[(1, ?, ?, 1), float32])");
  std::vector<NDArray> out = RunMain(
      mod, {Array({1, 1, 2, 2}, {1, 2, 3, 4}), NDArray::Scalar<double>(2, DataType::Float(64)),
            NDArray::Scalar<double>(1, DataType::Float(64)), Array({1, 2, 2, 1}, {1, 2, 3, 4}),
            I64({2, 4}), Array({4}, {0, 0, 0, 0})});
  // Nearest neighbour: rows doubled, columns kept; in NHWC columns doubled, rows kept.
  ExpectValues(out[0], {1, 1, 4, 2}, {1, 2, 1, 2, 3, 4, 3, 4});
  ExpectValues(out[1], {1, 2, 4, 1}, {1, 1, 2, 2, 3, 3, 4, 4});
}

TEST(SparseOpsTest, SparseToDenseStaticAndDynamic) {
  ir::IRModule mod = Typed(R"(def @main(%i: Tensor[(2, 2), int64], %v: Tensor[(2), float32],
                                    %d: float32, %s: Tensor[(2), int32]) {
  (sparse_to_dense(%i, %v, %d, output_shape=[2, 3]), dyn.sparse_to_dense(%i, %v, %d, %s))
})");
  EXPECT_EQ(ResultType(mod), "(Tensor[(2, 3), float32], Tensor[(?, ?), float32])");
  const NDArray indices = Array<int64_t>({2, 2}, {0, 0, 1, 2}, DataType::Int64());
  const NDArray fill = NDArray::Scalar<float>(-1, DataType::Float32());
  std::vector<NDArray> out = RunMain(
      mod, {indices, Array({2}, {5, 6}), fill, Array<int32_t>({2}, {2, 4}, DataType::Int32())});
  ExpectValues(out[0], {2, 3}, {5, -1, -1, -1, -1, 6});
  ExpectValues(out[1], {2, 4}, {5, -1, -1, -1, -1, -1, 6, -1});
  // An index outside the run-time shape is an error, not a write out of bounds.
  EXPECT_THROW(RunMain(mod, {indices, Array({2}, {5, 6}), fill,
                             Array<int32_t>({2}, {2, 2}, DataType::Int32())}),
               Error);
}

TEST(SparseOpsTest, SparseFillEmptyRowsAddsADefaultEntryPerEmptyRow) {
  ir::IRModule mod = Typed(R"(def @main(%i: Tensor[(?, ?), int64], %v: Tensor[(?), int64],
                                    %shape: Tensor[(2), int64], %d: Tensor[(1), int64]) {
  sparse_fill_empty_rows(%i, %v, %shape, %d)
})");
  EXPECT_EQ(ResultType(mod), "(Tensor[(?, ?), int64], Tensor[(?), int64], Tensor[(?), int64])");
  // Entries in rows 0, 0, 2, 3 of a 5-row matrix: rows 1 and 4 get (row, 0) = 10 (worked by hand
  // as TVM's reference: each missing row inserted before the next entry, then the tail).
  std::vector<NDArray> out =
      RunMain(mod, {Array<int64_t>({4, 2}, {0, 1, 0, 3, 2, 0, 3, 1}, DataType::Int64()),
                    I64({1, 2, 3, 4}), I64({5, 6}), I64({10})});
  ExpectValues(out[0], {6, 2}, {0, 1, 0, 3, 1, 0, 2, 0, 3, 1, 4, 0});
  ExpectValues(out[1], {6}, {1, 2, 10, 3, 4, 10});
  ExpectValues(out[2], {5}, {0, 1, 0, 0, 1});
  // No entries at all: every row is filled.
  out = RunMain(mod, {NDArray::Empty({0, 2}, DataType::Int64()),
                      NDArray::Empty({0}, DataType::Int64()), I64({2, 6}), I64({7})});
  ExpectValues(out[0], {2, 2}, {0, 0, 1, 0});
  ExpectValues(out[1], {2}, {7, 7});
  EXPECT_THROW(RunMain(mod, {Array<int64_t>({1, 2}, {9, 0}, DataType::Int64()), I64({1}),
                             I64({5, 6}), I64({10})}),
               Error);  // row 9 of 5
}

TEST(DynOpsTest, RelationsRefuseWhatTVMRefuses) {
  // A shape argument of unknown length would make the rank dynamic.
  EXPECT_THROW(Typed(R"(def @main(%x: Tensor[(2, 3), float32], %s: Tensor[(?), int64]) {
  dyn.reshape(%x, %s)
})"),
               TypeError);
  // A shape argument's length is the result's rank: a huge one is refused, not allocated.
  EXPECT_THROW(Typed(R"(def @main(%x: Tensor[(2, 3), float32], %s: Tensor[(100000000000), int64]) {
  dyn.reshape(%x, %s)
})"),
               TypeError);
  EXPECT_THROW(Typed(R"(def @main(%x: Tensor[(2, 3), float32], %a: Tensor[(1), int32]) {
  dyn.expand_dims(%x, %a)
})"),
               TypeError);  // axis must be a scalar
  EXPECT_THROW(Typed(R"(def @main(%x: Tensor[(2, 3), float32], %w: Tensor[(3, 2), int64]) {
  dyn.nn.pad(%x, %w, 0f)
})"),
               TypeError);  // pad_width must be (rank, 2)
}

}  // namespace
}  // namespace relaypass::eval
