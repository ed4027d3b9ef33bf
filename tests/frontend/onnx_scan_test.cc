// Scan through the importer and the evaluator: opset 8's batched form (each batch element through
// the opset-9 unrolling, as TVM's _impl_v8) and its errors. Expected values: ONNX's Scan example
// (Operators.md, scan_sum: running sums of the rows) and the same sums by hand for a second batch
// element and for the reversed direction.
#include <gtest/gtest.h>

#include "onnx_builder.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/frontend/onnx.h"

namespace relaypass::frontend {
namespace {

using test::OnnxGraph;

// Scan-8 summing the rows of x [2, 3, 2] into the state [2, 2]: outputs the final sum y and
// every partial sum z [2, 3, 2].
OnnxGraph Scan8(int64_t direction, bool with_lengths, int64_t batch_of_state = 2) {
  OnnxGraph g(8);
  g.Input("state", {batch_of_state, 2});
  g.Input("x", {2, 3, 2});
  if (with_lengths) g.IntInitializer("lens", {3, 2});
  onnx::NodeProto& n =
      g.Node("Scan", {with_lengths ? "lens" : "", "state", "x"}, {"y", "z"}, "scan");
  OnnxGraph::IntAttr(n, "num_scan_inputs", 1);
  if (direction) OnnxGraph::IntsAttr(n, "directions", {direction});
  onnx::AttributeProto* body = n.add_attribute();
  body->set_name("body");
  body->set_type(onnx::AttributeProto::GRAPH);
  onnx::GraphProto* b = body->mutable_g();
  b->set_name("body");
  auto value = [](onnx::ValueInfoProto* v, const std::string& name) {
    v->set_name(name);
    auto* tt = v->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(onnx::TensorProto::FLOAT);
    tt->mutable_shape()->add_dim()->set_dim_value(2);
  };
  value(b->add_input(), "sum_in");
  value(b->add_input(), "next");
  value(b->add_output(), "sum_out");
  value(b->add_output(), "scan_out");
  onnx::NodeProto* add = b->add_node();
  add->set_op_type("Add");
  add->add_input("sum_in");
  add->add_input("next");
  add->add_output("sum_out");
  onnx::NodeProto* id = b->add_node();
  id->set_op_type("Identity");
  id->add_input("sum_out");
  id->add_output("scan_out");
  g.Output("y");
  g.Output("z");
  return g;
}

std::vector<ir::NDArray> RunScan(const OnnxGraph& g) {
  OnnxModel m = FromOnnxBytes(g.Bytes());
  ir::NDArray state = ir::NDArray::Empty({2, 2}, ir::DataType::Float32());
  ir::NDArray x = ir::NDArray::Empty({2, 3, 2}, ir::DataType::Float32());
  for (int i = 0; i < 4; ++i) state.mutable_data<float>()[i] = 0;
  for (int i = 0; i < 12; ++i) x.mutable_data<float>()[i] = static_cast<float>(i + 1);
  return eval::RunMain(m.mod, {state, x});
}

std::vector<float> Values(const ir::NDArray& a) {
  return std::vector<float>(a.data<float>(), a.data<float>() + a.size());
}

TEST(OnnxScanTest, Scan8RunsEachBatchElement) {
  std::vector<ir::NDArray> out = RunScan(Scan8(0, false));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].shape(), (ir::Shape{2, 2}));
  EXPECT_EQ(out[1].shape(), (ir::Shape{2, 3, 2}));
  // Batch 0 is ONNX's example (rows [1, 2], [3, 4], [5, 6]); batch 1 the rows 7..12.
  EXPECT_EQ(Values(out[0]), (std::vector<float>{9, 12, 27, 30}));
  EXPECT_EQ(Values(out[1]), (std::vector<float>{1, 2, 4, 6, 9, 12, 7, 8, 16, 18, 27, 30}));
}

TEST(OnnxScanTest, Scan8ReverseDirection) {
  std::vector<ir::NDArray> out = RunScan(Scan8(1, false));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(Values(out[0]), (std::vector<float>{9, 12, 27, 30}));
  // The partial sums from the last row up: [5, 6], [8, 10], [9, 12] (and 11..12 for batch 1).
  EXPECT_EQ(Values(out[1]), (std::vector<float>{5, 6, 8, 10, 9, 12, 11, 12, 20, 22, 27, 30}));
}

TEST(OnnxScanTest, Scan8ShortSequencesAndMismatchedBatchesAreNodeErrors) {
  try {
    FromOnnxBytes(Scan8(0, true).Bytes());
    ADD_FAILURE() << "no error";
  } catch (const OnnxError& e) {
    EXPECT_TRUE(e.unsupported());
    EXPECT_EQ(e.node_name(), "scan");
    EXPECT_NE(std::string(e.what()).find("sequence_lens"), std::string::npos) << e.what();
  }
  try {
    FromOnnxBytes(Scan8(0, false, 3).Bytes());
    ADD_FAILURE() << "no error";
  } catch (const OnnxError& e) {
    EXPECT_FALSE(e.unsupported());
    EXPECT_EQ(e.node_name(), "scan");
  }
}

}  // namespace
}  // namespace relaypass::frontend
