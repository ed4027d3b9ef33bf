// NonMaxSuppression, Unique and RoiAlign through the importer and the evaluator. Expected values:
// the examples of ONNX's operator documentation (Operators.md, the same as its backend test
// generators nonmaxsuppression.py and unique.py) and, for RoiAlign, bilinear samples computed
// by hand; bad nodes give an OnnxError naming the node.
#include <gtest/gtest.h>

#include "onnx_builder.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/frontend/onnx.h"
#include "relaypass/text/printer.h"

namespace relaypass::frontend {
namespace {

using test::Floats;
using test::ImportError;
using test::OnnxGraph;

ir::NDArray Int64s(const ir::Shape& shape, const std::vector<int64_t>& values) {
  ir::NDArray a = ir::NDArray::Empty(shape, ir::DataType::Int(64));
  std::copy(values.begin(), values.end(), a.mutable_data<int64_t>());
  return a;
}

std::vector<int64_t> AsInt64s(const ir::NDArray& a) {
  EXPECT_EQ(a.dtype(), ir::DataType::Int(64));
  return std::vector<int64_t>(a.data<int64_t>(), a.data<int64_t>() + a.size());
}

std::vector<float> AsFloats(const ir::NDArray& a) {
  return std::vector<float>(a.data<float>(), a.data<float>() + a.size());
}

// ONNX's NonMaxSuppression graph: boxes [1, 6, 4], scores [1, 1, 6] and the three limits.
OnnxGraph NmsGraph(int64_t center_point_box, const std::vector<int64_t>& boxes_shape = {1, 6, 4}) {
  OnnxGraph g(11);
  g.Input("boxes", boxes_shape);
  g.Input("scores", {1, 1, 6});
  g.Input("max", {1}, onnx::TensorProto::INT64);
  g.Input("iou", {1});
  g.Input("score", {1});
  onnx::NodeProto& n =
      g.Node("NonMaxSuppression", {"boxes", "scores", "max", "iou", "score"}, {"selected"}, "nms");
  if (center_point_box) OnnxGraph::IntAttr(n, "center_point_box", center_point_box);
  g.Output("selected");
  return g;
}

std::vector<int64_t> RunNms(const OnnxGraph& g, const std::vector<float>& boxes) {
  OnnxModel m = FromOnnxBytes(g.Bytes());
  std::vector<ir::NDArray> out = eval::RunMain(
      m.mod, {Floats({1, 6, 4}, boxes), Floats({1, 1, 6}, {0.9f, 0.75f, 0.6f, 0.95f, 0.5f, 0.3f}),
              Int64s({1}, {3}), Floats({1}, {0.5f}), Floats({1}, {0.0f})});
  EXPECT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].shape(), (ir::Shape{3, 3}));
  return AsInt64s(out[0]);
}

// ONNX's nonmaxsuppression_suppress_by_IOU, _flipped_coordinates and _center_point_box_format:
// the same three boxes survive, [batch, class, box] = [0, 0, 3], [0, 0, 0], [0, 0, 5].
TEST(OnnxDetectionTest, NonMaxSuppressionKeepsTheBestBoxesOfEachCluster) {
  const std::vector<int64_t> expected = {0, 0, 3, 0, 0, 0, 0, 0, 5};
  EXPECT_EQ(RunNms(NmsGraph(0), {0, 0,  1, 1,  0, 0.1f,  1, 1.1f,  0, -0.1f, 1, 0.9f,
                                 0, 10, 1, 11, 0, 10.1f, 1, 11.1f, 0, 100,   1, 101}),
            expected);
  EXPECT_EQ(RunNms(NmsGraph(0), {1, 1,  0, 0,  0, 0.1f,  1, 1.1f,  0, 0.9f, 1, -0.1f,
                                 0, 10, 1, 11, 1, 10.1f, 0, 11.1f, 1, 101,  0, 100}),
            expected);
  EXPECT_EQ(RunNms(NmsGraph(1), {0.5f, 0.5f,  1, 1, 0.5f, 0.6f,  1, 1, 0.5f, 0.4f,   1, 1,
                                 0.5f, 10.5f, 1, 1, 0.5f, 10.6f, 1, 1, 0.5f, 100.5f, 1, 1}),
            expected);
}

// TVM's graph: all_class_non_max_suppression, its rows cut to the count it returns by a
// dynamic strided_slice, so the output's first extent is unknown until run.
TEST(OnnxDetectionTest, NonMaxSuppressionIsADynamicSliceOfAllClassNms) {
  const std::string printed = text::PrettyPrint(FromOnnxBytes(NmsGraph(0).Bytes()).mod);
  EXPECT_NE(printed.find("vision.all_class_non_max_suppression("), std::string::npos) << printed;
  EXPECT_NE(printed.find("dyn.strided_slice("), std::string::npos) << printed;
  EXPECT_NE(printed.find("-> Tensor[(?, 3), int64]"), std::string::npos) << printed;
}

TEST(OnnxDetectionTest, NonMaxSuppressionBadNodesAreNodeErrors) {
  OnnxError rank = ImportError(NmsGraph(0, {6, 4}));
  EXPECT_EQ(rank.node_name(), "nms");
  EXPECT_NE(std::string(rank.what()).find("boxes must be [batch, boxes, 4]"), std::string::npos)
      << rank.what();
  OnnxError center = ImportError(NmsGraph(2));
  EXPECT_EQ(center.node_name(), "nms");
  EXPECT_NE(std::string(center.what()).find("center_point_box must be 0 or 1"), std::string::npos)
      << center.what();
}

// A data-dependent result (`?` rows) feeds the next node, which runs on its run-time shape:
// here a Gather of its box column, [3, 0, 5] for ONNX's suppress_by_IOU boxes.
TEST(OnnxDetectionTest, ADynamicResultFeedsTheNextNode) {
  OnnxGraph g = NmsGraph(0);
  g.Input("column", {}, onnx::TensorProto::INT64);
  onnx::NodeProto& gather = g.Node("Gather", {"selected", "column"}, {"y"}, "after");
  OnnxGraph::IntAttr(gather, "axis", 1);
  g.model().mutable_graph()->mutable_output(0)->set_name("y");
  OnnxModel m = FromOnnxBytes(g.Bytes());
  std::vector<ir::NDArray> out = eval::RunMain(
      m.mod, {Floats({1, 6, 4}, {0, 0,  1, 1,  0, 0.1f,  1, 1.1f,  0, -0.1f, 1, 0.9f,
                                 0, 10, 1, 11, 0, 10.1f, 1, 11.1f, 0, 100,   1, 101}),
              Floats({1, 1, 6}, {0.9f, 0.75f, 0.6f, 0.95f, 0.5f, 0.3f}), Int64s({1}, {3}),
              Floats({1}, {0.5f}), Floats({1}, {0.0f}), Int64s({}, {2})});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(AsInt64s(out[0]), (std::vector<int64_t>{3, 0, 5}));
}

std::vector<ir::NDArray> RunUnique(int64_t sorted) {
  OnnxGraph g(11);
  g.Input("x", {6});
  onnx::NodeProto& n = g.Node("Unique", {"x"}, {"y", "indices", "inverse", "counts"});
  OnnxGraph::IntAttr(n, "sorted", sorted);
  for (const char* o : {"y", "indices", "inverse", "counts"}) g.Output(o);
  OnnxModel m = FromOnnxBytes(g.Bytes());
  return eval::RunMain(m.mod, {Floats({6}, {2, 1, 1, 3, 4, 3})});
}

// ONNX's unique_not_sorted_without_axis and unique_sorted_without_axis on [2, 1, 1, 3, 4, 3].
TEST(OnnxDetectionTest, UniqueOfTheFlattenedInput) {
  std::vector<ir::NDArray> unsorted = RunUnique(0);
  ASSERT_EQ(unsorted.size(), 4u);
  EXPECT_EQ(AsFloats(unsorted[0]), (std::vector<float>{2, 1, 3, 4}));
  EXPECT_EQ(AsInt64s(unsorted[1]), (std::vector<int64_t>{0, 1, 3, 4}));
  EXPECT_EQ(AsInt64s(unsorted[2]), (std::vector<int64_t>{0, 1, 1, 2, 3, 2}));
  EXPECT_EQ(AsInt64s(unsorted[3]), (std::vector<int64_t>{1, 2, 2, 1}));
  std::vector<ir::NDArray> sorted = RunUnique(1);
  ASSERT_EQ(sorted.size(), 4u);
  EXPECT_EQ(AsFloats(sorted[0]), (std::vector<float>{1, 2, 3, 4}));
  EXPECT_EQ(AsInt64s(sorted[1]), (std::vector<int64_t>{1, 0, 3, 4}));
  EXPECT_EQ(AsInt64s(sorted[2]), (std::vector<int64_t>{1, 0, 0, 2, 3, 2}));
  EXPECT_EQ(AsInt64s(sorted[3]), (std::vector<int64_t>{2, 1, 2, 1}));
}

TEST(OnnxDetectionTest, UniqueAlongAnAxisOfAMatrixIsUnsupportedAndBadAttributesFail) {
  OnnxGraph g(11);
  g.Input("x", {2, 3});
  onnx::NodeProto& n = g.Node("Unique", {"x"}, {"y"}, "uq");
  OnnxGraph::IntAttr(n, "axis", 0);
  g.Output("y");
  OnnxError axis = ImportError(g);
  EXPECT_TRUE(axis.unsupported());
  EXPECT_EQ(axis.node_name(), "uq");
  OnnxGraph::IntAttr(*g.model().mutable_graph()->mutable_node(0), "sorted", 3);
  g.model().mutable_graph()->mutable_node(0)->mutable_attribute(0)->set_i(5);
  OnnxError bad = ImportError(g);
  EXPECT_FALSE(bad.unsupported());
  EXPECT_EQ(bad.node_name(), "uq");
}

std::vector<float> RunRoiAlign(int64_t opset, const std::string& transform,
                               const std::string& mode = "avg") {
  OnnxGraph g(opset);
  g.Input("x", {1, 1, 4, 4});
  g.Input("rois", {1, 4});
  g.Input("batch", {1}, onnx::TensorProto::INT64);
  onnx::NodeProto& n = g.Node("RoiAlign", {"x", "rois", "batch"}, {"y"}, "roi");
  OnnxGraph::IntAttr(n, "sampling_ratio", 1);
  if (!transform.empty()) OnnxGraph::StringAttr(n, "coordinate_transformation_mode", transform);
  OnnxGraph::StringAttr(n, "mode", mode);
  g.Output("y");
  OnnxModel m = FromOnnxBytes(g.Bytes());
  std::vector<float> x(16);
  for (int i = 0; i < 16; ++i) x[i] = static_cast<float>(i);
  std::vector<ir::NDArray> out = eval::RunMain(
      m.mod, {Floats({1, 1, 4, 4}, x), Floats({1, 4}, {0, 0, 3, 3}), Int64s({1}, {0})});
  EXPECT_EQ(out[0].shape(), (ir::Shape{1, 1, 1, 1}));
  return AsFloats(out[0]);
}

// One bin over the roi [0, 0, 3, 3] of the 4 x 4 ramp x[r][c] = 4r + c, one sample at the bin's
// centre: (1.5, 1.5) gives 4 * 1.5 + 1.5 = 7.5 (output_half_pixel, opset 10's only mode); with
// half_pixel the roi starts half a pixel up-left, the centre is (1, 1): 5.
TEST(OnnxDetectionTest, RoiAlignSamplesBilinearlyInBothCoordinateModes) {
  EXPECT_EQ(RunRoiAlign(10, ""), (std::vector<float>{7.5f}));
  EXPECT_EQ(RunRoiAlign(16, "output_half_pixel"), (std::vector<float>{7.5f}));
  EXPECT_EQ(RunRoiAlign(16, ""), (std::vector<float>{5.0f}));  // half_pixel by default
  EXPECT_EQ(RunRoiAlign(16, "half_pixel", "max"), (std::vector<float>{5.0f}));
}

TEST(OnnxDetectionTest, RoiAlignBadNodesAreNodeErrors) {
  OnnxGraph g(16);
  g.Input("x", {1, 1, 4, 4});
  g.Input("rois", {1, 4});
  g.Input("batch", {1}, onnx::TensorProto::INT64);
  onnx::NodeProto& n = g.Node("RoiAlign", {"x", "rois", "batch"}, {"y"}, "roi");
  OnnxGraph::StringAttr(n, "coordinate_transformation_mode", "align_corners");
  g.Output("y");
  OnnxError transform = ImportError(g);
  EXPECT_EQ(transform.node_name(), "roi");
  EXPECT_NE(std::string(transform.what()).find("coordinate_transformation_mode"), std::string::npos)
      << transform.what();
  OnnxGraph r(16);
  r.Input("x", {1, 4, 4});
  r.Input("rois", {1, 4});
  r.Input("batch", {1}, onnx::TensorProto::INT64);
  r.Node("RoiAlign", {"x", "rois", "batch"}, {"y"}, "roi3d");
  r.Output("y");
  OnnxError rank = ImportError(r);
  EXPECT_EQ(rank.node_name(), "roi3d");
  EXPECT_NE(std::string(rank.what()).find("X must be 4-D"), std::string::npos) << rank.what();
}

}  // namespace
}  // namespace relaypass::frontend
